// The face-down commitment of a battle (phases `attack` and `defend`): the player picks its
// troops (blue cards or Condottieri: two in attack, one in defence, compulsory while it holds
// one) and at most one red card, sees what the Condottieri will cost at the reveal and the
// arithmetic it can know, and commits. What is sent is always one of `view.legal_actions`,
// found by the chosen cards (the blue ones as a set with repeats, and the red one).

import { CONDOTTIERE, ENGINEER_DEFENCE, ENGINEERED, FORTIFICATION, TROOP_VALUE, isTroop } from "./battle_model.js";
import { cityTerrain, el } from "./battle_words.js";

const sorted = (names) => [...names].sort();

// The legal commit whose cards are exactly `blue` (any order) and `red`, or null; with `free`
// (Milan's free Condottiere card chosen) the one marked "free" if there is one.
export function matchCommit(legal, blue, red, free = false) {
  const wanted = JSON.stringify(sorted(blue));
  const fits = legal.filter((action) => action.type === "commit" && (action.red ?? null) === (red ?? null) && JSON.stringify(sorted(action.blue)) === wanted);
  return fits.find((action) => Boolean(action.free) === free) ?? fits[0] ?? null;
}

// The cards the player may put in its troop slots: one entry per copy the legal actions can use.
// A copy beyond those in hand is Milan's free Condottiere card ([ruling] R55: legal commits
// marked "free" count one more than the hand holds), marked `free` so the panel can say so.
export function troopChoices(legal, hand) {
  const most = {};
  for (const action of legal) {
    const counts = {};
    for (const name of action.blue ?? []) counts[name] = (counts[name] ?? 0) + 1;
    for (const [name, count] of Object.entries(counts)) most[name] = Math.max(most[name] ?? 0, count);
  }
  const held = (name) => hand.filter((card) => card === name).length;
  const choices = [];
  for (const name of Object.keys(most).sort((x, y) => (TROOP_VALUE[x] ?? 9) - (TROOP_VALUE[y] ?? 9))) {
    const inHand = held(name);
    for (let copy = 0; copy < most[name]; copy += 1) choices.push({ id: `${name}#${copy}`, name, free: copy >= inHand });
  }
  return choices;
}

export function redChoices(legal) {
  return [...new Set(legal.filter((a) => a.type === "commit" && a.red).map((a) => a.red))];
}

export function troopSlots(legal) {
  return Math.max(0, ...legal.filter((a) => a.type === "commit").map((a) => a.blue.length));
}

// Ducats the chosen Condottieri cost at the reveal: one each, less those bought from a player
// (already paid).
export function condottiereCost(blue, red, prepaid, free = 0) {
  const count = blue.filter((name) => name === CONDOTTIERE).length + (red === CONDOTTIERE ? 1 : 0);
  return { count, cost: Math.max(0, count - prepaid - free) };
}

function hasPower(view, seat, nation) {
  const powers = (view.public.options ?? []).some(([key, value]) => key === "powers" && value);
  return powers && view.public.nations?.[seat] === nation;
}

// The defence's fixed points the attacker can know: the city's fortification (after its own
// Engineer or Traitor, unless countered) and the terrain and landing bonuses.
export function knownDefence(view, pb, red) {
  const level = view.public.fort?.[pb.to] ?? 0;
  let fort = FORTIFICATION[level];
  if (red === "engineer") fort = ENGINEERED[level];
  if (red === "traitor") fort = 0;
  // [ruling] R50: Genoa's power spares it the terrain and landing bonuses when it attacks.
  const spared = pb.ride || hasPower(view, pb.a, "genoa");
  const terrain = cityTerrain(view.cities?.[pb.to]);
  const rough = terrain === "mountain" || terrain === "marsh" ? 1 : 0;
  const bonus = spared ? 0 : rough + (pb.sea ? 1 : 0);
  return { fort, bonus, terrainKnown: terrain !== null };
}

function troopPoints(blue) {
  return blue.reduce((sum, name) => sum + (TROOP_VALUE[name] ?? 0), 0);
}

function arithmetic(view, pb, side, blue, red, words) {
  const condottieri = blue.filter((name) => name === CONDOTTIERE).length + (red === CONDOTTIERE ? 1 : 0);
  const points = troopPoints(blue);
  const lines = [];
  const defence = knownDefence(view, pb, side === 0 ? red : null);
  if (side === 0) {
    lines.push(words.w("sum_attack", { points }));
    if (condottieri) lines.push(words.n("sum_condottieri", condottieri));
    lines.push(words.w("sum_defence_known", { fort: defence.fort, bonus: defence.bonus, total: defence.fort + defence.bonus }));
    if (red === "engineer" || red === "traitor") lines.push(words.w("sum_counter_risk", { card: words.card(red) }));
  } else {
    const engineer = red === "engineer" ? ENGINEER_DEFENCE : 0;
    lines.push(words.w("sum_defence", { points, fort: defence.fort, bonus: defence.bonus, total: points + defence.fort + defence.bonus }));
    if (engineer) lines.push(words.w("sum_engineer_defence", { points: engineer }));
    if (red === "traitor") lines.push(words.w("sum_traitor_defence"));
    if (condottieri) lines.push(words.n("sum_condottieri", condottieri));
    lines.push(words.w("sum_fort_risk"));
    const hidden = pb.commits?.[0]?.count ?? 0;
    lines.push(words.n("sum_attacker_hidden", hidden));
  }
  return lines;
}

