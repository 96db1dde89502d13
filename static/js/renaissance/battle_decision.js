// The decisions a battle asks of the player (docs/protocol.md section 17, phases `attack` to
// `retreat`): the commitment (commit.js), the counter, the traitor's purchase, the Sign of God
// and the Retreat. Each choice is a button saying what it does; each sends one of
// `view.legal_actions` unchanged. Between frames the panel keeps the player's choices and the
// keyboard focus; a panel whose move was sent waits, greyed, for the next frame.

import { commitPanel } from "./commit.js";
import { BATTLE_PHASES, CARD_NAMES, totalsOf } from "./battle_model.js";
import { el, makeWords, rebuildKeepingFocus } from "./battle_words.js";

// How long a sent move keeps the buttons greyed when no new decision follows (a refused move
// comes back as the same decision: the player may choose again).
const SENT_WAIT_MS = 4000;
const decisions = new WeakMap(); // container -> {key, version, state}

const card = (kind) => CARD_NAMES[kind];

function choiceButton(label, explain, { focus, onClick, disabled, primary = false }) {
  return el(
    "button",
    { type: "button", className: `button ${primary ? "" : "button--secondary "}rn-bd__choice`, disabled, dataset: { focusKey: `rn-bd-${focus}` }, onclick: onClick },
    el("span", { className: "rn-bd__choice-label", text: label }),
    explain ? el("span", { className: "rn-bd__choice-explain", text: explain }) : null,
  );
}

function panel(view, words, title, intro, buttons) {
  return el(
    "section",
    { className: "rn-bd", "aria-labelledby": "rn-bd-title", dataset: { phase: view.phase } },
    el("h2", { className: "rn-bd__title", id: "rn-bd-title", text: title }),
    ...intro.filter(Boolean).map((text) => el("p", { className: "rn-bd__intro", text })),
    el("div", { className: "rn-bd__choices" }, ...buttons),
  );
}

// The battle as the deciding side sees it now: its running totals, in numbers.
function standing(pb, words) {
  const battle = {
    troops: pb.troops.map((side) => side.map(([kind, value]) => [card(kind), value >= 0 ? value : null])),
    dice: pb.dice ?? [],
    fought: (pb.dice ?? []).length === 2,
    signs: pb.signs.map((i) => (i >= 0 ? i : null)),
    fort: pb.fort,
    bonus: pb.bonus,
    engineer: pb.engineer,
    swiss: pb.swiss ?? [0, 0],
    totals: pb.totals?.length === 2 ? pb.totals : null,
  };
  const [attack, defence] = totalsOf(battle);
  return words.w("standing", { attack, defence });
}

function counterPanel(view, words, act) {
  const pb = view.public.battle;
  const red = card(pb.commits[0]?.red);
  const effect = words.w(`counter_effect_${red}`);
  const buttons = view.legal_actions.map((action) =>
    action.play
      ? choiceButton(words.w("counter_play", { card: words.card(red) }), words.w("counter_play_explain"), { focus: "counter:yes", onClick: () => act(action), primary: true })
      : choiceButton(words.w("counter_pass"), effect, { focus: "counter:no", onClick: () => act(action) }),
  );
  return panel(view, words, words.w("counter_title", { card: words.card(red) }), [words.w("counter_intro", { seat: words.seat(pb.a), card: words.card(red), effect })], buttons);
}

function treasonPanel(view, words, act) {
  const pb = view.public.battle;
  const [side] = pb.pending;
  const owner = side ? pb.d : pb.a;
  const ducats = view.public.ducats?.[view.seat] ?? 0;
  const buttons = view.legal_actions.map((action) =>
    action.buy
      ? choiceButton(words.w("treason_buy"), words.w("treason_buy_explain"), { focus: "treason:yes", onClick: () => act(action), primary: true })
      : choiceButton(words.w("treason_pass"), words.w("treason_pass_explain", { seat: words.seat(owner) }), { focus: "treason:no", onClick: () => act(action) }),
  );
  return panel(view, words, words.w("treason_title"), [words.w("treason_intro", { seat: words.seat(owner) }), words.n("ducats_held", ducats), standing(pb, words)], buttons);
}

