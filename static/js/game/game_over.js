// The end of a game: Rematch, New game, Lobby and Replay. Drawn from the state frame as soon as
// it says the game is over, so every seat and spectator gets them live, without a reload. The
// page's [data-game-over] box carries the URLs, the words and a CSRF token (the same for every
// visitor: who may ask for a rematch is read from the frame, and checked again by the server).
// A game of a match adds the match's standings and "Ready for the next game" (match.js).

import { showMatch } from "./match.js";

function link(href, text, focusKey, secondary = true) {
  const anchor = document.createElement("a");
  anchor.className = `button${secondary ? " button--secondary" : ""}`;
  anchor.href = href;
  anchor.textContent = text;
  anchor.dataset.focusKey = focusKey;
  return anchor;
}

function rematchForm(box) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = box.dataset.rematchUrl;
  form.className = "inline-form";
  const token = box.querySelector("input[name=csrfmiddlewaretoken]");
  if (token) form.append(token.cloneNode());
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "button";
  button.dataset.focusKey = "rematch";
  button.textContent = box.dataset.labelRematch;
  form.append(button);
  return form;
}

// The table form filled in with this game's settings: the viewer's seat is theirs again, the
// bots come back at their levels and the other seats are open (Rematch is the way to ask the
// same people).
export function newGameQuery(game) {
  const query = new URLSearchParams({ players: String(game.players) });
  if (game.turn_seconds) query.set("turn_seconds", String(game.turn_seconds));
  for (const [name, on] of Object.entries(game.options ?? {})) if (on) query.set(name, "on");
  for (const seat of game.seats ?? []) {
    const kind = seat.you ? "me" : seat.kind === "bot" ? "bot" : "open";
    query.set(`seat_${seat.index}_kind`, kind);
    if (kind === "bot" && seat.level) query.set(`seat_${seat.index}_level`, seat.level);
  }
  return query.toString();
}

export function renderGameOver(root, game) {
  const box = root.querySelector("[data-game-over]");
  if (!box || !game) return;
  const finished = game.status === "finished";
  const over = finished || game.status === "aborted";
  box.hidden = !over;
  // Drawn once per outcome: redrawing on every frame would take the keyboard focus away.
  if (!over || box.dataset.drawn === game.status) return;
  box.dataset.drawn = game.status;
  const seated = (game.seats ?? []).some((seat) => seat.you);
  const controls = document.createElement("div");
  controls.className = "prompt__choices";
  if (finished && seated) controls.append(rematchForm(box));
  controls.append(link(`${box.dataset.newGameUrl}?${newGameQuery(game)}`, box.dataset.labelNewGame, "new-game", finished && seated));
  controls.append(link(box.dataset.lobbyUrl, box.dataset.labelLobby, "lobby"));
  if (finished) controls.append(link(box.dataset.replayUrl, box.dataset.labelReplay, "replay"));
  box.querySelector("[data-game-over-controls]").replaceChildren(controls);
  if (finished) showMatch(box, game.id);
}
