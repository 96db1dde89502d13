// The log's last line once a game is won: "Red wins the game (by adjacent regions)". Read from the
// game's result (its winners and the engine's `reason`: adjacency, total, most_regions or
// final_battle), so the live table and the replay's last step say it alike.

import { seatName } from "./i18n.js";

export function winLine(game, t) {
  const winners = game?.status === "finished" ? (game.result?.winners ?? []) : [];
  if (!winners.length) return null;
  const reason = game.result.reason;
  const how = reason ? t.log(`won_by_${reason}`) : "";
  const names = winners.map((seat) => seatName(t, game, seat));
  const text =
    winners.length === 1
      ? t.log("game_won", { player: names[0], how })
      : t.log("game_won_shared", { players: names.join(", "), how });
  return { text, seat: winners.length === 1 ? winners[0] : null, kind: "game_won", key: "won" };
}
