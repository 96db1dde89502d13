"""Invariants over random games: 2–6 players, every combination of the four optional rules.

The budget is ENGINE_PROPERTY_GAMES (see helpers.property_games): the default keeps this file
well under a minute on one core; CI may raise it.
"""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DECK,
    REGIONS,
    GameState,
    IllegalAction,
    Options,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)

from .helpers import (
    PASS,
    counted_cards,
    every_nth,
    play_random_game,
    property_games,
    visible_cards,
)

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
PLAYERS = st.integers(min_value=2, max_value=6)
OPTIONS = st.builds(Options, st.booleans(), st.booleans(), st.booleans(), st.booleans())
MAX_ACTIONS = 20000
CARD_KINDS = sorted(set(DECK))


def _games(share):
    return settings(max_examples=property_games(share), deadline=None)


@_games(1.0)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_random_games_end_with_winners(players, options, seed, choices):
    state, actions = play_random_game(players, seed, options, choices, max_actions=MAX_ACTIONS)
    assert is_terminal(state)
    assert winners(state), "a finished game has at least one winner"
    assert set(winners(state)) <= set(range(players))
    assert current_player(state) is None
    assert legal_actions(state) == []


def _check_invariants(state):
    view = view_for(state, None)
    assert counted_cards(state) == 110, "deck + hands + lines + discard pile must be 110"
    seen = Counter(visible_cards(state))
    assert not seen - Counter(DECK), f"cards seen more often than the deck holds: {seen}"
    assert json.loads(json.dumps(view)) == view, "a view must be plain JSON"
    if is_terminal(state):
        assert legal_actions(state) == [] and current_player(state) is None
        return
    seat = current_player(state)
    actions = legal_actions(state)
    assert actions, "the current player always has a legal action"
    keys = [json.dumps(a, sort_keys=True) for a in actions]
    assert len(keys) == len(set(keys)), "legal_actions lists no duplicates"
    own = view_for(state, seat)
    assert json.loads(json.dumps(own)) == own
    assert own["legal_actions"] == actions
    if view["phase"] in ("battle", "final_battle"):
        assert own["players"][seat]["hand_size"] > 0, "a player with no cards is never asked"


@_games(0.04)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_cards_are_conserved_and_the_current_player_can_always_act(players, options, seed, choices):
    play_random_game(players, seed, options, choices, on_state=every_nth(_check_invariants, 2))


def _apply_every_legal_action(state):
    for action in legal_actions(state):
        after = apply_action(state, action)
        assert isinstance(after, GameState)


@_games(0.04)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_every_legal_action_applies(players, options, seed, choices):
    play_random_game(players, seed, options, choices, on_state=_apply_every_legal_action)


def _illegal_candidates(state):
    """Actions that must all be refused in ``state``: malformed, wrong types, cards not held,
    regions not free, amounts out of range."""
    yield from (None, "pass", 42, ["pass"], {}, {"type": "fly"}, {"type": 3})
    yield from ({"type": "play"}, {"type": "play", "card": "joker"}, {"type": "play", "card": 5})
    yield {"type": "pass", "please": True}
    yield from ({"type": "choose_region", "region": "Atlantis"}, {"type": "choose_region"})
    yield from ({"type": "draw", "count": 4}, {"type": "draw", "count": -1})
    yield {"type": "draw", "count": "2"}
    yield {"type": "keep", "cards": ["m1", "m1", "m1"]}
    yield {"type": "discard_hand", "discard": "yes"}
    seat = current_player(state)
    if seat is None:
        yield PASS
        yield {"type": "choose_region", "region": REGIONS[0]}
        return
    view = view_for(state, seat)
    for action in legal_actions(state):
        yield {**action, "extra": 1}
    held = set(view["hand"])
    for card in CARD_KINDS:
        if card not in held:
            yield {"type": "play", "card": card}
            yield {"type": "play", "card": card, "take": None, "pope": None}
    for region, owner in view["owners"].items():
        if owner == seat:
            yield {"type": "choose_region", "region": region}
    if view["pope"] is not None:
        yield {"type": "choose_region", "region": view["pope"]}


def _assert_refused(state, action):
    before = state.to_json()
    try:
        apply_action(state, action)
    except IllegalAction as error:
        assert str(error), "an IllegalAction says why"
    else:
        raise AssertionError(f"{action!r} was accepted in phase {view_for(state, None)['phase']}")
    assert state.to_json() == before, "a refused action leaves the state unchanged"


def _check_illegal_actions(state):
    legal = legal_actions(state)
    for action in _illegal_candidates(state):
        if action not in legal:
            _assert_refused(state, action)


@_games(0.03)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_illegal_actions_raise_and_leave_the_state_unchanged(players, options, seed, choices):
    assert issubclass(IllegalAction, ValueError)
    # Each state costs dozens of refused actions: sample one state in 8 (and the final one).
    check = every_nth(_check_illegal_actions, 8)
    play_random_game(players, seed, options, choices, on_state=check)


@_games(0.15)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_replaying_the_seed_and_the_actions_gives_an_identical_state(
    players, options, seed, choices
):
    final, actions = play_random_game(players, seed, options, choices)
    replay = new_game(players, seed=seed, options=options, first=seed % players)
    for action in actions:
        replay = apply_action(replay, action)
    assert replay == final
    assert replay.to_json() == final.to_json()


def _check_round_trip(state):
    text = state.to_json()
    assert isinstance(text, str)
    back = GameState.from_json(text)
    assert back == state
    assert back.to_json() == text
    assert legal_actions(back) == legal_actions(state)
    for seat in [None, *range(len(view_for(state, None)["players"]))]:
        assert view_for(back, seat) == view_for(state, seat)
    if not is_terminal(state):
        action = random.Random(text).choice(legal_actions(state))
        assert apply_action(back, action) == apply_action(state, action)


@_games(0.04)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_json_round_trip_is_lossless(players, options, seed, choices):
    play_random_game(players, seed, options, choices, on_state=every_nth(_check_round_trip, 3))


@_games(0.05)
@given(players=PLAYERS, options=OPTIONS, seed=SEEDS, choices=SEEDS)
def test_the_old_state_is_never_changed_by_apply_action(players, options, seed, choices):
    rng = random.Random(choices)
    state = new_game(players, seed=seed, options=options, first=seed % players)
    while not is_terminal(state):
        before = state.to_json()
        state_after = apply_action(state, rng.choice(legal_actions(state)))
        assert state.to_json() == before
        state = state_after
