// The decisions TABLE renders (the battle's are static/js/renaissance/battle.js's): every choice
// comes from view.legal_actions, in the place it belongs. Cities are chosen on the map (mapPlan
// says which city does what: send an action, or select the first half of a two-step move such
// as an expansion's origin), the rest in the decision panel (renderDecision).
//
// A selection is the half-made move the page remembers between two clicks:
//   {mode: "build", piece} | {mode: "expand", from} | {mode: "attack", from}
//   | {mode: "card", type, free} (ride, raiders, marriage, artist, banker) | {mode: "lure", from}
// It is forgotten with every new version of the game.

import { roadBetween } from "./board.js";
import { CARD_PLAYS } from "./hand.js";

export const CITY_PHASES = new Set([
  "setup_start",
  "setup_rampart",
  "setup_palace",
  "setup_garrison",
  "return",
  "corrupt",
  "neglect",
]);
export const BATTLE_PHASES = new Set(["attack", "defend", "counter", "treason", "sign_of_god", "retreat"]);
const PRICES = { palace: 3, rampart: 4, castle: 4, fortress: 8 };
const PIECES = ["palace", "rampart", "castle", "fortress"];
// The combat moves played from a card, with the city key they name.
const CARD_TARGET = { ride: "to", raiders: "city", marriage: "city", artist: "city", banker: "city" };

function ofType(view, type) {
  return (view.legal_actions ?? []).filter((action) => action.type === type);
}

function lanesFrom(actions, facts) {
  return actions.map((action) => ({ from: action.from, to: action.to, sea: !roadBetween(facts, action.from, action.to) }));
}

// Which cities may be clicked now and what each does: {choices: Map(city -> {kind, send |
// select}), lanes: [{from, to, sea}]}. `select: null` cancels the selection.
export function mapPlan(view, selection, facts) {
  const choices = new Map();
  let lanes = [];
  const choose = (city, action) => city && choices.set(city, { kind: "choice", send: action });
  const origin = (city, select) => city && !choices.has(city) && choices.set(city, { kind: "from", select });
  const phase = view.phase;
  if (CITY_PHASES.has(phase)) {
    for (const action of view.legal_actions ?? []) if (action.city) choose(action.city, action);
  } else if (phase === "purchase" && selection?.mode === "build") {
    for (const action of ofType(view, "build")) if (action.piece === selection.piece) choose(action.city, action);
  } else if (phase === "expansion" || (phase === "combat" && (!selection || selection.mode === "attack"))) {
    const type = phase === "expansion" ? "expand" : "attack";
    const mode = phase === "expansion" ? "expand" : "attack";
    const moves = ofType(view, type);
    if (selection?.mode === mode && selection.from) {
      const chosen = moves.filter((action) => action.from === selection.from);
      for (const action of chosen) choose(action.to, action);
      origin(selection.from, null);
      lanes = lanesFrom(chosen, facts);
    } else {
      for (const action of moves) origin(action.from, { mode, from: action.from });
    }
  } else if (phase === "combat" && selection?.mode === "card") {
    const key = CARD_TARGET[selection.type];
    for (const action of ofType(view, selection.type)) {
      if (Boolean(action.free) === Boolean(selection.free)) choose(action[key], action);
    }
  } else if (phase === "combat" && selection?.mode === "lure") {
    const lures = ofType(view, "lure");
    if (selection.from) {
      const chosen = lures.filter((action) => action.from === selection.from);
      for (const action of chosen) choose(action.to, action);
      origin(selection.from, { mode: "lure" });
    } else {
      for (const action of lures) origin(action.from, { mode: "lure", from: action.from });
    }
  }
  return { choices, lanes };
}

// --- The panel ----------------------------------------------------------------------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function makeButton(text, { key, testid, onClick, pressed, help, disabled, secondary }) {
  const node = element("button", `button rn-choice${secondary ? " button--secondary" : ""}`);
  node.type = "button";
  node.dataset.focusKey = key;
  if (testid) node.dataset.testid = testid;
  if (pressed !== undefined) node.setAttribute("aria-pressed", String(pressed));
  node.disabled = Boolean(disabled);
  node.append(element("span", "rn-choice__label", text));
  if (help) node.append(element("span", "rn-choice__help", help));
  node.addEventListener("click", onClick);
  return node;
}