// Why Commit is not possible yet, or null.
function blockReason(legal, blue, red, slots, words) {
  if (blue.length !== slots) return slots === 1 ? words.w("choose_one_troop") : words.n("choose_troops", slots);
  if (!matchCommit(legal, blue, red)) return words.w("choice_impossible");
  return null;
}

// Draws the commitment into `host`; `state` (kept by battle_decision.js between frames) holds
// the chosen card ids and the red card; `send(action)` commits.
export function commitPanel(frame, ctx, words, state, send) {
  const view = frame.view;
  const pb = view.public.battle;
  const side = view.phase === "attack" ? 0 : 1;
  const legal = view.legal_actions.filter((a) => a.type === "commit");
  const choices = troopChoices(legal, view.hand ?? []);
  const reds = redChoices(legal);
  const slots = troopSlots(legal);
  state.blue = (state.blue ?? []).filter((id) => choices.some((c) => c.id === id));
  if (state.red && !reds.includes(state.red)) state.red = null;
  const chosen = state.blue.map((id) => choices.find((c) => c.id === id));
  const blue = chosen.map((choice) => choice.name);
  const free = chosen.some((choice) => choice.free);
  const red = state.red ?? null;
  const me = view.seat;
  const prepaid = view.public.prepaid?.[me] ?? 0;
  const ducats = view.public.ducats?.[me] ?? 0;

  const toggle = (id) => {
    if (state.busy) return;
    if (state.blue.includes(id)) state.blue = state.blue.filter((x) => x !== id);
    else state.blue = [...state.blue, id].slice(-slots);
    state.redraw();
  };
  const title = el("h2", { className: "rn-commit__title", id: "rn-commit-title" }, words.w(side ? "commit_defend_title" : "commit_attack_title", { city: words.city(view.cities[pb.to]), seat: words.seat(side ? pb.a : pb.d) }));
  const intro = el("p", { className: "rn-commit__intro" }, slots === 0 ? words.w("defend_without_troops") : words.w(side ? "commit_defend_intro" : "commit_attack_intro"));

  const troopGroup = el("fieldset", { className: "rn-commit__troops" }, el("legend", { text: slots === 1 ? words.w("troops_legend_one") : words.n("troops_legend", slots) }));
  const troopList = el("div", { className: "rn-commit__choices" });
  for (const choice of choices) {
    const pressed = state.blue.includes(choice.id);
    const value = isTroop(choice.name) ? String(TROOP_VALUE[choice.name]) : words.w("condottiere_die_range");
    troopList.append(
      el(
        "button",
        { type: "button", className: `rn-choice rn-card rn-card--blue${pressed ? " is-chosen" : ""}`, "aria-pressed": pressed ? "true" : "false", dataset: { focusKey: `rn-troop:${choice.id}`, card: choice.name }, onclick: () => toggle(choice.id) },
        el("span", { className: "rn-card__colour", "aria-hidden": "true", text: "▲" }),
        words.card(choice.name),
        el("strong", { className: "rn-card__value", text: ` ${value}` }),
        choice.free ? el("span", { className: "rn-card__free", text: words.w("free_condottiere_copy") }) : null,
      ),
    );
  }
  troopGroup.append(troopList);

  const redGroup = el("fieldset", { className: "rn-commit__red" }, el("legend", { text: words.w("red_legend") }));
  for (const option of [null, ...reds]) {
    const id = `rn-red-${option ?? "none"}`;
    const input = el("input", { type: "radio", name: "rn-commit-red", id, value: option ?? "", dataset: { focusKey: `rn-red:${option ?? "none"}` } });
    input.checked = (option ?? null) === red;
    input.addEventListener("change", () => {
      if (state.busy) return;
      state.red = option;
      state.redraw();
    });
    const explain = option ? words.w(`red_effect_${option}_${side ? "defence" : "attack"}`) : "";
    redGroup.append(el("div", { className: "rn-commit__radio" }, input, el("label", { for: id }, option ? words.card(option) : words.w("no_red_card"), explain ? el("span", { className: "rn-commit__explain", text: ` — ${explain}` }) : null)));
  }

  // [ruling] R55: Milan's free Condottiere card is a card it need not hold; its use is paid.
  const { count, cost } = condottiereCost(blue, red, prepaid);
  const costText = count ? words.n("cost_condottieri", count, { cost, ducats }) : words.w("cost_none");
  const sums = el("ul", { className: "rn-commit__sums", "aria-label": words.w("sums_label") }, ...arithmetic(view, pb, side, blue, red, words).map((text) => el("li", { text })));
  const reason = blockReason(legal, blue, red, slots, words);
  const action = reason ? null : matchCommit(legal, blue, red, free);
  const commit = el(
    "button",
    { type: "button", className: "button rn-commit__send", disabled: !action, dataset: { focusKey: "rn-commit" } },
    words.w(side ? "commit_defend" : "commit_attack"),
  );
  commit.addEventListener("click", () => {
    if (!action || state.busy) return;
    send(action);
    state.redraw();
  });
  const hint = el("p", { className: "rn-commit__hint", "aria-live": "polite" }, state.busy ? words.w("sent") : (reason ?? ""));
  return el(
    "section",
    { className: "rn-commit", "aria-labelledby": "rn-commit-title", dataset: { phase: view.phase } },
    title,
    intro,
    slots ? troopGroup : null,
    reds.length ? redGroup : null,
    el("p", { className: "rn-commit__cost", text: costText }),
    sums,
    el("div", { className: "rn-commit__actions" }, commit),
    hint,
  );
}
