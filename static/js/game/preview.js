// What a card would do to the announced strengths: pure functions over a seat's view, with the
// engine's rules (games/engine/cards.py line_strengths, games/engine/battle.py play). Kept free
// of the DOM so the browser tests can check them against the engine on real positions.

const PRINTED = { m1: 1, m2: 2, m3: 3, m4: 4, m5: 5, m6: 6, m10: 10 };
// [rules] Hidden Cards: these are played face down, so they add nothing to the announced strength.
const FACE_DOWN = new Set([...Object.keys(PRINTED), "courtesan", "drummer", "heroine"]);

const isMercenary = (code) => code in PRINTED;

// Highest printed Mercenary value over all lines, 0 when there is none.
function topMercenary(lines) {
  return Math.max(0, ...lines.flat().filter(isMercenary).map((code) => PRINTED[code]));
}

// [rules] Per Mercenary: 1 under Winter else printed; doubled by a Drummer; +3 under Spring when
// its printed value is the highest in all lines. Then +10 per Heroine and +1 per Courtesan.
export function lineStrengths(lines) {
  const all = lines.flat();
  const winter = all.includes("winter");
  const springTop = all.includes("spring") ? topMercenary(lines) : 0;
  return lines.map((line) => {
    const mercenaries = line.filter(isMercenary);
    let strength = mercenaries.reduce((sum, code) => sum + (winter ? 1 : PRINTED[code]), 0);
    if (line.includes("drummer")) strength *= 2;
    strength += 3 * mercenaries.filter((code) => springTop > 0 && PRINTED[code] === springTop).length;
    return strength + line.reduce((sum, code) => sum + (code === "heroine" ? 10 : code === "courtesan" ? 1 : 0), 0);
  });
}

// The face-up lines as `seat` knows them; with `turnUp`, its own face-down card counts too (its
// next play turns it up).
export function knownLines(view, seat, { turnUp = false } = {}) {
  return view.players.map((player) =>
    player.line.filter((code, index) => index !== player.face_down || (turnUp && player.seat === seat)),
  );
}

function without(line, code) {
  return line.filter((card) => card !== code);
}

// The lines after `seat` plays `card` (`take`: the Mercenary a Scarecrow takes back, if any).
export function linesAfterPlay(view, seat, card, { take = null } = {}) {
  const hiddenCards = Boolean(view.options?.hidden_cards);
  const lines = knownLines(view, seat, { turnUp: hiddenCards });
  if (card === "winter" || card === "spring") {
    const opposite = card === "winter" ? "spring" : "winter";
    const after = lines.map((line) => without(line, opposite));
    after[seat] = [...after[seat], card];
    return after;
  }
  if (card === "bishop") {
    const top = topMercenary(lines);
    return lines.map((line) => line.filter((code) => !isMercenary(code) || PRINTED[code] !== top));
  }
  if (card === "scarecrow") {
    if (take) lines[seat].splice(lines[seat].indexOf(take), 1);
    return lines;
  }
  if (card === "surrender" || (hiddenCards && FACE_DOWN.has(card))) return lines;
  lines[seat] = [...lines[seat], card];
  return lines;
}

export function previewStrengths(view, card, options) {
  return lineStrengths(linesAfterPlay(view, view.seat, card, options));
}

// How far `seat` stands above (or below, negative) the strongest other line.
function margin(strengths, seat) {
  const others = strengths.filter((_, index) => index !== seat);
  return strengths[seat] - Math.max(0, ...others);
}

// The cards that can weaken their own player, and whether playing `card` now would: the seat's
// margin over the leader falls, it stops leading, or a Surrender ends a battle it is losing.
export const RISKY_CARDS = new Set(["surrender", "bishop", "winter", "spring"]);

export function hurtsMe(view, card) {
  if (!RISKY_CARDS.has(card)) return false;
  const { seat, before, after } = playEffect(view, card);
  if (card === "surrender") return margin(after, seat) <= 0;
  return margin(after, seat) < margin(before, seat);
}

// The announced strengths before and after the seat plays `card`, for words that say what the
// card does to the player and to each other player.
export function playEffect(view, card, options) {
  const seat = view.seat;
  return { seat, before: lineStrengths(knownLines(view, seat)), after: previewStrengths(view, card, options) };
}
