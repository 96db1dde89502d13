// The Renaissance battle panel: who attacks which city from where, the face-down counts, then
// both sides' cards, the dice, the Condottiere die, the defence's bonuses, the Sign of God, the
// totals and the outcome. It opens when a battle starts (the view's `public.battle`) and keeps
// the last one in sight (the log's `battle` entry) until the player closes it or the next battle
// starts; closed during a battle, it comes back once for that battle's result.
//
// The decisions a battle asks of the player are drawn by commit.js (the face-down commitment)
// and battle_decision.js (counter, treason, Sign of God, Retreat); this module re-exports them
// as the page's one door (docs/renaissance/table-battle.md).

import { dieFace } from "./battle_dice.js";
import {
  condottiereFates,
  isTie,
  isTroop,
  readBattle,
  stageOf,
  totalsOf,
  TROOP_VALUE,
  winnerOf,
} from "./battle_model.js";
import { cityTerrain, el, makeWords } from "./battle_words.js";

export { renderBattleDecision } from "./battle_decision.js";

const FORT_WORDS = { 2: "fort_garrison", 4: "fort_rampart", 6: "fort_fortress" };

function howText(battle, words) {
  if (battle.ride) return words.w("kind_ride");
  if (battle.sea) return words.w("kind_landing");
  return words.w("kind_road");
}

function titleText(battle, words) {
  const params = { attacker: words.side(battle.attacker), defender: words.side(battle.defender), to: words.city(battle.to) };
  if (battle.from) return words.w("title_from", { ...params, from: words.city(battle.from) });
  return words.w("title_ride", params);
}

// A card: its colour told by a mark as the hand tells it (▲ a troop, ◆ a red card), not by
// colour alone.
export function colourMark(name) {
  const blue = isTroop(name) || name === "condottiere";
  return el("span", { className: "rn-card__colour", "aria-hidden": "true", text: blue ? "▲" : "◆" });
}

function cardChip(name, words, extra = {}) {
  const colour = isTroop(name) || name === "condottiere" ? "blue" : "red";
  return el("li", { className: `rn-card rn-card--${colour}`, dataset: { card: name } }, colourMark(name), words.card(name), extra.value ?? null);
}

function valueTag(text) {
  return el("strong", { className: "rn-card__value", text: ` ${text}` });
}

// A side's cards before the dice: face-down counts, or the cards themselves once known.
function commitList(battle, side, words) {
  const commit = battle.commits[side];
  if (!battle.committed[side] || !commit) {
    return el("p", { className: "rn-bp__hidden", text: words.w("not_committed") });
  }
  if ("hidden" in commit) {
    return el("p", { className: "rn-bp__hidden", dataset: { hidden: commit.hidden } }, words.n("face_down", commit.hidden));
  }
  if (commit.count === 0) return el("p", { className: "rn-bp__hidden", text: words.w("no_cards") });
  const list = el("ul", { className: "rn-bp__cards", "aria-label": words.w(battle.revealed ? "cards_revealed" : "your_cards_face_down") });
  for (const name of commit.blue) {
    list.append(cardChip(name, words, { value: valueTag(isTroop(name) ? String(TROOP_VALUE[name]) : words.w("condottiere_unrolled")) }));
  }
  if (commit.red) list.append(cardChip(commit.red, words));
  return list;
}

function troopValueText(name, value, doubled, words) {
  if (value === null) return words.w("condottiere_unrolled");
  return doubled ? words.w("value_doubled", { value, total: value * 2 }) : String(value);
}

// After the dice: each card fighting, its value (a Condottiere's from its die), and the red card.
function troopList(battle, side, words) {
  const list = el("ul", { className: "rn-bp__cards", "aria-label": words.w("cards_revealed") });
  battle.troops[side].forEach(([name, value], index) => {
    const doubled = battle.signs[side] === index;
    const chip = cardChip(name, words, { value: valueTag(troopValueText(name, value, doubled, words)) });
    if (doubled) chip.classList.add("rn-card--doubled");
    list.append(chip);
  });
  const red = battle.commits[side]?.red;
  if (red && red !== "condottiere") list.append(cardChip(red, words));
  return list;
}

function line(label, value, extra = {}) {
  return el("div", { className: `rn-bp__line${extra.className ? ` ${extra.className}` : ""}` }, el("dt", { text: label }), el("dd", {}, value));
}

