"""Bots for Renaissance (games.renaissance): random, easy (the heuristic with mistakes), an
honest heuristic bot, and the search bot of the levels medium and hard (search.py).

All see only `view_for(state, seat)` of their own seat (and the printed board). Make one with
`make_bot(level, seed=...)` for any of the site's levels (`LEVEL_BOTS` says which bot plays it);
each has `choose(view) -> action` and `answer_offer(view) -> answer or None` for the diplomacy
offers made to its seat (`offers_waiting(view)` says whether one waits). docs/ai.md describes
them.
"""

from dataclasses import replace

from .heuristic import HeuristicBot
from .levels import EASY_MISTAKES, LEVEL_BOTS, LEVELS, SEARCH_LEVELS
from .offers import offers_waiting
from .random_bot import RandomBot
from .search import BUDGETS, RenaissanceSearchBot


def make_bot(level: str, *, seed=None, time_limit=None, rounds=None):
    """The Renaissance bot that plays `level`: one of the site's levels (ai.LEVELS, mapped by
    LEVEL_BOTS) or, what is the same for them, one of the bots of LEVELS.

    The search levels think within their budget (search.BUDGETS); `time_limit` (seconds, the
    site's thinking time) can only shorten the level's clock, so `medium` stays cheaper than
    `hard` whatever the site allows; `rounds` sets the rounds and removes the clock (a
    reproducible bot, for tests). The other levels ignore both."""
    bot = LEVEL_BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVEL_BOTS)}")
    if bot == "random":
        return RandomBot(seed)
    if bot == "easy":
        return HeuristicBot(seed, mistakes=EASY_MISTAKES)
    if bot in SEARCH_LEVELS:
        return RenaissanceSearchBot(seed, level=bot, budget=search_budget(bot, time_limit, rounds))
    return HeuristicBot(seed)


def search_budget(level: str, time_limit=None, rounds=None):
    """The level's budget, its clock shortened to `time_limit` or replaced by `rounds`."""
    budget = BUDGETS[level]
    if rounds is not None:
        return replace(budget, seconds=None, rounds=rounds)
    if time_limit is not None:
        return replace(budget, seconds=min(budget.seconds, time_limit))
    return budget


__all__ = [
    "EASY_MISTAKES",
    "LEVELS",
    "LEVEL_BOTS",
    "SEARCH_LEVELS",
    "HeuristicBot",
    "RandomBot",
    "RenaissanceSearchBot",
    "make_bot",
    "offers_waiting",
]
