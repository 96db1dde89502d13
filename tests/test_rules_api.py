"""games.rules_api: both games played to their end through the one interface, and the
Condottiere adapter changing nothing of the engine's games (same states, same views)."""

import json
import random

import pytest

import games.engine as condottiere
from games.rules_api import CONDOTTIERE, RENAISSANCE, RULESETS, ruleset

GAMES_PER_COUNT = 2


def play_random(rules, players, seed):
    """A uniformly random game through the interface only; (final state, actions played).
    Every acting seat may be the one to move (the vote is simultaneous)."""
    rng = random.Random(seed)
    state = rules.new_game(players, seed=seed)
    actions = 0
    while not rules.is_terminal(state):
        seats = sorted(rules.acting_seats(state))
        assert seats, "a game not over must have a seat to act"
        seat = rng.choice(seats)
        legal = rules.legal_actions(state, seat)
        assert legal, f"acting seat {seat} has no legal action"
        assert rules.view_for(state, seat)["legal_actions"] == legal
        state = rules.apply_action(state, seat, rng.choice(legal))
        actions += 1
        assert actions < 5_000, "a random game should end well before this"
    return state, actions


def test_the_two_games_are_known_by_name():
    assert ruleset("condottiere") is CONDOTTIERE
    assert ruleset("renaissance") is RENAISSANCE
    assert set(RULESETS) == {"condottiere", "renaissance"}
    with pytest.raises(ValueError, match="unknown game"):
        ruleset("chess")


@pytest.mark.parametrize("name", ["condottiere", "renaissance"])
def test_random_games_end_with_scores_and_winners_through_the_interface(name):
    rules = ruleset(name)
    for players in rules.players:
        for seed in range(GAMES_PER_COUNT):
            state, actions = play_random(rules, players, seed)
            assert actions > 0
            assert rules.acting_seats(state) == frozenset()
            winners = rules.winners(state)
            assert winners and set(winners) <= set(range(players))
            scores = rules.scores(state)
            assert len(scores) == players
            if name == "renaissance":  # the most Renaissance Points win (then tie-breaks)
                assert all(scores[seat] == max(scores) for seat in winners)
            assert rules.from_json(rules.to_json(state)) == state


@pytest.mark.parametrize("name", ["condottiere", "renaissance"])
def test_only_an_acting_seat_may_act_and_a_refusal_changes_nothing(name):
    rules = ruleset(name)
    state = rules.new_game(3, seed=5)
    idle = next(seat for seat in range(3) if seat not in rules.acting_seats(state))
    acting = min(rules.acting_seats(state))
    action = rules.legal_actions(state, acting)[0]
    before = rules.to_json(state)
    assert rules.legal_actions(state, idle) == []
    with pytest.raises(rules.illegal):
        rules.apply_action(state, idle, action)
    with pytest.raises(ValueError):  # every refusal is a ValueError, for callers of either game
        rules.apply_action(state, acting, {"type": "no such action"})
    assert rules.to_json(state) == before


@pytest.mark.parametrize("name", ["condottiere", "renaissance"])
def test_determinize_is_consistent_with_the_view(name):
    rules = ruleset(name)
    state = rules.new_game(4, seed=3)
    rng = random.Random(3)
    for _ in range(60):  # into the first battles
        seat = min(rules.acting_seats(state))
        state = rules.apply_action(state, seat, rng.choice(rules.legal_actions(state, seat)))
    seat = min(rules.acting_seats(state))
    view = rules.view_for(state, seat)
    assert rules.view_for(rules.determinize(view, random.Random(1)), seat) == view


def test_the_condottiere_adapter_plays_the_engines_very_games():
    """Same seeds and choices: every state, view and legal list equal the engine's own."""
    for players in (2, 4, 6):
        for seed in range(2):
            options = {"first": seed % players, "hidden_cards": bool(seed)}
            direct = condottiere.new_game(
                players,
                seed=seed,
                options=condottiere.Options(hidden_cards=bool(seed)),
                first=seed % players,
            )
            adapted = CONDOTTIERE.new_game(players, seed=seed, options=options)
            rng = random.Random(seed)
            while True:
                assert adapted == direct
                for seat in [*range(players), None]:
                    assert CONDOTTIERE.view_for(adapted, seat) == condottiere.view_for(direct, seat)
                if condottiere.is_terminal(direct):
                    break
                seat = condottiere.current_player(direct)
                assert CONDOTTIERE.acting_seats(adapted) == {seat}
                legal = condottiere.legal_actions(direct)
                assert CONDOTTIERE.legal_actions(adapted, seat) == legal
                action = rng.choice(legal)
                direct = condottiere.apply_action(direct, action)
                adapted = CONDOTTIERE.apply_action(adapted, seat, json.loads(json.dumps(action)))
            assert CONDOTTIERE.winners(adapted) == condottiere.winners(direct)
            assert CONDOTTIERE.scores(adapted) == condottiere.match_points(direct)
            assert CONDOTTIERE.to_json(adapted) == direct.to_json()


def test_renaissance_table_options_are_stored_the_same_way_for_the_same_rules():
    """With four players and no scenario Naples leaves unless told otherwise: a table that
    says nothing and one that says Naples have the same rules, so they store the same options."""
    normalize = RENAISSANCE.normalize_options
    assert normalize({}, 4) == normalize({"remove": "naples"}, 4) == {"remove": "naples"}
    assert normalize({"remove": "milan"}, 4) == {"remove": "milan"}
    assert normalize({"scenario": "1494"}, 4) == {"scenario": "1494"}
    assert normalize({}, 5) == {}
    with pytest.raises(ValueError):
        normalize({"remove": "milan"}, 5)
