// The decision as a bottom sheet on a phone (static/css/renaissance.css draws it fixed at the
// bottom below 56rem): its button folds it away to look at the map and unfolds it, and a new
// decision unfolds it by itself. The page keeps room below its content for the sheet
// (--rn-sheet-height), so nothing stays hidden behind it.

const MY_TURN = "is-my-turn";

// Wide screens: the table is as tall as the window below where it starts (the site's header
// wraps differently in each language), so it is measured rather than guessed.
function measureTop(root) {
  const measure = () => {
    const top = root.getBoundingClientRect().top + window.scrollY;
    root.style.setProperty("--rn-top", `${Math.max(0, Math.round(top))}px`);
  };
  const header = document.querySelector(".site-header");
  if (header) new ResizeObserver(measure).observe(header);
  window.addEventListener("resize", measure);
  measure();
}

export function setUpSheet(root) {
  measureTop(root);
  const sheet = root.querySelector("[data-rn-sheet]");
  const toggle = sheet?.querySelector("[data-rn-sheet-toggle]");
  if (!sheet || !toggle) return;
  const setOpen = (open) => {
    sheet.classList.toggle("is-folded", !open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? toggle.dataset.labelHide : toggle.dataset.labelShow;
  };
  toggle.addEventListener("click", () => setOpen(sheet.classList.contains("is-folded")));
  let wasMyTurn = root.classList.contains(MY_TURN);
  new MutationObserver(() => {
    const myTurn = root.classList.contains(MY_TURN);
    if (myTurn && !wasMyTurn) setOpen(true);
    wasMyTurn = myTurn;
  }).observe(root, { attributes: true, attributeFilter: ["class"] });
  new ResizeObserver(() => {
    const height = getComputedStyle(sheet).position === "fixed" ? sheet.offsetHeight : 0;
    root.style.setProperty("--rn-sheet-height", `${height}px`);
  }).observe(sheet);
  setOpen(true);
}
