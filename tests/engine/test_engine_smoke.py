"""Quick checks the engine author runs while building; the thorough rule tests live beside."""

import json
import random

import pytest

from games.engine import (
    DECK,
    GameState,
    IllegalAction,
    Options,
    apply_action,
    battle_strengths,
    current_player,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)
from games.engine.fast import apply_move, legal_moves

ALL_OPTIONS = [
    Options(
        draw_after_battle=bool(bits & 1),
        bigger_kingdoms=bool(bits & 2),
        capturing_regions=bool(bits & 4),
        hidden_cards=bool(bits & 8),
    )
    for bits in range(16)
]


def random_game(players, options, seed, max_actions=20000):
    rng = random.Random(seed)
    state = new_game(players, seed=seed, options=options, first=seed % players)
    actions = []
    while not is_terminal(state) and len(actions) < max_actions:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply_action(state, action)
    return state, actions


def cards_everywhere(state):
    """Every card of the full state, wherever it lies (from the secret JSON form)."""
    data = json.loads(state.to_json())
    cards = list(data["deck"]) + list(data["discards"]) + list(data["dead"])
    for seat in range(data["n"]):
        cards += [kind for kind, count in enumerate(data["hands"][seat]) for _ in range(count)]
        cards += data["lines"][seat] + data["hidden_discards"][seat]
        cards += [data["fd"][seat]] if data["fd"][seat] >= 0 else []
    return sorted(cards)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: str(o.to_bits()))
def test_random_games_end_with_winners_for_every_option_combination(options):
    for players in range(2, 7):
        state, _ = random_game(players, options, seed=players * 31 + options.to_bits())
        assert is_terminal(state)
        assert winners(state)
        assert current_player(state) is None
        assert legal_actions(state) == []


def test_the_110_cards_are_always_all_somewhere_once():
    full = cards_everywhere(new_game(4, seed=1))
    assert len(full) == 110
    rng = random.Random(3)
    for options in (ALL_OPTIONS[0], ALL_OPTIONS[15], ALL_OPTIONS[9]):
        state = new_game(5, seed=2, options=options)
        while not is_terminal(state):
            state = apply_move(state, rng.choice(legal_moves(state)))
            assert cards_everywhere(state) == full


def test_json_round_trip_is_lossless_and_replay_is_deterministic():
    options = Options(hidden_cards=True, capturing_regions=True)
    state, actions = random_game(4, options, seed=11)
    assert GameState.from_json(state.to_json()) == state
    replay = new_game(4, seed=11, options=options, first=11 % 4)
    for action in actions:
        replay = apply_action(replay, action)
    assert replay == state


def test_determinize_reproduces_every_view_along_a_game():
    rng = random.Random(5)
    state = new_game(4, seed=5, options=Options(hidden_cards=True))
    while not is_terminal(state):
        for seat in (None, 0, 1, 2, 3):
            view = view_for(state, seat)
            assert view_for(determinize(view, rng), seat) == view
        state = apply_move(state, rng.choice(legal_moves(state)))


def test_rulebook_strength_examples():
    assert battle_strengths([["m10", "m10", "m5", "m4", "winter"]]) == [4]
    assert battle_strengths([["m2", "m5", "m5"], ["m1", "m4", "heroine", "spring"]]) == [18, 15]
    assert battle_strengths([["m2", "m4", "drummer"], ["spring"]]) == [15, 0]


def test_bishop_discards_the_highest_mercenaries_and_places_the_pope():
    hands = [["m6", "m3", "m1", "m1"], ["m6", "m1", "m1", "bishop"]]
    state = new_game(2, seed=0, hands=hands, deck=[])
    state = apply_action(state, {"type": "choose_region", "region": "Milano"})
    for card in ("m6", "m6", "m3", "m1", "m1", "m1"):
        state = apply_action(state, {"type": "play", "card": card})
    state = apply_action(state, {"type": "pass"})  # a passed line is still hit by the Bishop
    state = apply_action(state, {"type": "play", "card": "bishop", "pope": "Roma"})
    view = view_for(state, 0)
    assert view["players"][0]["line"] == ["m3", "m1"]
    assert view["players"][1]["line"] == ["m1", "m1"]
    assert view["discards"] == ["m6", "m6", "bishop"]
    assert view["pope"] == "Roma"


def test_illegal_actions_raise_and_leave_the_state_alone():
    state = new_game(3, seed=4, hands=[["m1"], ["m2"], ["m3"]])
    before = state.to_json()
    for action in (
        "pass",
        {"type": "choose_region", "region": "Atlantis"},
        {"type": "choose_region"},
        {"type": "play", "card": "m1"},
        {"type": "choose_region", "region": "Roma", "extra": 1},
    ):
        with pytest.raises(IllegalAction):
            apply_action(state, action)
    assert state.to_json() == before


def test_a_waiting_defender_plays_after_everyone_passed():
    options = Options(capturing_regions=True)
    hands = [["m1", "m2"], ["m10", "m3"]]
    state = new_game(2, seed=0, options=options, hands=hands, owners={"Roma": 1}, deck=[])
    state = apply_action(state, {"type": "choose_region", "region": "Roma"})
    state = apply_action(state, {"type": "play", "card": "m2"})
    state = apply_action(state, {"type": "pass"})  # the defender waits
    assert view_for(state, 0)["players"][1]["passed"] is False
    state = apply_action(state, {"type": "pass"})  # seat 0 passes for good
    assert current_player(state) == 1
    state = apply_action(state, {"type": "play", "card": "m3"})
    state = apply_action(state, {"type": "pass"})
    view = view_for(state, 0)
    assert view["owners"]["Roma"] == 1
    assert view["last_battle"]["strengths"] == [2, 3]


def test_the_deck_is_the_110_cards():
    assert len(DECK) == 110
