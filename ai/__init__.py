"""Bots that play Condottiere from a seat's view only (`view_for(state, seat)`), never a full state.

bot = make_bot("hard", seed=1, time_limit=1.5)
action = bot.choose(view)          # one of view["legal_actions"]
"""

from .levels import DEFAULT_BUDGETS, LEVEL_LABELS, LEVELS
from .random_bot import RandomBot

__all__ = ["LEVELS", "LEVEL_LABELS", "DEFAULT_BUDGETS", "make_bot"]

# The easy level: how often (roughly) the heuristic errs.
EASY_MISTAKES = 0.35


def make_bot(level: str, *, seed=None, iterations=None, time_limit=None):
    """A bot of the given level. `iterations` and/or `time_limit` (seconds) bound each decision
    of the search levels (defaults: `DEFAULT_BUDGETS`); the other levels ignore them."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomBot(seed)
    # Imported here so that the random bot works even while the engine is being rebuilt.
    from .heuristic import HeuristicBot

    if level == "heuristic":
        return HeuristicBot(seed)
    if level == "easy":
        return HeuristicBot(seed, mistakes=EASY_MISTAKES)
    from .search.bot import make_search_bot

    return make_search_bot(level, seed=seed, iterations=iterations, time_limit=time_limit)
