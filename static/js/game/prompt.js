// The decision panel: what the player may do now, built only from `view.legal_actions` (grouped
// by actions.js). Each button sends exactly one legal action.

import { popeChoices, scarecrowChoices, matchingKeep } from "./actions.js";
import { seatFullName } from "./i18n.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function actionButton(label, focusKey, onClick, { busy, secondary = false, disabled = false } = {}) {
  const button = element("button", `button${secondary ? " button--secondary" : ""}`, label);
  button.type = "button";
  button.dataset.focusKey = focusKey;
  button.disabled = Boolean(busy || disabled);
  button.addEventListener("click", onClick);
  return button;
}

function choiceRow(...buttons) {
  const row = element("div", "prompt__choices");
  row.append(...buttons);
  return row;
}

function question(text) {
  return element("p", "prompt__question", text);
}

function passButtons(passes, ctx) {
  const { t, send, busy, isDefender } = ctx;
  if (passes.length === 0) return [];
  if (passes.length === 1) {
    const label = isDefender ? t.ui("pass_defender") : t.ui("pass");
    return [actionButton(label, "pass", () => send(passes[0]), { busy, secondary: true })];
  }
  // Hidden Cards: passing may keep the face-down card hidden or turn it up.
  return passes.map((action) =>
    actionButton(
      action.reveal ? t.ui("pass_reveal") : t.ui("pass_keep_hidden"),
      action.reveal ? "pass-reveal" : "pass",
      () => send(action),
      { busy, secondary: true },
    ),
  );
}

function scarecrowPrompt(ways, ctx) {
  const { t, send, busy, cancel } = ctx;
  const { takes, nothing } = scarecrowChoices(ways);
  const buttons = takes.map((action) =>
    actionButton(t.ui("take_back", { card: t.cardTitle(action.take) }), `take-${action.take}`, () => send(action), { busy }),
  );
  if (nothing) buttons.push(actionButton(t.ui("take_nothing"), "take-none", () => send(nothing), { busy, secondary: true }));
  buttons.push(actionButton(t.ui("cancel"), "cancel", cancel, { secondary: true }));
  return [question(t.ui("scarecrow_prompt")), choiceRow(...buttons)];
}

// The list's choice survives a re-render (a frame may arrive while the player reads the list).
let popeListChoice = null;

// The Bishop's Pope: the regions he may go to are highlighted on the map (a click there sends
// the action); the same choice sits in one short list for keyboard and screen-reader users,
// instead of a button per region.
function popePrompt(ways, ctx) {
  const { t, send, busy, cancel } = ctx;
  const { onRegion, offBoard } = popeChoices(ways);
  const regions = [...onRegion.entries()].sort(([a], [b]) => t.region(a).localeCompare(t.region(b)));
  const select = element("select", "prompt__select");
  select.dataset.focusKey = "pope-select";
  select.setAttribute("aria-label", t.ui("pope_select"));
  select.disabled = Boolean(busy);
  for (const [region] of regions) {
    const option = element("option", "", t.region(region));
    option.value = region;
    select.append(option);
  }
  if (onRegion.has(popeListChoice)) select.value = popeListChoice;
  select.addEventListener("change", () => {
    popeListChoice = select.value;
  });
  const buttons = [];
  if (regions.length) {
    buttons.push(select);
    buttons.push(actionButton(t.ui("pope_place"), "pope-place", () => send(onRegion.get(select.value)), { busy }));
  }
  if (offBoard) buttons.push(actionButton(t.ui("pope_off"), "pope-off", () => send(offBoard), { busy, secondary: true }));
  buttons.push(actionButton(t.ui("cancel"), "cancel", cancel, { secondary: true }));
  const row = choiceRow(...buttons);
  row.classList.add("prompt__pope");
  return [question(t.ui("pope_map_prompt")), row];
}

function regionPrompt(groups, ctx) {
  const { t, send, busy } = ctx;
  const regions = [...groups.regions.entries()].sort(([a], [b]) => t.region(a).localeCompare(t.region(b)));
  const buttons = regions.map(([region, action]) =>
    actionButton(t.region(region), `region-${region}`, () => send(action), { busy, secondary: true }),
  );
  const list = choiceRow(...buttons);
  list.classList.add("prompt__choices--regions");
  return [question(t.ui("choose_region")), element("p", "prompt__hint", t.ui("choose_region_hint")), list];
}

// Step 4 asks every seat with cards. "Keep my hand" is always there; "Discard my hand" only when
// legal (no Mercenary in hand), else a short reason. Never answered automatically, not even when
// keeping is the only choice: an instant answer would tell the others, by its speed, that this
// hand holds a Mercenary.
function discardPrompt(groups, ctx) {
  const { t, send, busy } = ctx;
  const discard = groups.discards.find((action) => action.discard === true);
  const keep = groups.discards.find((action) => action.discard === false);
  const buttons = [];
  if (keep) buttons.push(actionButton(t.ui("discard_no"), "discard-no", () => send(keep), { busy, secondary: Boolean(discard) }));
  if (discard) buttons.push(actionButton(t.ui("discard_yes"), "discard-yes", () => send(discard), { busy }));
  const text = discard ? t.ui("discard_prompt") : t.ui("discard_forced");
  return [question(text), choiceRow(...buttons)];
}

