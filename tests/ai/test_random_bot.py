"""The random bot: legal, reproducible, and blind to anything but the view's legal actions."""

import ai

ACTIONS = [{"type": "pass"}, {"type": "play", "card": "m1"}, {"type": "play", "card": "m10"}]


def test_it_picks_one_of_the_legal_actions():
    bot = ai.make_bot("random", seed=1)
    for turn in range(30):
        view = {"legal_actions": ACTIONS, "turn": turn}
        assert bot.choose(view) in ACTIONS


def test_the_same_view_and_seed_give_the_same_action():
    view = {"legal_actions": ACTIONS, "hand": ["m1", "m10"]}
    choices = {str(ai.make_bot("random", seed=5).choose(view)) for _ in range(5)}
    assert len(choices) == 1


def test_different_views_spread_over_the_actions():
    bot = ai.make_bot("random", seed=0)
    picked = {bot.choose({"legal_actions": ACTIONS, "n": n})["type"] for n in range(50)}
    assert picked == {"pass", "play"}


def test_levels_are_ordered_and_labelled():
    assert ai.LEVELS[0] == "random"
    assert set(ai.LEVEL_LABELS) == set(ai.LEVELS)