// What the Condottiere die did, the defending Traitor, the counter: one sentence each.
function sideNotes(battle, side, words, fates) {
  const notes = [];
  const fate = fates[side];
  if (fate.routed) notes.push(words.n("condottiere_routed", fate.routed));
  if (fate.turned) notes.push(words.n("condottiere_turned", fate.turned, { seat: words.seat(side ? battle.attacker : battle.defender) }));
  if (side === 0 && battle.lost) notes.push(words.w("lost_to_traitor", { card: words.card(battle.lost) }));
  if (side === 1 && battle.countered) notes.push(words.w("countered", { card: words.card(battle.commits[0]?.red ?? "engineer") }));
  const pending = battle.pending;
  if (pending && pending[0] === side) {
    notes.push(words.w("treason_pending", { seat: words.seat(side ? battle.attacker : battle.defender) }));
  }
  return notes.map((text) => el("li", { text }));
}

function defenceLines(battle, words) {
  const lines = [];
  if (battle.fought) {
    lines.push(line(words.w("fortification"), String(battle.fort)));
    if (battle.bonus) lines.push(line(words.w(battle.sea ? "bonus_terrain_landing" : "bonus_terrain"), `+${battle.bonus}`));
    if (battle.engineer) lines.push(line(words.w("engineer_bonus"), `+${battle.engineer}`));
    return lines;
  }
  if (battle.cityFort !== null && battle.cityFort !== undefined) {
    lines.push(line(words.w(FORT_WORDS[battle.cityFort] ?? "fort_garrison"), String(battle.cityFort)));
  }
  const terrain = cityTerrain(battle.to);
  const rough = !battle.ride && (terrain === "mountain" || terrain === "marsh");
  if (rough) lines.push(line(words.w(`terrain_${terrain}`), "+1"));
  if (battle.sea && !battle.ride) lines.push(line(words.w("bonus_landing"), "+1"));
  return lines;
}

function sideColumn(battle, side, words, fates, dieOf) {
  const seat = side ? battle.defender : battle.attacker;
  const column = el(
    "section",
    { className: "rn-bp__side", dataset: { side: String(side), seat: String(seat) }, vars: { "--seat": `var(--seat-${seat})` } },
    el("h3", { className: "rn-bp__side-title" }, el("span", { className: "rn-bp__role", text: words.w(side ? "defence" : "attack") }), " ", words.side(seat)),
  );
  column.append(battle.fought ? troopList(battle, side, words) : commitList(battle, side, words));
  const notes = sideNotes(battle, side, words, fates);
  if (notes.length) column.append(el("ul", { className: "rn-bp__notes" }, ...notes));
  const lines = side ? defenceLines(battle, words) : [];
  if (battle.fought) {
    lines.unshift(line(words.w("die"), dieOf(side)));
    if (battle.swiss?.[side]) lines.push(line(words.w("swiss_bonus"), "+1"));
    const total = totalsOf(battle)[side];
    lines.push(line(words.w(battle.totals ? "total" : "total_so_far"), String(total), { className: "rn-bp__total" }));
  }
  if (lines.length) column.append(el("dl", { className: "rn-bp__lines" }, ...lines));
  return column;
}

function statusText(battle, words) {
  const a = words.seat(battle.attacker);
  const d = words.seat(battle.defender);
  switch (battle.phase) {
    case "attack": return words.w("status_attack", { seat: a });
    case "defend": return words.w("status_defend", { seat: d });
    case "counter": return words.w("status_counter", { seat: d, card: words.card(battle.commits[0]?.red ?? "engineer") });
    case "treason": {
      const [side] = battle.pending ?? [0];
      return words.w("status_treason", { owner: side ? d : a, seat: side ? a : d });
    }
    case "sign_of_god": return words.w("status_sign", { seat: battle.asked ? d : a });
    case "retreat": return words.w("status_retreat", { seat: battle.asked ? d : a });
    default: return "";
  }
}

function outcomeLines(battle, words) {
  const winner = winnerOf(battle);
  if (winner === null) return [];
  const [attack, defence] = totalsOf(battle);
  const lines = [el("p", { className: "rn-bp__winner", dataset: { winner: String(winner) } }, words.w("winner", { seat: words.side(winner), attack, defence }))];
  const city = words.city(battle.to);
  const captured = battle.captured ?? attack > defence;
  let change;
  if (captured) change = words.w("captured", { seat: words.seat(battle.attacker), city });
  else if (isTie(battle)) change = words.w("tie_kept", { seat: words.seat(battle.defender), city });
  else change = words.w("kept", { seat: words.seat(battle.defender), city });
  lines.push(el("p", { className: "rn-bp__change", dataset: { captured: captured ? "1" : "0" } }, change));
  battle.saved.forEach((cards, side) => {
    if (!cards.length) return;
    const seat = words.seat(side ? battle.defender : battle.attacker);
    lines.push(el("p", { className: "rn-bp__saved" }, words.w("saved", { seat, cards: cards.map(words.card).join(", ") })));
  });
  if (!battle.finished) lines.push(el("p", { className: "rn-bp__pending-end", text: words.w("retreat_before_end") }));
  return lines;
}

