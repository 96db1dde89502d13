// The discard pile's viewer: the face-up discards are public (the rules let anyone look at
// them), so every seat and spectator can open the list. Cards set aside face down are only
// counted; a seat sees its own among them (the view's `own_discards`).
// The <details> is built once and its contents refreshed, so an open viewer stays open while
// frames arrive. Open, it lies over the lines (game.css) rather than pushing them away, and under
// the decision and the hand; Escape, its Close button or a click elsewhere closes it.

import { drawCardFace } from "./cards.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// [["m10", 2], ["winter", 1]]: each card once with how many lie in the pile, in deck order.
function tally(codes, order) {
  const counts = new Map();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
}

// Mercenaries from 1 to 10, then the special cards: the engine's order of card codes.
const CARD_ORDER = ["m1", "m2", "m3", "m4", "m5", "m6", "m10", "winter", "spring", "bishop", "courtesan", "drummer", "heroine", "scarecrow", "surrender"];

function cardList(codes, t) {
  const list = element("ul", "discards__cards");
  for (const [code, count] of tally(codes, CARD_ORDER)) {
    const item = element("li", "discards__card");
    const face = element("span");
    drawCardFace(face, code, t, { compact: true });
    const times = element("span", "discards__times", `×${count}`);
    item.setAttribute("aria-label", `${t.cardTitle(code)} ×${count}`);
    item.append(face, times);
    list.append(item);
  }
  return list;
}

function shut(details, summary) {
  const hadFocus = details.contains(document.activeElement);
  details.open = false;
  if (hadFocus) summary.focus({ preventScroll: true });
}

// An overlay is closed by what closes one: Escape, or pointing anywhere outside it.
function closeWhenDone(details, summary) {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && details.open) shut(details, summary);
  });
  document.addEventListener("pointerdown", (event) => {
    if (details.open && !details.contains(event.target)) details.open = false;
  });
}

export function createDiscardViewer(section, t) {
  const holder = section.querySelector("[data-discards]");
  const details = element("details", "discards__viewer");
  const summary = element("summary", "discards__summary");
  summary.dataset.focusKey = "discards";
  const body = element("div", "discards__body");
  details.append(summary, body);
  holder.replaceChildren(details);
  closeWhenDone(details, summary);

  return {
    update(view) {
      section.hidden = !view;
      if (!view) return;
      const faceUp = view.discards ?? [];
      const total = view.discard_pile_size ?? faceUp.length;
      summary.textContent = t.ui("discards_button", { count: total });
      const content = [element("h3", "discards__title", t.ui("discards_title"))];
      content.push(faceUp.length ? cardList(faceUp, t) : element("p", "muted", t.ui("discards_empty")));
      const faceDown = total - faceUp.length;
      if (faceDown > 0) content.push(element("p", "discards__hidden", t.ui("discards_hidden", { count: faceDown })));
      const own = view.own_discards ?? [];
      if (own.length) {
        content.push(element("p", "discards__own", t.ui("discards_own", { cards: own.map((code) => t.cardTitle(code)).join(", ") })));
      }
      content.push(element("p", "discards__note muted", t.ui("discards_note")));
      const close = element("button", "button button--secondary button--small discards__close", t.ui("battle_result_close"));
      close.type = "button";
      close.addEventListener("click", () => shut(details, summary));
      body.replaceChildren(close, ...content);
    },
  };
}
