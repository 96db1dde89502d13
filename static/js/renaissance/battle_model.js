// The Renaissance battle as the page shows it, whatever it was read from: the live
// `view.public.battle` (cities as indices, cards as kinds) or the log's `fight` / `battle`
// entry of a battle that just ended (names). Pure functions, no DOM: battle.js, commit.js and
// battle_decision.js draw from the one shape `readBattle` returns.

// Card kinds 0..14, as docs/protocol.md section 17 lists them.
export const CARD_NAMES = [
  "pikemen", "arquebusiers", "knights", "cannon", "swiss", "condottiere", "engineer",
  "traitor", "sign_of_god", "retreat", "raiders", "ambassador", "marriage", "ride",
  "artist_banker",
];
// Combat points of the blue cards (troops).
export const TROOP_VALUE = { pikemen: 3, arquebusiers: 4, knights: 5, cannon: 6, swiss: 7 };
export const CONDOTTIERE = "condottiere";
// Points of a bare garrison, a rampart, a fortress; and after an attacking Engineer.
export const FORTIFICATION = [2, 4, 6];
export const ENGINEERED = [0, 2, 4];
export const ENGINEER_DEFENCE = 2;
export const BATTLE_PHASES = new Set(["attack", "defend", "counter", "treason", "sign_of_god", "retreat"]);

const cardName = (kind) => (kind === null || kind === undefined || kind < 0 ? null : CARD_NAMES[kind]);

export function isTroop(name) {
  return name in TROOP_VALUE;
}

// The log entry that declared the battle (an attack or a Ride on `to` by `attacker`), newest
// first, at or before `beforeSeq`: its seq names the battle from start to end.
function declarationSeq(log, attacker, to, beforeSeq = Infinity) {
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.seq > beforeSeq) continue;
    if ((entry.type === "attack" || entry.type === "ride") && entry.seat === attacker && entry.to === to) {
      return entry.seq;
    }
  }
  return null;
}

function commitsFrom(cards) {
  return cards.map((side) => ({
    blue: [...side.blue],
    red: side.red ?? null,
    count: side.blue.length + (side.red ? 1 : 0),
  }));
}

// The live battle of a view, or null.
function fromPublic(view, log) {
  const pb = view.public?.battle;
  if (!pb) return null;
  const cities = view.cities ?? [];
  const to = cities[pb.to];
  const from = pb.from >= 0 ? cities[pb.from] : null;
  const seq = declarationSeq(log, pb.a, to);
  const commits = (pb.commits ?? [null, null]).map((commit) => {
    if (!commit) return null;
    if ("hidden" in commit) return { hidden: commit.hidden, count: commit.count };
    return { blue: commit.blue.map(cardName), red: cardName(commit.red), count: commit.count };
  });
  const fought = (pb.dice ?? []).length === 2;
  return {
    key: seq === null ? `live:${view.public.turn}:${pb.a}:${pb.to}:${view.public.attacks}` : `seq:${seq}`,
    finished: false,
    phase: view.phase,
    attacker: pb.a,
    defender: pb.d,
    from,
    to,
    sea: Boolean(pb.sea),
    ride: Boolean(pb.ride),
    committed: (pb.committed ?? [0, 0]).map(Boolean),
    commits,
    revealed: Boolean(pb.revealed),
    countered: Boolean(pb.countered),
    fought,
    dice: fought ? [...pb.dice] : [],
    troops: (pb.troops ?? [[], []]).map((side) => side.map(([kind, value]) => [cardName(kind), value >= 0 ? value : null])),
    // Before the dice the view's fort, bonus and engineer are 0: the city's level is known.
    cityFort: FORTIFICATION[view.public.fort?.[pb.to] ?? 0],
    fort: fought ? pb.fort : null,
    bonus: fought ? pb.bonus : null,
    engineer: fought ? pb.engineer : null,
    lost: cardName(pb.lost),
    signs: (pb.signs ?? [-1, -1]).map((index) => (index >= 0 ? index : null)),
    pending: pb.pending?.length === 2 ? [...pb.pending] : null,
    asked: pb.asked ?? 0,
    totals: pb.totals?.length === 2 ? [...pb.totals] : null,
    swiss: pb.swiss ?? [0, 0],
    saved: (pb.saved ?? [[], []]).map((side) => side.map(cardName)),
    winner: null,
    captured: null,
  };
}

