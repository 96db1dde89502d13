"""Making a bot of a level: the one place that knows which class plays which level, so the bot
modules need not know of one another (search/parallel.py builds on search/bot.py, and neither
imports this module). Renaissance's levels are mapped in ai/renaissance/levels.py."""

from . import renaissance
from .heuristic import HeuristicBot
from .levels import DEFAULT_BUDGETS, LEVELS, SEARCH_BATTLES, SEARCH_OPPONENTS
from .random_bot import RandomBot
from .search.bot import SearchBot
from .search.parallel import RootParallelBot

# The easy level: how often (roughly) the heuristic errs.
EASY_MISTAKES = 0.35


# The games a bot can be made for.
GAMES = ("condottiere", "renaissance")


def make_bot(level: str, *, seed=None, iterations=None, time_limit=None, game="condottiere"):
    """A bot of the given level for `game`. `iterations` and/or `time_limit` (seconds) bound
    each decision of Condottiere's search levels (defaults: `DEFAULT_BUDGETS`); the other levels
    ignore them. For Renaissance, `ai.renaissance.LEVEL_BOTS` says which of its bots plays each
    level; its search levels (medium, hard) keep their own budgets
    (ai/renaissance/search.py), `time_limit` only shortening their clock and `iterations`
    setting their rounds (a reproducible bot)."""
    if game == "renaissance":
        return renaissance.make_bot(level, seed=seed, time_limit=time_limit, rounds=iterations)
    if game != "condottiere":
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomBot(seed)
    if level == "heuristic":
        return HeuristicBot(seed)
    if level == "easy":
        return HeuristicBot(seed, mistakes=EASY_MISTAKES)
    return make_search_bot(level, seed=seed, iterations=iterations, time_limit=time_limit)


def make_search_bot(level, *, seed=None, iterations=None, time_limit=None):
    """A search bot of `level` ("medium", "hard", "expert").

    Budgets: with neither given, the level's defaults; with only `time_limit` (as the site gives
    every level the same thinking time), the level's iteration cap still applies, so `medium`
    stays quicker and weaker than `hard`; with only `iterations`, no time cap, so the bot is
    reproducible."""
    default_iterations, default_seconds = DEFAULT_BUDGETS[level]
    if iterations is None:
        iterations = default_iterations
        if time_limit is None:
            time_limit = default_seconds
    options = {
        "iterations": iterations,
        "time_limit": time_limit,
        "level": level,
        "battles": SEARCH_BATTLES[level],
        "opponents": SEARCH_OPPONENTS[level],
    }
    if level == "expert":
        return RootParallelBot(seed, **options)
    return SearchBot(seed, **options)
