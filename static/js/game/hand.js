// The player's hand: one button per card. In a battle the playable ones are enabled and a click
// plays (or opens the card's sub-choice); at the end of a round the cards toggle to choose which
// to keep.

import { addTipLine, drawCardFace, cardAccessibleName } from "./cards.js";
import { mercenaryValue } from "./actions.js";
import { askBeforeHurt, askToConfirm, ensureSettingToggle, hurtText } from "./confirm.js";
import { hurtsMe, playEffect, previewStrengths } from "./preview.js";

// Mercenaries by value, then the special cards in a fixed order: the hand reads like a fan.
const SPECIAL_ORDER = ["heroine", "courtesan", "drummer", "spring", "winter", "bishop", "scarecrow", "surrender"];

function sortKey(code) {
  const value = mercenaryValue(code);
  return value > 0 ? value : 100 + SPECIAL_ORDER.indexOf(code);
}

export function sortedHand(hand) {
  return (hand ?? []).map((code, index) => ({ code, index })).sort((a, b) => sortKey(a.code) - sortKey(b.code) || a.index - b.index);
}

// mode: "play" (playable: Set of codes), "keep" (selected: Set of positions, limit), or "idle".
// "Red 12 · Blue 8": strengths per seat, named as at the table (`seatNames`).
function strengthsText(strengths, seatNames) {
  return strengths.map((strength, seat) => `${seatNames[seat] ?? seat + 1} ${strength}`).join(" · ");
}

// A play that may weaken the player asks first (unless the player turned that off), saying what
// it would do to the player and to the others.
function guardedPlay(container, code, { view, t, seatNames, player, onPlay }) {
  if (!view || !askBeforeHurt(player) || !hurtsMe(view, code)) return onPlay(code);
  const text = hurtText({ t, card: code, seatNames, ...playEffect(view, code) });
  askToConfirm(container, { t, text, onConfirm: () => onPlay(code) });
}

export function renderHand(container, { hand, t, mode, playable, selected, limit, busy, onPlay, onToggleKeep, view, seatNames = [], player }) {
  const buttons = sortedHand(hand).map(({ code }, position) => {
    const button = document.createElement("button");
    button.type = "button";
    drawCardFace(button, code, t);
    button.dataset.focusKey = `hand-${position}-${code}`;
    button.setAttribute("aria-label", cardAccessibleName(code, t));
    if (mode === "play") {
      button.disabled = busy || !playable.has(code);
      // The Scarecrow's effect depends on the card taken back: its preview is its sub-choice.
      if (view && playable.has(code) && code !== "scarecrow") {
        addTipLine(button, t.ui("preview_strengths", { strengths: strengthsText(previewStrengths(view, code), seatNames) }));
      }
      button.addEventListener("click", () => guardedPlay(container, code, { view, t, seatNames, player, onPlay }));
    } else if (mode === "keep") {
      const isSelected = selected.has(position);
      button.setAttribute("aria-pressed", String(isSelected));
      button.classList.toggle("is-selected", isSelected);
      button.disabled = busy || (!isSelected && selected.size >= limit);
      button.addEventListener("click", () => onToggleKeep(position, code));
    } else {
      button.disabled = true;
    }
    return button;
  });
  if (view) ensureSettingToggle(container, { t, player });
  if (buttons.length === 0) {
    const empty = document.createElement("p");
    empty.className = "hand__empty";
    empty.textContent = t.ui("hand_empty");
    container.replaceChildren(empty);
    return;
  }
  container.replaceChildren(...buttons);
}