// One sentence per action, for the panel's buttons when no finer control is drawn (a battle's
// decision while battle.js is missing, an action this page does not know).
export function describeAction(action, t) {
  const cards = (names) => names.map((name) => t.cardName(name)).join(", ");
  switch (action.type) {
    case "pass":
      return t.ui("pass");
    case "end_turn":
      return t.ui("end_turn");
    case "done":
      return t.ui("done");
    case "vote":
      return t.ui(action.war ? "vote_war" : "vote_peace");
    case "commit": {
      const all = [...(action.blue ?? []), ...(action.red ? [action.red] : [])];
      return all.length ? t.ui("commit", { cards: cards(all) }) : t.ui("commit_nothing");
    }
    case "counter":
      return t.ui(action.play ? "counter_yes" : "counter_no");
    case "buy_traitor":
      return t.ui(action.buy ? "traitor_yes" : "traitor_no");
    case "sign_of_god":
      return t.ui("sign_target", { index: action.target + 1 });
    case "retreat":
      return t.ui(action.free ? "retreat_free" : "retreat_card", { card: t.cardName(action.card) });
    case "announce":
      return t.ui(action.bonus === "attack" ? "announce_attack" : "announce_defence");
    case "ambassador":
      return t.ui("play_ambassador");
    default: {
      const fields = Object.entries(action)
        .filter(([key]) => key !== "type")
        .map(([, value]) => String(value));
      return [action.type, ...fields].join(" ");
    }
  }
}

function actionKey(action) {
  return `act:${JSON.stringify(action)}`;
}

function passButton(view, opts) {
  const pass = ofType(view, "pass")[0];
  if (!pass) return null;
  return makeButton(opts.t.ui("pass"), { key: "pass", testid: "rn-pass", onClick: () => opts.send(pass), secondary: true, disabled: opts.busy });
}

function cancelButton(opts) {
  if (!opts.selection) return null;
  return makeButton(opts.t.ui("cancel"), { key: "cancel", testid: "rn-cancel", onClick: () => opts.select(null), secondary: true, disabled: opts.busy });
}

function row(...nodes) {
  const line = element("div", "rn-decision__row");
  line.append(...nodes.filter(Boolean));
  return line;
}

function prompt(text) {
  const line = element("p", "rn-decision__prompt", text);
  line.dataset.testid = "rn-prompt";
  return line;
}

function cityPhase(view, opts) {
  const { t } = opts;
  return [prompt(t.ui(view.phase)), prompt(t.ui("pick_city")), row(passButton(view, opts))];
}

// The Swiss bonus (attack or defence), announced in public during the vote ([ruling] R59), or in
// a turn without a vote at the Swiss's first purchase decision.
function announceBlock(view, opts) {
  const { t } = opts;
  const announces = ofType(view, "announce");
  if (!announces.length) return [];
  return [
    prompt(t.ui("announce_prompt")),
    row(...announces.map((action) => makeButton(describeAction(action, t), {
      key: `announce-${action.bonus}`,
      testid: `rn-announce-${action.bonus}`,
      onClick: () => opts.send(action),
      disabled: opts.busy,
    }))),
  ];
}

function voteDecision(view, opts) {
  const { t } = opts;
  const votes = ofType(view, "vote");
  const announce = announceBlock(view, opts);
  if (announce.length) return announce;
  if (!votes.length) return voteCast(view, opts);
  const option = (war) => {
    const action = votes.find((vote) => vote.war === war);
    if (!action) return null;
    const name = war ? "war" : "peace";
    const node = makeButton(`${war ? "⚔" : "☮"} ${t.ui(`vote_${name}`)}`, {
      key: `vote-${name}`,
      testid: `rn-vote-${name}`,
      onClick: () => opts.send(action),
      help: t.ui(`vote_${name}_help`),
      disabled: opts.busy,
    });
    node.classList.add("rn-vote", `rn-vote--${name}`);
    return node;
  };
  return [prompt(t.ui("vote_prompt")), row(option(false), option(true))];
}

// After your vote: what you voted (your own view only), and whom the table still waits for.
function voteCast(view, opts) {
  const { t } = opts;
  if (view.vote === null || view.vote === undefined) return [prompt(t.ui(opts.seated ? "waiting" : "spectating"))];
  const waiting = (view.acting_seats ?? []).map((seat) => opts.seatName(seat)).join(", ");
  const cast = prompt(t.ui("vote_cast", { vote: t.ui(view.vote ? "vote_war" : "vote_peace") }));
  cast.dataset.testid = "rn-vote-cast";
  return [cast, waiting ? prompt(t.ui("vote_waiting", { players: waiting })) : null];
}

