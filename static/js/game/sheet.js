// The table's layout helpers (#14), self-starting beside game.js:
//
// - Wide screens: the right-hand column (lines, decision, hand) is as tall as the window below the
//   point where it starts, so that the decision and the hand, at its bottom, are on screen without
//   scrolling. Where it starts depends on the header and the status strip above it (their words
//   wrap differently in each language), so it is measured (--side-top) rather than guessed.
// - Narrow screens: the decision and the hand sit in a bottom sheet. Its button folds it away to
//   look at the map and unfolds it; it unfolds by itself when a new decision comes. The page keeps
//   room below its content for the sheet (--sheet-height), so nothing stays hidden behind it.

const MY_TURN = "is-my-turn";

function measureSideTop(root, side) {
  const top = side.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--side-top", `${Math.max(0, Math.round(top))}px`);
}

function setUpSideColumn(root) {
  const side = root.querySelector(".game__side");
  if (!side) return;
  const measure = () => measureSideTop(root, side);
  const watched = [document.querySelector(".site-header"), root.querySelector(".game__status")].filter(Boolean);
  const observer = new ResizeObserver(measure);
  watched.forEach((node) => observer.observe(node));
  window.addEventListener("resize", measure);
  measure();
}

function setUpSheet(root) {
  const sheet = root.querySelector("[data-sheet]");
  const toggle = sheet?.querySelector("[data-sheet-toggle]");
  if (!sheet || !toggle) return;

  const setOpen = (open) => {
    sheet.classList.toggle("is-folded", !open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? sheet.dataset.labelHide : sheet.dataset.labelShow;
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
    root.style.setProperty("--sheet-height", `${height}px`);
  }).observe(sheet);
  setOpen(true);
}

function start() {
  const root = document.querySelector("[data-game-root]");
  if (!root) return;
  setUpSideColumn(root);
  setUpSheet(root);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
