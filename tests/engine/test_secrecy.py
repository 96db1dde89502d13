"""Secrecy: a view shows a seat what it may know and nothing that reveals hidden cards."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DECK,
    Options,
    apply_action,
    current_player,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
)

from .helpers import (
    ALL_OPTIONS,
    MERCENARIES,
    PASS,
    act,
    choose,
    counted_cards,
    deck_without,
    discard_hand,
    every_nth,
    play,
    play_random_game,
    property_games,
    random_options,
    run,
    start,
    visible_cards,
)


def _strings(value):
    """Every string anywhere in a JSON value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _assert_hides(state, seats, secret_kinds):
    for seat in seats:
        view = view_for(state, seat)
        text = json.dumps(view)
        for kind in secret_kinds:
            assert f'"{kind}"' not in text, f"seat {seat}'s view shows a {kind}"
            assert kind not in set(_strings(view))


def test_two_states_differing_only_in_what_a_seat_cannot_see_give_it_the_same_view():
    """Other hands, face-down cards and the deck order are invisible to seat 0."""
    mine = ["m5", "m6", "scarecrow", "courtesan"]
    theirs_a = ["m10", "m2", "heroine", "winter"]
    theirs_b = ["m2", "m10", "drummer", "spring"]
    other = ["m3", "m3", "m4", "m4"]
    rest = deck_without(*mine, *theirs_a, *theirs_b, *other)
    deck_a = ["drummer", "spring", *rest]
    deck_b = list(reversed(rest)) + ["winter", "heroine"]
    game_a = start(3, [mine, theirs_a, other], deck=deck_a, hidden_cards=True)
    game_b = start(3, [mine, theirs_b, other], deck=deck_b, hidden_cards=True)
    script = [(0, choose("Roma")), (0, play("m5")), (1, play("m10")), (2, play("m3"))]
    alternative = [(0, choose("Roma")), (0, play("m5")), (1, play("m2")), (2, play("m3"))]
    assert view_for(game_a, 0) == view_for(game_b, 0)
    for (seat, action_a), (_, action_b) in zip(script, alternative, strict=True):
        game_a = act(game_a, seat, action_a)
        game_b = act(game_b, seat, action_b)
        assert view_for(game_a, 0) == view_for(game_b, 0)
        assert view_for(game_a, None) == view_for(game_b, None)
        assert view_for(game_a, 2) == view_for(game_b, 2)
    assert view_for(game_a, 1) != view_for(game_b, 1)


def test_a_view_never_contains_another_seats_hand_or_face_down_cards():
    """Seat 1 holds every Heroine and every Drummer; seat 0 and spectators never see either
    (Hidden Cards: a Heroine played face down stays unseen until revealed)."""
    secret = ["heroine"] * 3 + ["drummer"] * 6
    state = start(
        2,
        [["m5", "m6", "m2"], [*secret, "m1"]],
        deck=deck_without(*secret, "m1", "m5", "m6", "m2"),
        hidden_cards=True,
    )
    _assert_hides(state, (0, None), {"heroine", "drummer"})
    for seat, action in [(0, choose("Roma")), (0, play("m5")), (1, play("heroine"))]:
        state = act(state, seat, action)
        _assert_hides(state, (0, None), {"heroine", "drummer"})
    assert view_for(state, 1)["players"][1]["line"] == ["heroine"]
    state = run(state, (0, play("m6")), (1, PASS))
    _assert_hides(state, (0, None), {"heroine", "drummer"})


def test_a_hand_discarded_face_down_is_never_shown_to_the_others():
    """[ruling] A discarded hand goes face down: only the hand size going to 0 is public."""
    secret = ["drummer"] * 6
    state = start(
        2,
        [["m10", "m2"], [*secret, "m1"]],
        deck=deck_without(*secret, "m1", "m10", "m2"),
    )
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m1")))
    state = run(state, (0, PASS), (1, PASS), (0, choose("Milano")), (0, discard_hand(False)))
    assert current_player(state) == 1
    state = act(state, 1, discard_hand(True))
    _assert_hides(state, (0, None), {"drummer"})
    assert view_for(state, 0)["players"][1]["hand_size"] == 0