function buyBlock(view, opts) {
  const { t } = opts;
  const buys = ofType(view, "buy_cards").sort((a, b) => a.count - b.count);
  const seat = view.seat;
  const pub = view.public ?? {};
  const info = prompt(t.ui("buy_limit", { cards: view.hand?.length ?? 0, ducats: pub.ducats?.[seat] ?? 0 }));
  if (!buys.length) return [pub.bought?.[seat] ? prompt(t.ui("buy_done")) : null, info];
  const label = element("label", "rn-buy__label", `${t.ui("buy_count")} `);
  const select = element("select", "rn-buy__count");
  select.dataset.testid = "rn-buy-count";
  select.dataset.focusKey = "buy-count";
  select.disabled = opts.busy;
  for (const action of buys) {
    const option = element("option", null, `${action.count} (${t.count("ducats_count", action.count * 2)})`);
    option.value = String(action.count);
    select.append(option);
  }
  const chosen = opts.memory.buyCount && buys.some((action) => action.count === opts.memory.buyCount) ? opts.memory.buyCount : buys[0].count;
  select.value = String(chosen);
  label.append(select);
  const buy = makeButton(t.ui("buy_button", { count: chosen, price: chosen * 2 }), {
    key: "buy-cards",
    testid: "rn-buy-cards",
    onClick: () => {
      const count = Number(select.value);
      const action = buys.find((each) => each.count === count);
      if (action) opts.send(action);
    },
    disabled: opts.busy,
  });
  select.addEventListener("change", () => {
    opts.memory.buyCount = Number(select.value);
    buy.querySelector(".rn-choice__label").textContent = t.ui("buy_button", { count: select.value, price: Number(select.value) * 2 });
  });
  const block = element("fieldset", "rn-decision__group rn-buy");
  block.append(element("legend", null, t.ui("buy_cards")), info, row(label, buy));
  return [block];
}

function buildBlock(view, opts) {
  const { t, selection } = opts;
  const builds = ofType(view, "build");
  const block = element("fieldset", "rn-decision__group rn-build");
  block.append(element("legend", null, t.ui("build")));
  const buttons = PIECES.map((piece) => {
    const any = builds.some((action) => action.piece === piece);
    const selected = selection?.mode === "build" && selection.piece === piece;
    return makeButton(t.ui("build_piece", { piece: t.piece(piece), price: PRICES[piece] }), {
      key: `build-${piece}`,
      testid: `rn-build-${piece}`,
      pressed: selected,
      disabled: opts.busy || !any,
      secondary: !selected,
      onClick: () => opts.select(selected ? null : { mode: "build", piece }),
    });
  });
  block.append(row(...buttons));
  if (selection?.mode === "build") block.append(prompt(t.ui("build_pick", { piece: t.piece(selection.piece) })));
  return block;
}

function purchaseDecision(view, opts) {
  const { t } = opts;
  const parts = [prompt(t.ui("purchase_prompt")), ...announceBlock(view, opts)];
  parts.push(...buyBlock(view, opts));
  if (ofType(view, "build").length || PIECES.length) parts.push(buildBlock(view, opts));
  const done = ofType(view, "done")[0];
  parts.push(row(
    cancelButton(opts),
    done ? makeButton(t.ui("done"), { key: "done", testid: "rn-done", onClick: () => opts.send(done), disabled: opts.busy }) : null,
  ));
  return parts;
}

function expansionDecision(view, opts) {
  const { t, selection } = opts;
  const done = view.public?.expansions?.[view.seat] ?? 0;
  return [
    prompt(selection?.mode === "expand" ? t.ui("expansion_to", { city: selection.from }) : t.ui("expansion_prompt")),
    prompt(t.ui("expansion_left", { done })),
    row(cancelButton(opts), passButton(view, opts)),
  ];
}

