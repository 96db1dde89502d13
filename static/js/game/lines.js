// The players panel: one entry per seat with its name, hand size, regions, and its battle line
// (face-down cards as card backs) with the announced strength; who passed, who is to play.

import { drawCardFace, cardAccessibleName } from "./cards.js";
import { iconElement } from "./icons.js";
import { seatName } from "./i18n.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The seat's initial ("R" for Red, in the page's language) on its colour marks, so that seats
// differ by more than colour (red/green, blue/purple) for colour-blind players.
export function seatInitial(t, game, seat) {
  const [first = ""] = Array.from(seatName(t, game, seat));
  return first.toLocaleUpperCase();
}

function badge(text, modifier) {
  return element("span", `badge badge--${modifier}`, text);
}

// Capturing Regions: the seat defending the contested region (the engine's `defender`).
export function defenderSeat(view) {
  if (!view?.options?.capturing_regions || !view.region) return null;
  if (view.defender !== undefined) return view.defender;
  const owner = view.owners?.[view.region];
  return owner === undefined ? null : owner;
}

// The head is one line: who, badges, hand size and regions, strength. A seat with no cards in its
// line shows the head alone (the empty card list is hidden by game.css), so six seats fit beside
// the hand on a laptop screen.
function headOf(player, { view, game, t }) {
  const seat = player.seat;
  const info = game?.seats?.[seat] ?? {};
  const head = element("div", "line__head");
  const swatch = element("span", "line__swatch", seatInitial(t, game, seat));
  swatch.setAttribute("aria-hidden", "true"); // the colour's name follows in words
  head.append(swatch);
  const who = element("span", "line__who");
  who.append(element("strong", "line__colour", seatName(t, game, seat)));
  if (info.name) who.append(element("span", "line__name", info.name));
  head.append(who);
  const tags = element("span", "line__tags");
  if (info.you) tags.append(badge(t.ui("you"), "you"));
  // A site bot's name already says it is one ("Colleoni (random bot)"): no second "bot".
  if (info.kind === "bot" && !info.level) tags.append(badge(t.ui("bot"), "bot"));
  // An outside program playing through the Bot API (docs/bot-api.md).
  if (info.bot_account) tags.append(badge(t.ui("bot_account"), "bot"));
  if (info.standin) tags.append(badge(t.ui("standin"), "bot"));
  if (view.condottiere === seat) {
    const holder = badge(t.ui("condottiere_holder"), "condottiere");
    holder.prepend(iconElement("condottiere", "badge__icon"));
    tags.append(holder);
  }
  if (defenderSeat(view) === seat) tags.append(badge(t.ui("defender"), "defender"));
  if (player.passed) tags.append(badge(t.ui("passed"), "passed"));
  head.append(tags, factsOf(player, t));
  const strength = element("span", "line__strength", String(player.strength ?? 0));
  strength.setAttribute("aria-label", t.ui("strength", { strength: player.strength ?? 0 }));
  strength.title = t.ui("strength", { strength: player.strength ?? 0 });
  head.append(strength);
  return head;
}

function factsOf(player, t) {
  const facts = element("span", "line__facts");
  facts.append(
    element("span", "", t.count("cards_in_hand", player.hand_size ?? 0)),
    element("span", "", t.count("regions_count", player.regions ?? 0)),
  );
  if (player.known_hand?.length) {
    const cards = player.known_hand.map((code) => t.cardName(code)).join(", ");
    facts.append(element("span", "line__known", t.ui("known_hand", { cards })));
  }
  return facts;
}

// Cards that were not in the line when the lines last changed arrive with a short motion. The
// first frame of a page animates nothing. Every render rebuilds the cards, which would restart
// the motion: a redraw with the same lines (the same state sent again, a click) keeps the marks
// and sets each arriving card's animation back by the time elapsed, so the motion plays once.
const drawnLines = new WeakMap();

function sameLines(a, b) {
  if (a.size !== b.size) return false;
  for (const [seat, line] of a) {
    const other = b.get(seat);
    if (!other || other.length !== line.length || line.some((code, index) => other[index] !== code)) return false;
  }
  return true;
}

