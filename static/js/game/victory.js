// The victory meter: for each seat, its regions against the total that wins and its longest
// chain of adjacent regions against the chain that wins (the view's `targets` and each player's
// `chain`, public facts). Pointing at a seat's row (hover or focus) brings its chain forward on
// the map; board.js draws every chain of two or more regions all the time.
// It is compact so that it never leaves the screen: one column per seat (its initial, then
// "2/5" and "1/3" over small bars) beside one legend column ("Regions", "Adjacent"), pinned
// above the lines (game.css), six seats fitting a phone's width.

import { seatInitial } from "./lines.js";
import { seatFullName } from "./i18n.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// One bar: "3/5" over a <meter>, which screen readers read as "Regions 3/5", a value out of a
// maximum; the legend column names the bar for the eye.
function gauge(label, count, target, kind) {
  const wrap = element("span", `victory__gauge victory__gauge--${kind}`);
  const text = element("span", "victory__count", `${count}/${target}`);
  const meter = element("meter", "victory__meter");
  meter.min = 0;
  meter.max = target;
  meter.value = Math.min(count, target);
  // Coloured by how close the seat is: one short of the target is the warning a player needs.
  meter.low = Math.max(target - 2, 1);
  meter.high = target - 1;
  meter.optimum = 0;
  meter.setAttribute("aria-label", label);
  wrap.dataset.count = String(count);
  wrap.dataset.target = String(target);
  wrap.append(text, meter);
  return wrap;
}

function seatRow(player, { view, game, t, targets }) {
  const seat = player.seat;
  const row = element("li", "victory__seat");
  row.dataset.seat = String(seat);
  row.style.setProperty("--seat", `var(--seat-${seat})`);
  row.classList.toggle("is-you", view.seat === seat);
  const chain = player.chain ?? [];
  const regions = player.regions ?? 0;
  const close = regions >= targets.regions - 1 || chain.length >= targets.adjacent - 1;
  row.classList.toggle("is-close", close && view.phase !== "over");
  row.classList.toggle("is-winner", (view.winners ?? []).includes(seat));
  const swatch = element("span", "line__swatch", seatInitial(t, game, seat));
  swatch.setAttribute("aria-hidden", "true");
  const name = element("span", "victory__name visually-hidden", seatFullName(t, game, seat));
  row.title = name.textContent;
  row.append(
    swatch,
    name,
    gauge(t.ui("victory_regions", { count: regions, target: targets.regions }), regions, targets.regions, "regions"),
    gauge(t.ui("victory_adjacent", { count: chain.length, target: targets.adjacent }), chain.length, targets.adjacent, "adjacent"),
  );
  if (chain.length > 0) {
    const regionsText = chain.map((region) => t.region(region)).join(", ");
    row.title = t.ui("victory_chain", { player: seatFullName(t, game, seat), regions: regionsText });
    // Focusable so that keyboard users can bring the chain forward as a pointer does.
    row.tabIndex = 0;
    const [regionsLabel, adjacentLabel] = [...row.querySelectorAll(".victory__meter")].map((meter) => meter.getAttribute("aria-label"));
    row.setAttribute("aria-label", `${name.textContent}: ${regionsLabel}, ${adjacentLabel}. ${row.title}`);
  }
  return row;
}

// The names of the meter's two rows, once for every seat; the rule that wins on hover and for
// screen readers.
function legend(t, targets) {
  const column = element("p", "victory__legend");
  column.title = t.ui("victory_rule", targets);
  column.append(
    element("span", "victory__rule visually-hidden", t.ui("victory_rule", targets)),
    element("span", "victory__legend-row", t.ui("victory_regions_row")),
    element("span", "victory__legend-row", t.ui("victory_adjacent_row")),
  );
  return column;
}

// Marks the map's regions of one seat's chain while its row is pointed at or focused.
function spotlightChain(svg, chain) {
  svg?.classList.toggle("is-spotlight", Boolean(chain));
  svg?.querySelectorAll("g.region").forEach((group) => {
    group.classList.toggle("is-spotlit", Boolean(chain?.includes(group.dataset.region)));
  });
}

export function createVictoryMeter(section, svg, t) {
  const list = section.querySelector("[data-victory]");
  const title = section.querySelector("[data-victory-title]");
  let chains = new Map();
  const pointed = (event) => event.target.closest?.(".victory__seat[data-seat]");
  const show = (event) => {
    const row = pointed(event);
    spotlightChain(svg, row ? chains.get(Number(row.dataset.seat)) : null);
  };
  const hide = () => spotlightChain(svg, null);
  list.addEventListener("pointerover", show);
  list.addEventListener("focusin", show);
  list.addEventListener("pointerleave", hide);
  list.addEventListener("focusout", hide);

  return {
    update(view, game) {
      const targets = view?.targets;
      section.hidden = !targets || !view.players?.length;
      if (section.hidden) return;
      title.textContent = t.ui("victory_title");
      title.title = t.ui("victory_rule", targets);
      chains = new Map(view.players.map((player) => [player.seat, player.chain ?? []]));
      const rows = view.players.map((player) => seatRow(player, { view, game, t, targets }));
      const ol = element("ol", "victory__seats");
      ol.append(...rows);
      list.replaceChildren(legend(t, targets), ol);
    },
  };
}