function combatDecision(view, opts) {
  const { t, selection } = opts;
  const pub = view.public ?? {};
  const parts = [prompt(t.ui("combat_prompt"))];
  parts.push(prompt(t.ui(pub.war ? "attacks_war" : "attacks_left_peace", { done: pub.attacks ?? 0 })));
  const buttons = [];
  if (ofType(view, "attack").length) {
    const on = selection?.mode === "attack";
    buttons.push(makeButton(t.ui("attack"), {
      key: "attack", testid: "rn-attack", pressed: on, secondary: !on, disabled: opts.busy,
      onClick: () => opts.select(on ? null : { mode: "attack" }),
    }));
  }
  const cardPlay = (type, free, label, testid) => {
    const actions = ofType(view, type).filter((action) => Boolean(action.free) === free);
    if (!actions.length) return;
    if (!CARD_TARGET[type]) {
      buttons.push(makeButton(label, { key: testid, testid, onClick: () => opts.send(actions[0]), disabled: opts.busy, secondary: true }));
      return;
    }
    const on = selection?.mode === "card" && selection.type === type && Boolean(selection.free) === free;
    buttons.push(makeButton(label, {
      key: testid, testid, pressed: on, secondary: !on, disabled: opts.busy,
      onClick: () => opts.select(on ? null : { mode: "card", type, free }),
    }));
  };
  cardPlay("ride", false, t.ui("play_card", { card: t.cardName("ride") }), "rn-play-ride");
  cardPlay("raiders", false, t.ui("play_card", { card: t.cardName("raiders") }), "rn-play-raiders");
  cardPlay("raiders", true, t.ui("play_raiders_free"), "rn-play-raiders-free");
  cardPlay("ambassador", false, t.ui("play_ambassador"), "rn-play-ambassador");
  cardPlay("marriage", false, t.ui("play_card", { card: t.cardName("marriage") }), "rn-play-marriage");
  cardPlay("artist", false, t.ui("play_artist_button"), "rn-play-artist");
  cardPlay("banker", false, t.ui("play_banker_button"), "rn-play-banker");
  if (ofType(view, "lure").length) {
    const on = selection?.mode === "lure";
    buttons.push(makeButton(t.ui("lure"), {
      key: "rn-lure", testid: "rn-lure", pressed: on, secondary: !on, disabled: opts.busy,
      onClick: () => opts.select(on ? null : { mode: "lure" }),
    }));
  }
  parts.push(row(...buttons));
  const picking = selectionPrompt(selection, t);
  if (picking) parts.push(prompt(picking));
  const end = ofType(view, "end_turn")[0];
  parts.push(row(
    cancelButton(opts),
    end ? makeButton(t.ui("end_turn"), { key: "end-turn", testid: "rn-end-turn", onClick: () => opts.send(end), disabled: opts.busy }) : null,
  ));
  return parts;
}

function selectionPrompt(selection, t) {
  if (!selection) return "";
  if (selection.mode === "attack") return selection.from ? t.ui("attack_pick_to", { city: selection.from }) : t.ui("attack_pick_from");
  if (selection.mode === "lure") return selection.from ? t.ui("lure_pick_to", { city: selection.from }) : t.ui("lure_pick_from");
  if (selection.mode === "card") {
    if (selection.type === "raiders" && selection.free) return t.ui("play_raiders_free_pick");
    return t.ui(`play_${selection.type}`);
  }
  return "";
}

// Any decision without a finer control: one button per legal action.
function listDecision(view, opts) {
  const { t } = opts;
  return [
    prompt(BATTLE_PHASES.has(view.phase) ? t.ui("battle_prompt") : t.phase(view.phase)),
    row(...(view.legal_actions ?? []).map((action) => makeButton(describeAction(action, t), {
      key: actionKey(action),
      onClick: () => opts.send(action),
      disabled: opts.busy,
      secondary: action.type === "pass",
    }))),
  ];
}

const RENDERERS = {
  vote: voteDecision,
  purchase: purchaseDecision,
  expansion: expansionDecision,
  combat: combatDecision,
};

// Fills `container` with the seat's decision now. opts: {view, t, selection, busy, seated, mine,
// send(action), select(selection), seatName(seat), memory (kept across renders)}.
export function renderDecision(container, opts) {
  const { view, t } = opts;
  container.dataset.decision = view.phase;
  let parts;
  if (view.phase === "vote" && opts.seated) parts = voteDecision(view, opts);
  else if (!opts.mine) parts = [prompt(t.ui(opts.seated ? "waiting" : "spectating"))];
  else if (CITY_PHASES.has(view.phase)) parts = cityPhase(view, opts);
  else parts = (RENDERERS[view.phase] ?? listDecision)(view, opts);
  const title = element("h3", "rn-decision__phase", t.phase(view.phase));
  const nodes = [title, ...parts.filter(Boolean)];
  if (opts.busy) nodes.push(element("p", "rn-decision__sent", t.ui("sent")));
  container.replaceChildren(...nodes);
}

// The cards of the hand a yellow play comes from, to light them while it is chosen.
export function cardOfSelection(selection) {
  if (selection?.mode !== "card") return null;
  return Object.entries(CARD_PLAYS).find(([, types]) => types.includes(selection.type))?.[0] ?? null;
}