function bodyContent(battle, words, dieOf) {
  const fates = condottiereFates(battle);
  const sides = el("div", { className: "rn-bp__sides" }, sideColumn(battle, 0, words, fates, dieOf), sideColumn(battle, 1, words, fates, dieOf));
  return [sides, ...outcomeLines(battle, words)];
}

// `container` is the page's [data-rn-battle]; render(frame) is called with every state frame.
export function createBattlePanel(container, ctx) {
  const words = makeWords(ctx);
  let shown = null; // the battle on display: {key, stage, signature}
  let dismissed = null; // "<key>" or "<key>:result": what the player closed
  let last = null; // the battle of the previous render (the dice roll only when they are new)
  let skeleton = null;
  let dice = null; // the battle's two die faces, drawn once: {key, nodes}

  // The same die elements from one frame to the next: a roll tumbles once, when it is new.
  function dieOf(battle, rolling) {
    if (!dice || dice.key !== battle.key) {
      const nodes = battle.dice.map((value, side) => dieFace(value, words.w("die_value", { value }), { rolling, kind: side ? "defence" : "attack" }));
      dice = { key: battle.key, nodes };
    }
    return (side) => dice.nodes[side];
  }

  function hide() {
    container.hidden = true;
    container.replaceChildren();
    skeleton = null;
    shown = null;
  }

  function close() {
    const hadFocus = container.contains(document.activeElement);
    if (shown) dismissed = shown.stage === "result" ? `${shown.key}:result` : shown.key;
    hide();
    if (hadFocus) document.querySelector("[data-rn-decision] button:not([disabled])")?.focus({ preventScroll: true });
  }

  container.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !container.hidden) {
      event.stopPropagation();
      close();
    }
  });

  function build() {
    const title = el("h2", { className: "rn-bp__title", id: "rn-battle-title" });
    const kind = el("p", { className: "rn-bp__kind" });
    const label = el("p", { className: "rn-bp__label" });
    const closeButton = el("button", { type: "button", className: "button button--secondary button--small rn-bp__close", dataset: { focusKey: "rn-battle-close" }, onclick: close }, words.w("close"));
    const status = el("p", { className: "rn-bp__status", role: "status", "aria-live": "polite" });
    const body = el("div", { className: "rn-bp__body" });
    const section = el("section", { className: "rn-bp", "aria-labelledby": "rn-battle-title" }, el("header", { className: "rn-bp__head" }, el("div", {}, label, title, kind), closeButton), status, body);
    container.replaceChildren(section);
    return { title, kind, label, status, body };
  }

  function draw(battle, stage, rolling) {
    if (!skeleton) skeleton = build();
    skeleton.label.textContent = words.w(battle.finished ? "label_result" : "label_battle");
    skeleton.title.textContent = titleText(battle, words);
    skeleton.kind.textContent = howText(battle, words);
    const status = battle.finished ? "" : statusText(battle, words);
    if (skeleton.status.textContent !== status) skeleton.status.textContent = status;
    skeleton.body.replaceChildren(...bodyContent(battle, words, battle.fought ? dieOf(battle, rolling) : null));
    container.dataset.battleKey = battle.key;
    container.dataset.stage = stage;
    container.dataset.winner = battle.finished ? String(battle.winner) : "";
    container.hidden = false;
  }

  return {
    render(frame) {
      const battle = readBattle(frame);
      const previous = last;
      last = battle;
      // A result on display stays until closed or the next battle, even once the log has moved
      // past it; a page opened after the turn it was fought in does not bring it back.
      if (!battle || (battle.old && shown?.key !== battle.key)) {
        if (!shown || shown.stage !== "result") hide();
        return;
      }
      const stage = stageOf(battle);
      if (dismissed === `${battle.key}:result` || (dismissed === battle.key && stage !== "result")) return;
      if (dismissed && dismissed !== battle.key && dismissed !== `${battle.key}:result`) dismissed = null; // a new battle
      const signature = JSON.stringify({ ...battle, old: false });
      if (shown && shown.key === battle.key && shown.signature === signature) return;
      const rolling = Boolean(previous && previous.key === battle.key && !previous.fought && battle.fought);
      shown = { key: battle.key, stage, signature };
      draw(battle, stage, rolling);
    },
  };
}
