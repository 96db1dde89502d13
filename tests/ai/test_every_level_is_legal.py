"""Every level answers every kind of decision with one of the view's legal actions, within its
budget, over positions from random games of every option combination."""

import time

import pytest

import ai
from games.engine import Options
from tests.ai.positions import random_game_views, sample_views

SEARCH_ITERATIONS = 30
KINDS = (
    "choose_region",
    "battle",
    "discard_hand",
    "keep",
    "draw",
    "final_battle",
    "defender",
    "hidden_card",
    "bishop",
    "scarecrow",
)


@pytest.fixture(scope="module")
def views_by_kind():
    found = sample_views(per_kind=6, games_per_combination=3, seed=3)
    # The final battle is rare in random games; look further until a few are found.
    seed = 100
    while len(found.get("final_battle", [])) < 3 and seed < 400:
        for view in random_game_views(2 + seed % 5, Options(), seed):
            if view["phase"] == "final_battle":
                found.setdefault("final_battle", []).append(view)
        seed += 1
    return found


def test_the_sample_covers_every_kind_of_decision(views_by_kind):
    assert set(KINDS) <= set(views_by_kind)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_each_level_returns_a_legal_action_for_every_kind(level, views_by_kind):
    bot = ai.make_bot(level, seed=4, iterations=SEARCH_ITERATIONS)
    for kind in KINDS:
        for view in views_by_kind[kind]:
            action = bot.choose(view)
            assert action in view["legal_actions"], (level, kind, action)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_time_budget_is_respected(level, views_by_kind):
    # Without the clock these levels' iteration caps (6,000 each) take seconds;
    # the slack covers a busy shared machine and the expert's worker processes starting.
    bot = ai.make_bot(level, seed=1, time_limit=0.1)
    for view in views_by_kind["battle"][:3]:
        started = time.perf_counter()
        assert bot.choose(view) in view["legal_actions"]
        assert time.perf_counter() - started < 0.1 + 2.0
        if level == "hard":
            assert 0 < bot.last_iterations < bot.iterations


def test_a_bot_refuses_a_view_with_nothing_to_decide(views_by_kind):
    view = dict(views_by_kind["battle"][0], legal_actions=[])
    for level in ai.LEVELS:
        with pytest.raises(ValueError):
            ai.make_bot(level, seed=0, iterations=5).choose(view)


def test_unknown_levels_are_rejected():
    with pytest.raises(ValueError):
        ai.make_bot("grandmaster")