function keepPrompt(groups, ctx) {
  const { t, send, busy, keepCards } = ctx;
  const chosen = matchingKeep(groups.keeps, keepCards);
  const nothing = matchingKeep(groups.keeps, []);
  const buttons = [
    actionButton(t.ui("keep_confirm"), "keep", () => chosen && send(chosen), {
      busy,
      disabled: !chosen || keepCards.length === 0,
    }),
  ];
  if (nothing) buttons.push(actionButton(t.ui("keep_none"), "keep-none", () => send(nothing), { busy, secondary: true }));
  return [question(t.ui("keep_prompt")), choiceRow(...buttons)];
}

function drawPrompt(groups, ctx) {
  const { t, send, busy } = ctx;
  const buttons = groups.draws.map((action) =>
    actionButton(t.ui("draw_count", { count: action.count }), `draw-${action.count}`, () => send(action), {
      busy,
      secondary: action.count === 0,
    }),
  );
  return [question(t.ui("draw_prompt")), choiceRow(...buttons)];
}

// "+1.3", with the ratings before and after in the title: the seat's rating change from this game.
function ratingChangeElement(change, t) {
  // The server sends the 1500-based display numbers, whole (docs/protocol.md, section 11):
  // printed as they come, with "+" above zero; -0 made 0, so nothing reads "-0".
  const whole = (value) => String(Math.round(value) || 0);
  const sign = Math.round(change.delta) > 0 ? "+" : "";
  const badge = element("span", "result__rating muted", `${sign}${whole(change.delta)}`);
  badge.title = t.ui("rating_change", { before: whole(change.before), after: whole(change.after) });
  badge.dataset.ratingDelta = String(change.delta);
  // A provisional rating moves a hundred points or more a game: the leaderboard's "?" says so.
  if (change.provisional) {
    const mark = element("abbr", "provisional", "?");
    mark.title = t.ui("rating_provisional");
    badge.title += ` (${mark.title})`;
    badge.dataset.provisional = "";
    badge.append(mark);
  }
  return badge;
}

function resultPanel(game, view, t) {
  const result = game?.result;
  const panel = element("div", "result");
  panel.append(element("h3", "result__title", t.ui("game_over")));
  const winners = result?.winners ?? view?.winners ?? [];
  const reason = result?.reason ? t.reason(result.reason) : "";
  let headline;
  if (winners.length === 1) {
    headline = t.ui("winner", { player: seatFullName(t, game, winners[0]), reason });
  } else if (winners.length > 1) {
    const players = winners.map((seat) => seatFullName(t, game, seat)).join(", ");
    headline = t.ui("winners_shared", { players, reason });
  } else {
    headline = t.ui("no_winner");
  }
  const headlineElement = element("p", "result__headline", headline);
  headlineElement.dataset.result = "";
  panel.append(headlineElement);
  const regions = result?.regions ?? (view?.players ?? []).map((player) => player.regions);
  const list = element("ol", "result__regions");
  // Filled in by the rating update a moment after the game ends (a new state frame brings it).
  const ratingChanges = new Map((game?.rating_changes ?? []).map((change) => [change.seat, change]));
  regions.forEach((count, seat) => {
    const item = element("li", "result__seat");
    item.style.setProperty("--seat", `var(--seat-${seat})`);
    item.classList.toggle("is-winner", winners.includes(seat));
    item.append(element("span", "line__swatch"), element("span", "", seatFullName(t, game, seat)), element("strong", "", t.count("regions_count", count)));
    const change = ratingChanges.get(seat);
    if (change) item.append(ratingChangeElement(change, t));
    list.append(item);
  });
  panel.append(list);
  return panel;
}

// ctx: { t, game, view, groups, pending, busy, send, cancel, keepCards, isDefender, isMyTurn }
export function promptContent(ctx) {
  const { groups, pending, view, game, t } = ctx;
  if (game?.status === "finished" || game?.status === "aborted" || view?.phase === "over") {
    return [resultPanel(game, view, t)];
  }
  if (!ctx.isMyTurn) return [];
  if (pending?.card === "scarecrow") return scarecrowPrompt(pending.ways, ctx);
  if (pending?.card === "bishop") return popePrompt(pending.ways, ctx);
  if (groups.regions.size > 0) return regionPrompt(groups, ctx);
  if (groups.discards.length > 0) return discardPrompt(groups, ctx);
  if (groups.keeps.length > 0) return keepPrompt(groups, ctx);
  if (groups.draws.length > 0) return drawPrompt(groups, ctx);
  const content = [];
  if (groups.cards.size > 0) content.push(question(t.ui("play_prompt")));
  const passes = passButtons(groups.passes, ctx);
  if (passes.length) content.push(choiceRow(...passes));
  return content;
}