function arrivingCards(container, view) {
  const lines = new Map((view?.players ?? []).map((player) => [player.seat, player.line ?? []]));
  const memo = drawnLines.get(container);
  if (memo && sameLines(memo.lines, lines)) return memo;
  const arriving = new Map();
  if (memo) {
    for (const [seat, line] of lines) {
      const before = memo.lines.get(seat) ?? [];
      arriving.set(seat, new Set(line.flatMap((code, index) => (before[index] === code ? [] : [index]))));
    }
  }
  const drawn = { lines, arriving, since: Date.now() };
  drawnLines.set(container, drawn);
  return drawn;
}

function cardsOf(player, t, arriving, elapsed) {
  const list = element("ul", "line__cards");
  (player.line ?? []).forEach((code, index) => {
    const item = element("li");
    drawCardFace(item, code, t, { compact: true }); // sets the item's classes: mark it after
    if (arriving?.has(index)) {
      item.classList.add("is-arriving");
      item.style.animationDelay = `-${elapsed}ms`;
    }
    let name = cardAccessibleName(code, t);
    // Hidden Cards: your own face-down card shows its face to you, marked as face down.
    if (index === player.face_down && code !== "hidden") {
      item.classList.add("is-face-down");
      name = `${name} (${t.ui("face_down")})`;
    }
    item.setAttribute("aria-label", name);
    item.title = name;
    list.append(item);
  });
  return list;
}

// A line is one stop for Tab (its first card), and the arrow keys move along its cards: a keyboard
// player reaches each card's help without tabbing through every card of six lines on the way to
// the hand (the roving tabindex of the WAI-ARIA practices).
function oneTabStop(list) {
  [...list.children].forEach((card, index) => {
    card.tabIndex = index === 0 ? 0 : -1;
  });
}

const ARROW_STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
const listening = new WeakSet();

function listenForArrows(container) {
  if (listening.has(container)) return;
  listening.add(container);
  container.addEventListener("keydown", (event) => {
    const card = event.target.closest?.(".line__cards > li");
    if (!card) return;
    const cards = [...card.parentElement.children];
    const at = cards.indexOf(card);
    let next = null;
    if (event.key in ARROW_STEPS) next = cards[at + ARROW_STEPS[event.key]];
    else if (event.key === "Home") next = cards[0];
    else if (event.key === "End") next = cards[cards.length - 1];
    if (!next) return;
    event.preventDefault();
    card.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
}

export function renderLines(container, { view, game, t }) {
  const drawn = arrivingCards(container, view);
  const elapsed = Date.now() - drawn.since;
  const items = (view?.players ?? []).map((player) => {
    const item = element("li", "line");
    item.dataset.seat = String(player.seat);
    item.style.setProperty("--seat", `var(--seat-${player.seat})`);
    item.style.setProperty("--seat-tint", `var(--seat-${player.seat}-tint)`);
    item.classList.toggle("is-current", view.current_player === player.seat);
    item.classList.toggle("is-passed", Boolean(player.passed));
    item.classList.toggle("is-you", view.seat === player.seat);
    item.classList.toggle("is-empty", (player.line ?? []).length === 0);
    const cards = cardsOf(player, t, drawn.arriving.get(player.seat), elapsed);
    oneTabStop(cards);
    item.append(headOf(player, { view, game, t }), cards);
    return item;
  });
  container.replaceChildren(...items);
  listenForArrows(container);
  renderStrengthStrip(container.closest("[data-game-root]")?.querySelector("[data-strength-strip]"), { view, game, t });
}

// The phone's bottom sheet covers the lines: its bar repeats each seat's initial and strength, so
// that the rivals' strengths stay in sight while the player chooses a card. Hidden from screen
// readers, which read the lines themselves.
function renderStrengthStrip(strip, { view, game, t }) {
  if (!strip) return;
  const items = (view?.players ?? []).map((player) => {
    const item = element("li", "strength-strip__seat");
    item.dataset.seat = String(player.seat);
    item.style.setProperty("--seat", `var(--seat-${player.seat})`);
    item.classList.toggle("is-current", view.current_player === player.seat);
    item.classList.toggle("is-passed", Boolean(player.passed));
    item.classList.toggle("is-you", view.seat === player.seat);
    item.title = `${seatName(t, game, player.seat)}: ${t.ui("strength", { strength: player.strength ?? 0 })}`;
    item.append(element("span", "strength-strip__initial", seatInitial(t, game, player.seat)), element("span", "strength-strip__value", String(player.strength ?? 0)));
    return item;
  });
  strip.replaceChildren(...items);
}
