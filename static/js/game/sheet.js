// The tables' layout helpers (#14). Self-starting beside game.js for Condottiere's table, and
// imported by static/js/renaissance.js for the Renaissance table:
//
// - Wide screens: the table (or its right-hand column) is as tall as the window below the point
//   where it starts, so that what sits at its bottom is on screen without scrolling. Where it
//   starts depends on the header and the status strip above it (their words wrap differently in
//   each language), so it is measured (a CSS property) rather than guessed.
// - Narrow screens: the decision sits in a bottom sheet. Its button folds it away to look at the
//   map and unfolds it; it unfolds by itself when a new decision comes. The page keeps room below
//   its content for the sheet (a CSS property), so nothing stays hidden behind it.

const MY_TURN = "is-my-turn";

// Keeps `property` on root set to where `target` starts on the page, measured again whenever
// one of the `watched` nodes above it (or the window) changes size.
export function keepTopMeasured(root, target, watched, property) {
  const measure = () => {
    const top = target.getBoundingClientRect().top + window.scrollY;
    root.style.setProperty(property, `${Math.max(0, Math.round(top))}px`);
  };
  const observer = new ResizeObserver(measure);
  watched.filter(Boolean).forEach((node) => observer.observe(node));
  window.addEventListener("resize", measure);
  measure();
}

// The bottom sheet: `toggle` folds and unfolds `sheet`, whose words ("Hide"/"Show") are the
// data-label-hide / data-label-show of `labels`; `heightProperty` on root is the room the
// sheet takes while it is fixed at the bottom (0 otherwise).
export function setUpBottomSheet(root, { sheet, toggle, labels, heightProperty }) {
  if (!sheet || !toggle) return;

  const setOpen = (open) => {
    sheet.classList.toggle("is-folded", !open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? labels.dataset.labelHide : labels.dataset.labelShow;
  };
  toggle.addEventListener("click", () => setOpen(sheet.classList.contains("is-folded")));

  // A new decision unfolds a folded sheet: the player's turn must not wait behind a fold.
  let wasMyTurn = root.classList.contains(MY_TURN);
  new MutationObserver(() => {
    const myTurn = root.classList.contains(MY_TURN);
    if (myTurn && !wasMyTurn) setOpen(true);
    wasMyTurn = myTurn;
  }).observe(root, { attributes: true, attributeFilter: ["class"] });

  new ResizeObserver(() => {
    const height = getComputedStyle(sheet).position === "fixed" ? sheet.offsetHeight : 0;
    root.style.setProperty(heightProperty, `${height}px`);
  }).observe(sheet);
  setOpen(true);
}

// Condottiere's table: the right-hand column (lines, decision, hand) below the header and the
// status strip, and the sheet with its words on the sheet itself.
function start() {
  const root = document.querySelector("[data-game-root]");
  if (!root) return;
  const side = root.querySelector(".game__side");
  if (side) {
    const watched = [document.querySelector(".site-header"), root.querySelector(".game__status")];
    keepTopMeasured(root, side, watched, "--side-top");
  }
  const sheet = root.querySelector("[data-sheet]");
  const toggle = sheet?.querySelector("[data-sheet-toggle]");
  setUpBottomSheet(root, { sheet, toggle, labels: sheet, heightProperty: "--sheet-height" });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
