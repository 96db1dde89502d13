// The map: control markers in seat colours, the Condottiere and Pope tokens, the contested
// region, the regions that may be chosen right now (clickable, focusable, Enter/Space), each
// seat's longest chain of adjacent regions (outlined in its colour: the victory meter's count)
// and, once the game is over, the winners' regions.
// Re-rendering is idempotent: attributes are set from the frame, the token layer is rebuilt.

import { iconGroup, SVG_NS } from "./icons.js";
import { seatInitial } from "./lines.js";

const TOKEN_OFFSET = 19;

function regionGroups(svg) {
  return [...svg.querySelectorAll("g.region[data-region]")];
}

function anchorOf(group) {
  return { x: Number(group.dataset.markerX), y: Number(group.dataset.markerY) };
}

function tokenLayer(svg) {
  let layer = svg.querySelector("g.board-tokens");
  if (!layer) {
    layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "board-tokens");
    layer.setAttribute("pointer-events", "none");
    layer.setAttribute("aria-hidden", "true");
    svg.append(layer);
  }
  layer.replaceChildren();
  return layer;
}

function circle(cx, cy, r, className) {
  const element = document.createElementNS(SVG_NS, "circle");
  element.setAttribute("cx", cx);
  element.setAttribute("cy", cy);
  element.setAttribute("r", r);
  element.setAttribute("class", className);
  return element;
}

// A disc in the seat's colour with its initial: colour-blind players tell seats apart by letter.
function controlMarker(x, y, seat, initial) {
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", `control-marker seat-${seat}`);
  const letter = document.createElementNS(SVG_NS, "text");
  letter.setAttribute("x", x);
  letter.setAttribute("y", y);
  letter.setAttribute("class", "control-marker__initial");
  letter.setAttribute("text-anchor", "middle");
  letter.setAttribute("dominant-baseline", "central");
  letter.textContent = initial;
  group.append(circle(x, y, 8.5, "control-marker__disc"), letter);
  return group;
}

function token(name, x, y) {
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", `token token--${name}`);
  group.append(circle(x, y, 11.5, "token__disc"), iconGroup(name, x, y, 15));
  return group;
}

function outline(group, className) {
  const shape = group.querySelector("path");
  const copy = document.createElementNS(SVG_NS, "path");
  copy.setAttribute("d", shape.getAttribute("d"));
  copy.setAttribute("class", className);
  return copy;
}

// Region name -> seat, for the regions of every chain of two or more (one chain can show alone).
function chainedRegions(view) {
  const chained = new Map();
  for (const player of view?.players ?? []) {
    if ((player.chain ?? []).length < 2) continue;
    for (const region of player.chain) chained.set(region, player.seat);
  }
  return chained;
}

function winningRegions(view, owners) {
  const winners = view?.phase === "over" ? (view.winners ?? []) : [];
  return new Set(Object.keys(owners).filter((region) => winners.includes(owners[region])));
}

function regionLabel(t, name, parts) {
  return [t.region(name), ...parts].join(" — ");
}

// choosable: Map region -> handler payload (whatever the controller wants back on a click).
export function renderBoard(svg, { view, game, t, choosable }) {
  const owners = view?.owners ?? {};
  const layer = tokenLayer(svg);
  // While a region is to be chosen, the others step back.
  svg.classList.toggle("is-choosing", choosable.size > 0);
  const outlines = [];
  const markers = [];
  const chained = chainedRegions(view);
  const winning = winningRegions(view, owners);
  for (const group of regionGroups(svg)) {
    const name = group.dataset.region;
    const owner = owners[name];
    const isOwned = owner !== undefined && owner !== null;
    const isContested = view?.region === name;
    const hasPope = view?.pope === name;
    const canChoose = choosable.has(name);
    if (isOwned) group.dataset.owner = String(owner);
    else delete group.dataset.owner;
    group.classList.toggle("is-contested", isContested);
    group.classList.toggle("is-choosable", canChoose);
    group.classList.toggle("has-pope", hasPope);
    group.classList.toggle("in-chain", chained.has(name));
    group.classList.toggle("is-winning", winning.has(name));
    group.setAttribute("tabindex", canChoose ? "0" : "-1");
    group.setAttribute("aria-disabled", canChoose ? "false" : "true");
    const parts = [];
    if (isOwned) parts.push(t.colour(game?.seats?.[owner]?.colour ?? ""));
    if (isContested) parts.push(t.ui("contested", { region: t.region(name) }));
    if (hasPope) parts.push(t.ui("pope_at", { region: t.region(name) }));
    if (winning.has(name)) parts.push(t.ui("winning_region"));
    group.setAttribute("aria-label", regionLabel(t, name, parts));

    const { x, y } = anchorOf(group);
    if (chained.has(name)) outlines.push(outline(group, `chain-outline seat-${chained.get(name)}`));
    if (winning.has(name)) outlines.push(outline(group, "winning-outline"));
    if (isContested) outlines.push(outline(group, "contested-outline"));
    if (canChoose) outlines.push(outline(group, "choosable-outline"));
    if (isOwned) markers.push(controlMarker(x, y, owner, seatInitial(t, game, owner)));
    if (isContested) markers.push(token("condottiere", isOwned ? x - TOKEN_OFFSET : x, y));
    if (hasPope) markers.push(token("pope", isOwned ? x + TOKEN_OFFSET : x, y));
  }
  layer.append(...outlines, ...markers);
}

// Clicks and Enter/Space on a choosable region call onChoose(regionName). Installed once.
export function listenToRegions(svg, onChoose) {
  const chosenRegion = (event) => {
    const group = event.target.closest?.("g.region[data-region]");
    return group?.classList.contains("is-choosable") ? group.dataset.region : null;
  };
  svg.addEventListener("click", (event) => {
    const region = chosenRegion(event);
    if (region) onChoose(region);
  });
  svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const region = chosenRegion(event);
    if (region) {
      event.preventDefault();
      onChoose(region);
    }
  });
}
