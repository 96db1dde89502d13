"""Bots for Renaissance (games.renaissance): random, easy (the heuristic with mistakes) and an
honest heuristic bot.

All see only `view_for(state, seat)` of their own seat (and the printed board). Make one with
`make_bot(level, seed=...)` for any of the site's levels (`LEVEL_BOTS` says which bot plays it);
each has `choose(view) -> action` and `answer_offer(view) -> answer or None` for the diplomacy
offers made to its seat (`offers_waiting(view)` says whether one waits). docs/ai.md describes
them.
"""

from .heuristic import HeuristicBot
from .levels import EASY_MISTAKES, LEVEL_BOTS, LEVELS
from .offers import offers_waiting
from .random_bot import RandomBot


def make_bot(level: str, *, seed=None):
    """The Renaissance bot that plays `level`: one of the site's levels (ai.LEVELS, mapped by
    LEVEL_BOTS) or, what is the same for them, one of the bots of LEVELS."""
    bot = LEVEL_BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVEL_BOTS)}")
    if bot == "random":
        return RandomBot(seed)
    if bot == "easy":
        return HeuristicBot(seed, mistakes=EASY_MISTAKES)
    return HeuristicBot(seed)


__all__ = [
    "EASY_MISTAKES",
    "LEVELS",
    "LEVEL_BOTS",
    "HeuristicBot",
    "RandomBot",
    "make_bot",
    "offers_waiting",
]