// A battle summary of the log (`fight` or `battle`), names throughout.
function fromSummary(summary, seq, log, finished, view) {
  const cityIndex = (view.cities ?? []).indexOf(summary.to);
  const declared = declarationSeq(log, summary.attacker, summary.to, seq);
  const fought = Array.isArray(summary.dice) && summary.dice.length === 2;
  const totals = Array.isArray(summary.totals) ? [...summary.totals] : null;
  return {
    key: declared === null ? `log:${seq}` : `seq:${declared}`,
    finished,
    phase: finished ? null : view.phase,
    attacker: summary.attacker,
    defender: summary.defender,
    from: summary.from ?? null,
    to: summary.to,
    sea: Boolean(summary.sea),
    ride: Boolean(summary.ride),
    committed: [true, true],
    commits: summary.cards ? commitsFrom(summary.cards) : [null, null],
    revealed: Boolean(summary.cards),
    countered: Boolean(summary.countered),
    fought,
    dice: fought ? [...summary.dice] : [],
    troops: (summary.troops ?? [[], []]).map((side) => side.map(([name, value]) => [name, value ?? null])),
    cityFort: cityIndex >= 0 ? FORTIFICATION[view.public?.fort?.[cityIndex] ?? 0] : null,
    fort: fought ? summary.fortification : null,
    bonus: fought ? summary.terrain : null,
    engineer: fought ? summary.engineer : null,
    lost: summary.lost ?? null,
    signs: summary.signs ?? [null, null],
    pending: null,
    asked: null,
    totals,
    swiss: summary.swiss ?? [0, 0],
    saved: summary.saved ?? [[], []],
    winner: finished ? summary.winner : null,
    captured: finished ? Boolean(summary.captured) : null,
  };
}

// The battle the panel shows for this frame: the live one, else the last one the log ended
// (`old` when a later entry started a new turn: a page opened then need not show it), else null.
export function readBattle(frame) {
  const view = frame?.view ?? {};
  const log = frame?.log ?? [];
  const live = fromPublic(view, log);
  if (live) return live;
  let old = false;
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.battle) return { ...fromSummary(entry.battle, entry.seq, log, true, view), old };
    if (entry.turn !== undefined) old = true;
  }
  return null;
}

// The Condottieri each side committed (as troops or as its red card).
export function committedCondottieri(battle, side) {
  const commit = battle.commits[side];
  if (!commit || !commit.blue) return 0;
  return commit.blue.filter((name) => name === CONDOTTIERE).length + (commit.red === CONDOTTIERE ? 1 : 0);
}

// What the Condottiere die did to each side once fought: how many of a side's Condottieri fled
// (rout) and how many went over to the other side (treason), counted from what was committed
// against what stands now. A traitor the other side did not buy was rolled again by its owner
// and leaves no trace.
export function condottiereFates(battle) {
  if (!battle.fought) return [{ routed: 0, turned: 0 }, { routed: 0, turned: 0 }];
  const present = battle.troops.map((side) => side.filter(([name]) => name === CONDOTTIERE).length);
  const committed = [0, 1].map((side) => committedCondottieri(battle, side));
  return [0, 1].map((side) => {
    const other = 1 - side;
    const gone = Math.max(0, committed[side] - present[side]);
    const gainedByOther = Math.max(0, present[other] - committed[other]);
    const turned = Math.min(gone, gainedByOther);
    return { routed: gone - turned, turned };
  });
}

// A side's strength as battle.strength counts it (the die included once rolled).
export function strength(battle, side) {
  const troops = battle.troops[side] ?? [];
  let total = troops.reduce((sum, [, value]) => sum + (value ?? 0), 0);
  if (battle.fought) total += battle.dice[side];
  const sign = battle.signs[side];
  if (sign !== null && sign !== undefined && troops[sign]) total += troops[sign][1] ?? 0;
  if (side === 1) total += (battle.fort ?? 0) + (battle.bonus ?? 0) + (battle.engineer ?? 0);
  return total + (battle.swiss?.[side] ?? 0);
}

// The totals: counted ones when the battle has them, else the strengths so far.
export function totalsOf(battle) {
  return battle.totals ?? [strength(battle, 0), strength(battle, 1)];
}

// Who won: the attacker with more points, else the defender (a tie too).
export function winnerOf(battle) {
  if (battle.winner !== null && battle.winner !== undefined) return battle.winner;
  if (!battle.totals) return null;
  return battle.totals[0] > battle.totals[1] ? battle.attacker : battle.defender;
}

export function isTie(battle) {
  return Boolean(battle.totals) && battle.totals[0] === battle.totals[1];
}

// The stage the panel is at; closing the panel hides it until the battle reaches a later one.
export function stageOf(battle) {
  if (battle.finished) return "result";
  if (battle.totals) return "counted";
  if (battle.fought) return "fought";
  if (battle.revealed) return "revealed";
  return "committing";
}
