"""The computer analysis judges moves with the site's strongest one-process search (ai/analysis.py).

"Best was ..." on a replay must be the move `hard` itself would have played from that seat's
view, with the same budget and seed: otherwise the analysis would mark as mistakes moves the
site's own bot makes, or praise moves it would not make.
"""

import random

import pytest

from ai.analysis import ANALYSED_AS, SEARCH_VERSION, analyse_view, search_settings
from ai.factory import make_search_bot
from ai.search.bot import answer_without_search
from games.engine import action_to_move, determinize

from .positions import sample_views

ITERATIONS = 120


def searched_views():
    """A few decisions of each kind that the search bots really search."""
    found = sample_views(per_kind=2, games_per_combination=1, seed=11)
    return [
        view
        for views in found.values()
        for view in views
        if len(view["legal_actions"]) >= 2 and answer_without_search(view) is None
    ]


@pytest.mark.parametrize("seed", [0, 5])
def test_the_best_move_is_the_move_hard_plays_with_the_same_budget(seed):
    views = searched_views()
    assert len(views) >= 8
    for view in views:
        bot = make_search_bot(ANALYSED_AS, seed=seed, iterations=ITERATIONS)
        played = bot.choose(view)
        best = analyse_view(view, iterations=ITERATIONS, seed=seed).best
        # Any determinization will do: a move's name is public.
        state = determinize(view, random.Random(seed))
        assert action_to_move(state, best) == action_to_move(state, played), view["phase"]


# The settings of each search version (ai.analysis.SEARCH_VERSION); version 1, the one-battle
# plain tree, predates the record.
SETTINGS_OF_VERSION = {
    2: {
        "level": "hard",
        "battles": 2,
        "opponents": "heuristic",
        "exploration": 0.7,
        "value": "hand-built",
        "inference": False,
        "coalition": False,
        "confidence": 1.5,
        "heuristic_trust": 0.03,
    },
}


def test_the_search_version_names_todays_settings():
    """Analyses stored with an older version are offered again; that works only if the version
    changes whenever the search does."""
    assert search_settings() == SETTINGS_OF_VERSION.get(SEARCH_VERSION), (
        "the analysis's search changed: bump ai.analysis.SEARCH_VERSION and record its settings"
    )
