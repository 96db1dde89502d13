// The running log, phrased from the frame's public `log` entries ("Red plays Winter: every
// Mercenary counts 1", "Blue passes", "Green wins Milano (23 to 17)").

import { seatName } from "./i18n.js";

function phrasePlay(entry, t, player, mine) {
  const card = entry.card;
  if (card === "hidden") return t.log("play_hidden", { player });
  if (card === "scarecrow") {
    return entry.take
      ? t.log("scarecrow_take", { player, card: t.cardTitle(entry.take) })
      : t.log("scarecrow_none", { player });
  }
  if (card === "bishop") {
    if (!("pope" in entry)) return t.log("bishop_final", { player });
    return entry.pope
      ? t.log("bishop_pope", { player, region: t.region(entry.pope) })
      : t.log("bishop_off", { player });
  }
  const info = t.cardInfo(card);
  if (info.kind === "special" && info.effect) {
    return t.log("play_effect", { player, card: info.name, effect: playedEffect(card, info, mine) });
  }
  return t.log("play", { player, card: t.cardTitle(card) });
}

// A card's one-line effect speaks to the hand that holds it ("doubles your Mercenaries"); in the
// log it says "your" only to the seat that played the card, "their" to everyone else.
const HOLDER_EFFECTS = new Set(["drummer"]);

function playedEffect(card, info, mine) {
  if (!HOLDER_EFFECTS.has(card)) return info.effect;
  return mine ? info.effect : info.effect_theirs ?? info.effect;
}

function phraseAction(entry, t, player, mine) {
  switch (entry.type) {
    case "choose_region":
      return t.log("choose_region", { player, region: t.region(entry.region) });
    case "play":
      return phrasePlay(entry, t, player, mine);
    case "pass":
      return t.log(entry.reveal ? "pass_reveal" : "pass", { player });
    case "discard_hand":
      // Every answer is logged; entries from before that rule carry no "discard": discards.
      return t.log(entry.discard === false ? "discard_keep" : "discard_hand", { player });
    case "keep":
      return t.count("keep", entry.count ?? 0, { player });
    case "draw":
      return t.count("draw", entry.count ?? 0, { player });
    default:
      return null;
  }
}

// "Green wins Milano (23 to 17)"; with no winner, "Nobody wins Milano: a tie at 12".
export function phraseBattle(battle, t, game) {
  const strengths = battle.strengths ?? [];
  // The final battle is fought over no region.
  const final = !battle.region;
  const region = final ? "" : t.region(battle.region);
  if (battle.winner === null || battle.winner === undefined) {
    return t.log(final ? "final_tied" : "battle_tied", { region, strength: Math.max(0, ...strengths) });
  }
  const others = strengths.filter((_, seat) => seat !== battle.winner);
  return t.log(final ? "final_won" : "battle_won", {
    player: seatName(t, game, battle.winner),
    region,
    strength: strengths[battle.winner] ?? 0,
    other: Math.max(0, ...others),
  });
}

// "The Bishop discards Mercenary 10 of Red, Mercenary 10 of Blue".
function phraseBishop(victims, t, game) {
  if (!victims.length) return t.log("bishop_no_victim");
  const cards = victims.map((victim) =>
    t.log("bishop_victim", { card: t.cardTitle(victim.card), player: seatName(t, game, victim.seat) }),
  );
  return t.log("bishop_victims", { cards: cards.join(", ") });
}

// "New deal: Red 11 cards, Blue 10 cards" (seats dealt nothing are left out).
function phraseDeal(dealt, t, game) {
  const parts = dealt
    .map((count, seat) => (count > 0 ? t.count("dealt_to", count, { player: seatName(t, game, seat) }) : null))
    .filter(Boolean);
  return t.log("dealt", { list: parts.join(", ") });
}

// What the action set off, in the order it happened. Entries logged before these keys existed
// lack them: nothing is said.
function consequences(entry, t, game) {
  const lines = [];
  if (entry.bishop) lines.push({ text: phraseBishop(entry.bishop, t, game), seat: entry.seat, kind: "bishop" });
  if (entry.battle) {
    lines.push({ text: phraseBattle(entry.battle, t, game), seat: entry.battle.winner, kind: "battle" });
  }
  if (entry.token !== undefined && entry.token !== null) {
    lines.push({ text: t.log("token_moves", { player: seatName(t, game, entry.token) }), seat: entry.token, kind: "token" });
  }
  if (entry.round_end) {
    const keeper = entry.keeper;
    const text =
      keeper === undefined || keeper === null
        ? t.log("round_end")
        : t.log("round_end_keep", { player: seatName(t, game, keeper) });
    lines.push({ text, seat: keeper ?? null, kind: "round_end" });
  }
  if (entry.dealt) lines.push({ text: phraseDeal(entry.dealt, t, game), seat: null, kind: "deal" });
  return lines;
}

// One entry -> the lines to show for it (the action, then what it set off: the Bishop's victims,
// the battle it concluded, the token's new holder, the end of the round, the new deal).
export function phraseEntry(entry, t, game) {
  const lines = [];
  const mine = Boolean(game?.seats?.[entry.seat]?.you);
  const action = phraseAction(entry, t, seatName(t, game, entry.seat), mine);
  if (action) lines.push({ text: action, seat: entry.seat, kind: entry.type });
  return lines.concat(consequences(entry, t, game));
}

export function phraseLog(log, t, game) {
  return (log ?? []).flatMap((entry) =>
    phraseEntry(entry, t, game).map((line, index) => ({ ...line, key: `${entry.seq}.${index}` })),
  );
}

// Newest first, so the latest move is always in sight without scrolling.
export function renderLog(container, lines) {
  const items = [...lines].reverse().map((line) => {
    const item = document.createElement("li");
    item.className = `log__entry log__entry--${line.kind}`;
    if (line.seat !== null && line.seat !== undefined) {
      item.style.setProperty("--seat", `var(--seat-${line.seat})`);
    }
    item.textContent = line.text;
    return item;
  });
  container.replaceChildren(...items);
}
