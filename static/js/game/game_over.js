// The end of a game: Rematch, New game, Lobby and Replay. Drawn from the state frame as soon as
// it says the game is over, so every seat and spectator gets them live, without a reload, with
// the lines a reload shows (rated or not, the analysis: end_facts.js). The page's [data-game-over]
// box carries the URLs, the words and a CSRF token (the same for every visitor: who may ask for a
// rematch is read from the frame, and checked again by the server). A game of a match shows the
// match's standings and "Ready for the next game" instead of Rematch (match.js); the offer and
// its answers are rematch.js's.

import { showEndFacts } from "./end_facts.js";
import { showMatch } from "./match.js";
import { setUpRematch } from "./rematch.js";

function link(href, text, focusKey, secondary = true) {
  const anchor = document.createElement("a");
  anchor.className = `button${secondary ? " button--secondary" : ""}`;
  anchor.href = href;
  anchor.textContent = text;
  anchor.dataset.focusKey = focusKey;
  return anchor;
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

export function renderGameOver(root, game, t) {
  const box = root.querySelector("[data-game-over]");
  if (!box || !game) return;
  const finished = game.status === "finished";
  const over = finished || game.status === "aborted";
  box.hidden = !over;
  // Drawn once per outcome: redrawing on every frame would take the keyboard focus away.
  if (!over || box.dataset.drawn === game.status) return;
  box.dataset.drawn = game.status;
  const seated = (game.seats ?? []).some((seat) => seat.you);
  showEndFacts(root, { seated });
  const controls = document.createElement("div");
  controls.className = "prompt__choices";
  controls.append(link(`${box.dataset.newGameUrl}?${newGameQuery(game)}`, box.dataset.labelNewGame, "new-game", finished && seated));
  controls.append(link(box.dataset.lobbyUrl, box.dataset.labelLobby, "lobby"));
  if (finished) controls.append(link(box.dataset.replayUrl, box.dataset.labelReplay, "replay"));
  // The match's standings and its "Ready for the next game" come first: inside a match the next
  // game is the main action. A rematch would leave the match, so only a game of no match offers
  // one (known once the match's JSON has answered).
  const matchPlace = document.createElement("div");
  matchPlace.dataset.matchBox = "";
  const rematchPlace = document.createElement("div");
  rematchPlace.className = "rematch prompt__choices";
  box.querySelector("[data-game-over-controls]").replaceChildren(matchPlace, rematchPlace, controls);
  if (!finished) return;
  showMatch(matchPlace, box, game.id).then((match) => {
    if (!match && seated) setUpRematch(rematchPlace, { box, game, t });
  });
}
