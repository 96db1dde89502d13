// The end of a game seen live shows what a reload shows: whether it was rated (and why not), the
// replay link, the computer analysis (each player's accuracy, or "Request analysis"). The server
// draws those lines in the page's header for a game that is over; a page drawn while the game was
// played reads the page again once, when the game ends, and takes them from it. So the two can
// never differ, and the words and the analysis form's CSRF token are the server's own.

// The header's lines of a game that is over, in the order the page draws them.
const END_LINES = ["[data-rated]", ".game__replay-link", "[data-game-analysis]"];

const RETRY_MS = 3000;
let fetched = false;

function drawnStatus() {
  const node = document.getElementById("game-info");
  return node ? JSON.parse(node.textContent).status : null;
}

// A game with many spectators ends for all of them at once: their pages read it again spread
// over this many milliseconds, so that the end is not a burst of page renders. The players' own
// pages (who may ask for the analysis) read it at once.
const SPECTATORS_SPREAD_MS = 10_000;

export function showEndFacts(root, { seated }) {
  if (seated) readEndFacts(root);
  else setTimeout(() => readEndFacts(root), Math.random() * SPECTATORS_SPREAD_MS);
}

async function readEndFacts(root) {
  const header = root.querySelector(".game__status");
  // Drawn by the server already (the page was loaded after the end), or read once already.
  if (!header || fetched || ["finished", "aborted"].includes(drawnStatus())) return;
  fetched = true;
  let page;
  try {
    const response = await fetch(window.location.pathname, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    page = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch {
    fetched = false; // the network or the server hiccuped: read it again a little later
    setTimeout(() => readEndFacts(root), RETRY_MS);
    return;
  }
  const fresh = page.querySelector(".game__status");
  if (!fresh) return;
  for (const selector of END_LINES) {
    const line = fresh.querySelector(selector);
    const mine = header.querySelector(selector);
    if (line && mine) mine.replaceWith(document.importNode(line, true));
    else if (line) placeLike(line, fresh, header);
    else mine?.remove();
  }
}

// How a line of the header is found again in the other copy of the page.
function keyOf(node) {
  const data = Object.keys(node.dataset)[0];
  if (data) return `[data-${data.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}]`;
  return node.classList.length ? `.${node.classList[0]}` : node.tagName.toLowerCase();
}

// Put a copy of `line` (from the fresh page's header) where the fresh page has it: in the same
// part of the header, after the nearest earlier line this page has too.
function placeLike(line, freshHeader, header) {
  const parent = line.parentElement === freshHeader ? header : header.querySelector(keyOf(line.parentElement)) ?? header;
  const copy = document.importNode(line, true);
  for (let before = line.previousElementSibling; before; before = before.previousElementSibling) {
    const mine = parent.querySelector(`:scope > ${keyOf(before)}`);
    if (mine) return mine.after(copy);
  }
  parent.prepend(copy);
}
