// Card faces, drawn with HTML and CSS plus a small SVG icon. A Mercenary shows its value big; a
// special card shows its name and a one-line effect (a short one on small cards); a face-down
// card shows the card back.

import { iconElement } from "./icons.js";
import { installCardTips } from "./card_tip.js";

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

// Fills `element` (a <button> in the hand, a <li> in a battle line) with the face of `code`.
export function drawCardFace(element, code, t, { compact = false } = {}) {
  const info = t.cardInfo(code);
  element.classList.add("card", `card--${info.kind}`, `card--${code}`);
  if (compact) element.classList.add("card--compact");
  element.dataset.card = code;
  addCardTip(element, code, t);
  if (info.kind === "hidden") {
    element.append(span("card__back"));
    return element;
  }
  if (info.kind === "mercenary") {
    element.append(
      span("card__corner", info.name),
      iconElement("mercenary", "card__icon card__icon--watermark"),
      span("card__value", info.name),
    );
    if (!compact) element.append(fittedText("card__label", info.effect, { breakable: false }));
    return element;
  }
  element.append(iconElement(code, "card__icon"), fittedText("card__name", info.name));
  // The one-line effect where the card has room for it, else its short form (game.css picks).
  if (!compact) element.append(span("card__effect", info.effect));
  if (info.short) element.append(span("card__short", info.short));
  return element;
}

// Names must fit the face in every language: "Spaventapasseri" and "Épouvantail" are one long
// word. A long word may break once, at a syllable near its middle, through a <wbr> that breaks
// only when needed and leaves the text itself unchanged: before a consonant and a vowel
// ("Spaventa|passeri", "Corti|giana"), before a consonant and r or l ("Scare|crow"), or between
// two consonants ("Cour|tesan"). The CSS sizes the text by its longest word while that stays
// readable, else by its longest part (--name-length, --name-chunk), so that each part fits.
const VOWEL = /[aeiouyàâäéèêëìîïòôöùûüœæ]/i;
const CLUSTER = /^[bcdfgkpt][rl]$/i;
const LONG_WORD = 9;

function isSyllableStart(word, index) {
  const [before, first, second, after] = [word[index - 1], word[index], word[index + 1], word[index + 2]];
  if (VOWEL.test(first)) return false;
  if (VOWEL.test(before)) return VOWEL.test(second) || (CLUSTER.test(first + second) && VOWEL.test(after ?? ""));
  return VOWEL.test(word[index - 2]) && VOWEL.test(second) && !CLUSTER.test(before + first);
}

export function wordParts(word) {
  if (word.length < LONG_WORD) return [word];
  let best = -1;
  for (let index = 3; index <= word.length - 3; index += 1) {
    if (isSyllableStart(word, index) && (best < 0 || Math.abs(index - word.length / 2) < Math.abs(best - word.length / 2))) best = index;
  }
  return best < 0 ? [word] : [word.slice(0, best), word.slice(best)];
}

function fittedText(className, text, { breakable = true } = {}) {
  const node = span(className);
  let chunk = 1;
  String(text ?? "").split(" ").forEach((word, index) => {
    if (index > 0) node.append(" ");
    (breakable ? wordParts(word) : [word]).forEach((part, partIndex) => {
      if (partIndex > 0) node.append(document.createElement("wbr"));
      node.append(part);
      chunk = Math.max(chunk, part.length);
    });
  });
  node.style.setProperty("--name-chunk", String(chunk));
  node.style.setProperty("--name-length", String(Math.max(1, ...String(text ?? "").split(" ").map((word) => word.length))));
  return node;
}

// A short accessible name: "Mercenary 10", "Winter: every Mercenary counts 1".
export function cardAccessibleName(code, t) {
  const info = t.cardInfo(code);
  if (info.kind === "special" && info.effect) return `${info.name}: ${info.effect}`;
  return t.cardTitle(code);
}

let helpCount = 0;

// The card's help: its name and what it does in the rules' words, kept in the card (hidden) as
// its accessible description, and shown by the page's one floating tooltip (card_tip.js) on
// hover, keyboard focus and a finger's long press. A line card takes the focus too (tabindex)
// so that the keyboard reaches its help like the mouse does.
function addCardTip(element, code, t) {
  const info = t.cardInfo(code);
  const help = span("card__help");
  helpCount += 1;
  help.id = `card-help-${helpCount}`;
  help.append(span("card__tip-name", t.cardTitle(code)));
  if (info.help) help.append(span("card__tip-text", info.help));
  element.append(help);
  element.setAttribute("aria-describedby", help.id);
  if (element.tagName !== "BUTTON") element.tabIndex = 0;
  installCardTips(element.ownerDocument);
}

// Adds a line to the card's help (the hand's strength preview).
export function addTipLine(element, text) {
  element.querySelector(":scope > .card__help")?.append(span("card__tip-preview", text));
}

const SVG_NS = "http://www.w3.org/2000/svg";

// The Pope explained where he is shown: a tooltip (SVG <title>) on his token and on his region,
// redrawn after each board render (the board keeps its region groups from frame to frame).
export function explainPope(svg, view, t) {
  svg.querySelectorAll("title.pope-help").forEach((title) => title.remove());
  if (!view?.pope) return;
  const text = t.ui("pope_help", { region: t.region(view.pope) });
  const targets = [svg.querySelector(`g.region[data-region="${CSS.escape(view.pope)}"]`), svg.querySelector(".token--pope")];
  for (const target of targets.filter(Boolean)) {
    const title = document.createElementNS(SVG_NS, "title");
    title.setAttribute("class", "pope-help");
    title.textContent = text;
    target.prepend(title);
  }
}
