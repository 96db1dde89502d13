"""Bots that play Condottiere from a seat's view only (`view_for(state, seat)`), never a full state.

bot = make_bot("hard", seed=1, time_limit=1.5)
action = bot.choose(view)          # one of view["legal_actions"]
"""

from .levels import LEVEL_LABELS, LEVELS
from .random_bot import RandomBot

__all__ = ["LEVELS", "LEVEL_LABELS", "make_bot"]


def make_bot(level: str, *, seed=None, iterations=None, time_limit=None):
    """A bot of the given level; `iterations`/`time_limit` bound each decision of search bots."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomBot(seed)
    raise NotImplementedError(f"the {level!r} bot is not written yet")
