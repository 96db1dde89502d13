// The cards' tooltip: one element for the whole page, in the top layer (a popover) and placed
// beside the card, because a card clips what it holds (its rounded face hides overflow) and a
// battle line or the phone's sheet scrolls. It shows a copy of the card's hidden help
// (cards.js), on hover, on keyboard focus, and on a finger's long press (or a tap on a card that
// a tap does not play). It goes above the card, or below when there is no room above, never off
// the screen, and covers the card only when neither side has room.

const GAP = 6; // px between the card and its tip
const EDGE = 4; // px kept free at the viewport's edges
const LONG_PRESS_MS = 450;

let installed = null;

export function installCardTips(doc = document) {
  if (installed?.doc === doc) return;
  installed = createCardTips(doc);
}

function createCardTips(doc) {
  const view = doc.defaultView;
  let tip = null;
  let shownFor = null;
  let frame = 0;
  let lastBox = "";
  // The last kind of input: "key", "mouse", "touch" (or "none" yet). Only a focus moved by the
  // keyboard shows the tip: the focus the page restores after each frame, or the one a click or
  // a tap leaves behind, would cover the table with a tip nobody asked for.
  let lastInput = "none";
  let pressTimer = 0;
  let longPressed = null;
  let clickPoint = null; // where a mouse last pressed a card
  const nearClick = (event) =>
    clickPoint !== null && Math.hypot(event.clientX - clickPoint.x, event.clientY - clickPoint.y) < 4;

  function tipElement() {
    if (tip?.isConnected) return tip;
    tip = doc.createElement("div");
    tip.className = "card-tip";
    tip.id = "card-tip";
    tip.dataset.cardTip = "";
    tip.setAttribute("role", "tooltip");
    if (typeof tip.showPopover === "function") tip.popover = "manual";
    tip.hidden = true;
    // Moving from the card onto its tip keeps it (a tip one can hover); leaving the tip hides it.
    tip.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse" && !shownFor?.contains(event.relatedTarget)) hide();
    });
    doc.body.append(tip);
    return tip;
  }

  function show(card) {
    const help = card.querySelector(":scope > .card__help");
    if (!help) return;
    const element = tipElement();
    element.replaceChildren(...Array.from(help.childNodes, (node) => node.cloneNode(true)));
    element.dataset.card = card.dataset.card ?? "";
    element.hidden = false;
    if (element.popover && !element.matches(":popover-open")) element.showPopover();
    shownFor = card;
    lastBox = "";
    follow();
  }

  function hide(card = null) {
    if (card && card !== shownFor) return;
    shownFor = null;
    view.cancelAnimationFrame(frame);
    if (!tip) return;
    if (tip.popover && tip.matches(":popover-open")) tip.hidePopover();
    tip.hidden = true;
  }

  // Keeps the tip beside its card while the card moves (a hover lift, a scroll, a resize), and
  // hides it when the card leaves the page (the hand is redrawn after each move).
  function follow() {
    view.cancelAnimationFrame(frame);
    const step = () => {
      if (!shownFor) return;
      if (!shownFor.isConnected) {
        hide();
        return;
      }
      place();
      frame = view.requestAnimationFrame(step);
    };
    step();
  }

  function place() {
    const box = shownFor.getBoundingClientRect();
    const key = `${box.left},${box.top},${box.width},${box.height}`;
    if (key === lastBox) return;
    lastBox = key;
    const width = doc.documentElement.clientWidth;
    const height = view.innerHeight;
    const { offsetWidth: tipWidth, offsetHeight: tipHeight } = tip;
    const left = clamp(box.left + box.width / 2 - tipWidth / 2, EDGE, width - tipWidth - EDGE);
    const above = box.top - GAP - tipHeight;
    const below = box.bottom + GAP;
    let top;
    let side;
    if (above >= EDGE) [top, side] = [above, "above"];
    else if (below + tipHeight <= height - EDGE) [top, side] = [below, "below"];
    else [top, side] = [box.top > height - box.bottom ? above : below, "over"];
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(clamp(top, EDGE, height - tipHeight - EDGE))}px`;
    tip.dataset.side = side;
  }

  const cardOf = (target) => target?.closest?.(".card");

  doc.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const card = cardOf(event.target);
    if (card && card !== shownFor && !nearClick(event)) show(card);
  });
  doc.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "mouse" || !clickPoint || nearClick(event)) return;
    clickPoint = null;
    const card = cardOf(event.target);
    if (card && card !== shownFor) show(card);
  });
  doc.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const card = cardOf(event.target);
    const into = event.relatedTarget;
    if (card && card === shownFor && !card.contains(into) && !tip?.contains(into)) hide(card);
  });

  // A finger: a long press shows the help (and does not play the card); a tap on a card that a
  // tap does not play (a line's card, a hand's card out of turn) shows it too; a tap elsewhere
  // hides it.
  doc.addEventListener("pointerdown", (event) => {
    lastInput = event.pointerType;
    view.clearTimeout(pressTimer);
    longPressed = null;
    const card = cardOf(event.target);
    if (event.pointerType !== "touch") {
      // A click on a card is a move: its tip goes away so as not to cover the decision that
      // follows (a sub-choice, the confirm panel), and the card redrawn under the resting
      // pointer shows none until the pointer moves.
      clickPoint = card ? { x: event.clientX, y: event.clientY } : null;
      if (card) hide();
      return;
    }
    if (!card) {
      if (!tip?.contains(event.target)) hide();
      return;
    }
    if (isPlayedByTap(card)) {
      hide();
      pressTimer = view.setTimeout(() => {
        longPressed = card;
        show(card);
      }, LONG_PRESS_MS);
    } else {
      show(card);
    }
  });
  for (const type of ["pointerup", "pointercancel"]) {
    doc.addEventListener(type, () => view.clearTimeout(pressTimer));
  }
  // The click that ends a long press only showed the help: it plays nothing.
  doc.addEventListener(
    "click",
    (event) => {
      const card = cardOf(event.target);
      if (card && card === longPressed) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
      longPressed = null;
    },
    true,
  );
  doc.addEventListener("contextmenu", (event) => {
    if (cardOf(event.target) && lastInput === "touch") event.preventDefault();
  });

  doc.addEventListener("focusin", (event) => {
    const card = cardOf(event.target);
    if (card && card === event.target && lastInput === "key") show(card);
  });
  doc.addEventListener("focusout", (event) => {
    const card = cardOf(event.target);
    if (card && card === event.target && !card.matches(":hover")) hide(card);
  });
  // Capturing: the key counts before a handler that moves the focus with it (a line's arrows).
  doc.addEventListener(
    "keydown",
    (event) => {
      lastInput = "key";
      if (event.key === "Escape") hide();
    },
    true,
  );

  return { doc, show, hide };
}

// A hand's enabled card plays (or opens its choice) on a tap.
function isPlayedByTap(card) {
  return card.tagName === "BUTTON" && !card.disabled;
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(value, Math.max(low, high)));
}
