// Feedback after every move: the last move is marked on the board or in its line (until the next
// move), and the keyboard focus lands on a sensible control instead of falling to the page body
// when a re-render removes the focused button.

import { phraseEntry } from "./log.js";

const MARK = "is-last-move";
const NOTE_ID = "last-move-note";

// The move to mark: the public log's newest entry (docs/protocol.md, `log`).
export function lastMove(log) {
  return log?.length ? log[log.length - 1] : null;
}

// Which card of the line the play put there: the face-down slot for a hidden play, else the last
// copy of the card (a Scarecrow stands where the Mercenary it took back stood).
function playedCardIndex(entry, player) {
  const line = player?.line ?? [];
  if (entry.card !== "hidden") return line.lastIndexOf(entry.card);
  if (Number.isInteger(player?.face_down)) return player.face_down;
  return line.lastIndexOf("hidden");
}

// The element that shows the move: the region chosen on the map, the card played in its line, or
// the seat's whole line (a pass, a card gone with the battle it ended, the other decisions).
function moveTarget(root, entry, view) {
  if (entry.type === "choose_region") {
    return root.querySelector(`g.region[data-region="${CSS.escape(entry.region)}"]`);
  }
  const line = root.querySelector(`[data-lines] .line[data-seat="${entry.seat}"]`);
  if (entry.type === "play" && line) {
    const index = playedCardIndex(entry, view?.players?.[entry.seat]);
    const card = index >= 0 ? line.querySelectorAll(".line__cards > li")[index] : null;
    if (card) return card;
  }
  return line;
}

// A region's stroke is hidden under its neighbours: the mark is drawn again above the map.
function outlineRegion(region) {
  const layer = region.ownerSVGElement?.querySelector("g.board-tokens");
  const shape = region.querySelector("path");
  if (!layer || !shape) return;
  const copy = shape.cloneNode(false);
  copy.removeAttribute("id");
  copy.setAttribute("class", "last-move-outline");
  layer.append(copy);
}

// Screen readers hear what the mark means through aria-describedby: "Last move: Red plays
// Mercenary 10" (the log's own sentence for the move).
function noteElement(root) {
  let note = root.querySelector(`#${NOTE_ID}`);
  if (!note) {
    note = document.createElement("span");
    note.id = NOTE_ID;
    note.className = "visually-hidden";
    root.append(note);
  }
  return note;
}

function clearMarks(root) {
  for (const marked of root.querySelectorAll(`.${MARK}`)) {
    marked.classList.remove(MARK);
    marked.removeAttribute("aria-describedby");
  }
  for (const outline of root.querySelectorAll(".last-move-outline")) outline.remove();
}

// Called after the board and the lines are drawn for `frame`.
export function markLastMove(root, frame, t) {
  clearMarks(root);
  const entry = lastMove(frame?.log);
  const note = noteElement(root);
  const target = entry ? moveTarget(root, entry, frame.view) : null;
  if (!target) {
    note.textContent = "";
    return;
  }
  note.textContent = t.ui("last_move", { move: phraseEntry(entry, t, frame.game)[0]?.text ?? "" });
  target.classList.add(MARK);
  target.setAttribute("aria-describedby", NOTE_ID);
  if (entry.type === "choose_region") outlineRegion(target);
}

// --- Focus ------------------------------------------------------------------------------------

const LEGAL_CONTROLS = [
  "[data-hand] button:not([disabled])",
  "[data-prompt] button:not([disabled])",
  "g.region.is-choosable",
];

function firstLegalControl(root) {
  for (const selector of LEGAL_CONTROLS) {
    const control = root.querySelector(selector);
    if (control) return control;
  }
  return null;
}

function statusRegion(root) {
  const status = root.querySelector("[data-turn]");
  // Focusable by script only: it is a place to wait, not a control to tab to.
  if (status && !status.hasAttribute("tabindex")) status.setAttribute("tabindex", "-1");
  return status;
}

// Focus counts as lost when it fell to the body (its button was redrawn away), sits on a control
// that can no longer be used (a disabled button, a map region no longer to be chosen: the region
// just chosen by Enter keeps the focus otherwise), or waits on the status region while a decision
// is now ours.
function focusIsLost(root, myTurn) {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) return true;
  if (active.disabled) return root.contains(active);
  if (active.matches("g.region[aria-disabled='true']")) return true;
  return myTurn && active === root.querySelector("[data-turn]");
}

// After each render: the same control if it was redrawn (focusKey), else the first legal control
// when the decision is ours, else the status region. Focus elsewhere in the page is left alone.
export function returnFocus(root, focusKey) {
  const myTurn = root.classList.contains("is-my-turn") && root.dataset.busy !== "true";
  if (!focusIsLost(root, myTurn)) return;
  const same = focusKey ? root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) : null;
  const usable = same && !same.disabled ? same : null;
  const target = usable ?? (myTurn ? firstLegalControl(root) : null) ?? statusRegion(root);
  target?.focus({ preventScroll: true });
}
