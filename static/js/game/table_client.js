// Pieces both live tables share (static/js/game.js for Condottiere, static/js/renaissance.js
// for Renaissance): the connection line, the stand-in control, the kept focus key and the
// watchdog that asks for the state when the socket has gone quiet.

import { GameSocket, socketUrl } from "./socket.js";

// An action unanswered this long, or a playing game silent this long, asks for the state.
export const UNANSWERED_MS = 4000;
export const SILENT_MS = 30000;

// The words under the table for the socket's status ("" while it is open).
export function connectionText(status, word) {
  const words = { open: "", connecting: word("connecting"), gone: word("game_gone") };
  return words[status] ?? word("reconnecting");
}

// The seated player's "let a bot play for me" button and its note, while the game is playing.
// Redrawn only when it changes: a button rebuilt under a held click loses the click.
export function renderStandin(container, game, { word, send, noteClass, testid = null }) {
  const mine = game.seats?.find((seat) => seat.you);
  const drawn = mine && game.status === "playing" ? String(Boolean(mine.standin)) : "";
  if (drawn === container.dataset.drawn) return;
  container.dataset.drawn = drawn;
  if (!drawn) {
    container.replaceChildren();
    return;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button button--secondary button--small";
  button.dataset.focusKey = "standin";
  if (testid) button.dataset.testid = testid;
  button.textContent = mine.standin ? word("standin_off") : word("standin_on");
  button.addEventListener("click", () => send({ type: "standin", on: !mine.standin }));
  const note = document.createElement("span");
  note.className = noteClass;
  note.textContent = mine.standin ? word("standin_active") : "";
  container.replaceChildren(button, note);
}

// Remembers in local.focusKey the last focused control's key, so a redraw can give it back.
export function trackFocusKey(root, local) {
  root.addEventListener("focusin", (event) => {
    const key = event.target.closest?.("[data-focus-key]")?.dataset.focusKey;
    if (key) local.focusKey = key;
  });
}

// Socket messages can be lost (a dropped notice, a restarted server): ask for the state when
// an action gets no answer, or a playing game stays silent for long. `local` holds busy,
// sentAt, syncAt, lastFrameAt and frame, as both tables keep them.
export function watchdog(local, socket) {
  const now = Date.now();
  const unanswered = local.busy && now - Math.max(local.sentAt, local.syncAt) > UNANSWERED_MS;
  const playing = local.frame?.game?.status === "playing";
  const silent = playing && now - Math.max(local.lastFrameAt, local.syncAt) > SILENT_MS;
  if ((unanswered || silent) && socket.send({ type: "sync" })) local.syncAt = now;
}

// The table's socket: its status on the root (data-socket) and in the connection line, and
// local.opens counted, so that the chat's history is read again after a reconnection.
export function openTableSocket(wsPath, { root, local, connection, word, onFrame }) {
  return new GameSocket(socketUrl(wsPath), {
    onFrame,
    onStatus: (status) => {
      root.dataset.socket = status;
      if (status === "open") local.opens += 1;
      connection.textContent = connectionText(status, word);
    },
  });
}

// The socket hears the chat room from before its first state: read the room's history at the
// first state after every (re)connection (duplicates are dropped by id).
export function readChatAfterConnecting(chat, local, chatUrl) {
  if (local.chatRead === local.opens) return;
  local.chatRead = local.opens;
  chat.load(chatUrl);
}
