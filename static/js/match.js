// The match page: reloaded when the match moves on (a game ends, the next one starts, the
// result), read from its JSON every few seconds while it is being played.

const POLL_MS = 3000;
const root = document.querySelector("[data-match-root]");

function fingerprint(match) {
  return JSON.stringify([match.status, match.games.map((game) => [game.status, game.points]), match.ready, match.next_game_at]);
}

if (root && root.dataset.status === "playing") {
  let seen = null;
  const poll = async () => {
    try {
      const response = await fetch(root.dataset.matchUrl, { credentials: "same-origin" });
      const { match } = await response.json();
      const now = fingerprint(match);
      if (seen !== null && now !== seen) {
        window.location.reload();
        return;
      }
      seen = now;
    } catch {
      // offline for a moment: try again at the next tick
    }
    setTimeout(poll, POLL_MS);
  };
  poll();
}