def _discard_steps(players, seed, options):
    """A random game's hand-discard steps, each as (expected, asked): the seats holding cards when
    the step begins, in seat order from the token holder (a function of public data only), and
    the seats the engine actually asked, as the spectator saw them. A step begins with each
    region chosen after a battle."""
    rng = random.Random(f"discard-steps:{seed}")
    state = new_game(players, seed=seed, options=options, first=seed % players)
    steps = []
    after = view_for(state, None)
    while not is_terminal(state):
        before = after
        state = apply_action(state, rng.choice(legal_actions(state)))
        after = view_for(state, None)
        if before["phase"] == "choose_region" and before["last_battle"] is not None:
            # [rules] Draw After Battle has no hand-discard step: nobody is asked.
            expected = [] if options.draw_after_battle else _holders_from_token(before)
            steps.append((expected, []))
        if after["phase"] == "discard_hand":
            asked = after["current_player"]
            steps[-1][1].append(asked)
            _assert_only_a_hand_without_mercenary_may_go(state, asked)
    return steps


def _holders_from_token(view):
    players = view["players"]
    order = [(view["condottiere"] + step) % len(players) for step in range(len(players))]
    return [seat for seat in order if players[seat]["hand_size"]]


def _assert_only_a_hand_without_mercenary_may_go(state, seat):
    holds_mercenary = any(card in MERCENARIES for card in view_for(state, seat)["hand"])
    answers = [action["discard"] for action in legal_actions(state)]
    assert sorted(answers) == ([False] if holds_mercenary else [False, True])


def test_who_is_asked_to_discard_depends_on_public_hand_sizes_only():
    """[ruling] In many random games (2 to 6 players, every option set), each hand-discard step
    asks exactly the seats holding cards, in seat order from the token holder: what the table
    sees of the step is a function of public data, so it cannot tell who holds a Mercenary.
    With Draw After Battle there is no such step."""
    option_sets = [
        Options(**{name: bool(bits >> i & 1) for i, name in enumerate(ALL_OPTIONS)})
        for bits in range(1 << len(ALL_OPTIONS))
    ]
    asked_steps = 0
    for options in option_sets:
        for players in range(2, 7):
            for seed in (players, 100 + players):
                for expected, asked in _discard_steps(players, seed, options):
                    assert asked == expected, (players, seed, options)
                    asked_steps += bool(asked)
    assert asked_steps > 100


def _check_determinize(state):
    players = len(view_for(state, None)["players"])
    rng = random.Random(counted_cards(state) + len(state.to_json()))
    for seat in [None, *range(players)]:
        view = view_for(state, seat)
        guess = determinize(view, rng)
        assert view_for(guess, seat) == view
        assert counted_cards(guess) == 110
        assert not Counter(visible_cards(guess)) - Counter(DECK)
        if seat is not None and seat == current_player(state):
            assert legal_actions(guess) == legal_actions(state)
        assert is_terminal(guess) == is_terminal(state)


@settings(max_examples=property_games(0.04), deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1))
def test_determinize_is_consistent_with_every_view(players, seed):
    """view_for(determinize(view, rng), seat) == view, for every seat and a spectator."""
    options = random_options(random.Random(seed))
    play_random_game(players, seed, options, seed + 1, on_state=every_nth(_check_determinize, 5))


def test_determinize_draws_different_worlds_with_the_same_view():
    """Two determinizations of one view differ in hidden cards yet show the seat the same."""
    state = start(4, [["m1", "m2"], ["m3", "m4"], ["m5", "m6"], ["m10", "m1"]], seed=9)
    view = view_for(state, 0)
    worlds = [determinize(view, random.Random(i)) for i in range(8)]
    assert all(view_for(world, 0) == view for world in worlds)
    others = {tuple(sorted(view_for(world, 1)["hand"])) for world in worlds}
    assert len(others) > 1, "the hidden hands are drawn at random"
