"""Bots for Renaissance (games.renaissance): a random bot and an honest heuristic bot.

Both see only `view_for(state, seat)` of their own seat (and the printed board). Make one with
`make_bot(level, seed=...)`; each has `choose(view) -> action`. docs/ai.md describes them.
"""

from .heuristic import HeuristicBot
from .random_bot import RandomBot

LEVELS = ("random", "heuristic")


def make_bot(level: str, *, seed=None):
    """A Renaissance bot of the given level ("random" or "heuristic")."""
    if level == "random":
        return RandomBot(seed)
    if level == "heuristic":
        return HeuristicBot(seed)
    raise ValueError(f"unknown Renaissance bot {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "HeuristicBot", "RandomBot", "make_bot"]