function signPanel(view, words, act) {
  const pb = view.public.battle;
  const troops = pb.troops[pb.asked];
  const buttons = view.legal_actions.map((action) => {
    if (action.type === "pass") return choiceButton(words.w("sign_pass"), words.w("sign_pass_explain"), { focus: "sign:pass", onClick: () => act(action) });
    const [kind, value] = troops[action.target];
    return choiceButton(words.w("sign_play", { card: words.card(card(kind)), value, total: value * 2 }), words.w("sign_play_explain"), { focus: `sign:${action.target}`, onClick: () => act(action), primary: true });
  });
  return panel(view, words, words.w("sign_title"), [words.w("sign_intro"), standing(pb, words)], buttons);
}

function retreatPanel(view, words, act) {
  const pb = view.public.battle;
  const saved = (pb.saved?.[pb.asked] ?? []).map((kind) => words.card(card(kind)));
  const buttons = view.legal_actions.map((action) => {
    if (action.type === "pass") return choiceButton(words.w(saved.length ? "retreat_stop" : "retreat_pass"), words.w("retreat_pass_explain"), { focus: "retreat:pass", onClick: () => act(action) });
    const key = action.free ? "retreat_free" : "retreat_play";
    return choiceButton(words.w(key, { card: words.card(action.card) }), words.w(`${key}_explain`), { focus: `retreat:${action.card}:${action.free ? 1 : 0}`, onClick: () => act(action), primary: true });
  });
  const intro = [words.w("retreat_intro"), saved.length ? words.w("retreat_saved", { cards: saved.join(", ") }) : null, standing(pb, words)];
  return panel(view, words, words.w("retreat_title"), intro, buttons);
}

const PANELS = { counter: counterPanel, treason: treasonPanel, sign_of_god: signPanel, retreat: retreatPanel };

function isMyBattleDecision(frame, ctx) {
  const view = frame?.view;
  const me = ctx?.mySeat ?? view?.seat;
  return Boolean(
    view && BATTLE_PHASES.has(view.phase) && view.public?.battle && me !== null && me !== undefined &&
      (view.acting_seats ?? []).includes(me) && (view.legal_actions ?? []).length,
  );
}

// Draws the battle decision into `container` and returns true, or returns false (and draws
// nothing) when the frame asks the player no battle decision.
export function renderBattleDecision(container, frame, ctx) {
  if (!isMyBattleDecision(frame, ctx)) {
    decisions.delete(container);
    return false;
  }
  const view = frame.view;
  const key = JSON.stringify([view.phase, view.public.battle.asked, view.public.battle.pending, view.legal_actions, view.hand]);
  let entry = decisions.get(container);
  if (!entry || entry.key !== key) {
    entry = { key, version: null, state: { blue: [], red: null, busy: false } };
    decisions.set(container, entry);
  }
  const drawn = container.querySelector(":scope > [data-rn-battle-decision]");
  if (entry.version === frame.version && drawn) return true;
  entry.version = frame.version;
  entry.state.busy = false;
  const words = makeWords(ctx);
  const state = entry.state;
  const send = (action) => {
    state.busy = true;
    ctx.send(action);
    window.setTimeout(() => {
      if (decisions.get(container) === entry && state.busy) {
        state.busy = false;
        state.redraw();
      }
    }, SENT_WAIT_MS);
  };
  const act = (action) => {
    if (state.busy) return;
    send(action);
    state.redraw();
  };
  state.redraw = () => {
    rebuildKeepingFocus(container, () => {
      const content = view.phase === "attack" || view.phase === "defend" ? commitPanel(frame, ctx, words, state, send) : PANELS[view.phase](view, words, act);
      // Sent: the controls stay focusable (the focus stays where it was) but do nothing.
      if (state.busy) content.querySelectorAll("button, input").forEach((node) => node.setAttribute("aria-disabled", "true"));
      const root = el("div", { className: `rn-battle-decision${state.busy ? " is-busy" : ""}`, dataset: { rnBattleDecision: view.phase } }, content);
      return [root];
    });
  };
  state.redraw();
  return true;
}
