// The status strip: whose turn it is, the timer, and the facts of the moment (the battle, the
// Pope, the deck).

import { seatFullName } from "./i18n.js";

export function turnText({ view, game, t, isMyTurn }) {
  if (!view) return t.ui("connecting");
  if (game?.status === "finished" || game?.status === "aborted" || view.phase === "over") {
    return t.ui("game_over");
  }
  if (isMyTurn) return t.ui("your_turn");
  if (view.current_player === null || view.current_player === undefined) return t.ui("waiting");
  const player = seatFullName(t, game, view.current_player);
  // Every seat with cards is asked in turn, so naming the one asked reveals nothing.
  if (view.phase === "discard_hand") return t.ui("discard_asked", { player });
  return t.ui("turn_of", { player });
}

export function factsText({ view, t }) {
  if (!view) return "";
  const facts = [t.phase(view.phase)];
  facts.push(view.region ? t.ui("contested", { region: t.region(view.region) }) : t.ui("no_battle"));
  facts.push(view.pope ? t.ui("pope_at", { region: t.region(view.pope) }) : t.ui("pope_off_board"));
  facts.push(t.ui("deck", { count: view.deck_size ?? 0 }));
  if (view.seat === null || view.seat === undefined) facts.push(t.ui("spectating"));
  return facts.join(" · ");
}

export function secondsLeft(deadline, now = Date.now()) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
