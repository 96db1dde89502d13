"""[issue 14] A seat's `passed` flag means "passed for good in THIS battle" (protocol.md): once a
battle is over it must not be carried into the steps before the next one (the region choice,
the hand-discard question, the keep step, the draws), where the board showed the previous
battle's "passed" badges next to the new contested region."""

import random

from games.engine import apply_action, legal_actions, new_game, view_for

BATTLE_PHASES = ("battle", "final_battle")


def views_of_random_games(players, seeds):
    """Every spectator view along random games from fixed seeds."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, seed=seed, first=seed % players)
        while legal_actions(state):
            yield view_for(state, None)
            state = apply_action(state, rng.choice(legal_actions(state)))


def test_nobody_shows_as_passed_outside_a_battle():
    between = 0
    for view in views_of_random_games(3, range(40)):
        if view["phase"] in BATTLE_PHASES:
            continue
        between += 1
        assert not any(player["passed"] for player in view["players"]), view["phase"]
    assert between > 100  # the random games did reach the steps between battles


def test_a_new_battle_starts_with_only_the_seats_without_cards_passed():
    started = 0
    previous = None
    for view in views_of_random_games(4, range(20)):
        if view["phase"] == "battle" and previous is not None and previous["phase"] != "battle":
            started += 1
            for player in view["players"]:
                # Passing is a move of this battle: before anyone moved, only an empty hand passes.
                assert player["passed"] == (player["hand_size"] == 0 and not player["line"])
        previous = view
    assert started > 20
