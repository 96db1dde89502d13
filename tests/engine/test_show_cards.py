"""Showing cards ("They may show each other their cards, but may not exchange cards"): the
shown cards are in the viewer's view until played, discarded or the round ends; `determinize`
for that viewer keeps them in that hand; bad shows are refused, changing nothing."""

import random

import pytest

from games.engine import (
    GameState,
    IllegalShow,
    apply_action,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
    show_cards,
    view_for,
)
from games.engine.record import replay

from .helpers import PASS, choose, discard_hand, hand, play, run, start

HANDS = [["m1", "m1", "m10", "winter", "heroine"], ["m2", "m3", "spring"], ["m4", "m5", "m6"]]


def shown(state, viewer, owner):
    return view_for(state, viewer)["players"][owner]["shown_to_you"]


def test_the_recipient_sees_the_shown_cards_and_nobody_else_does():
    state = start(3, HANDS)
    after = show_cards(state, 0, 1, ["m10", "m1"])
    assert shown(after, 1, 0) == ["m1", "m10"]
    assert shown(after, 2, 0) == []
    assert shown(after, None, 0) == []
    assert view_for(after, 0)["shown_by_you"] == [{"to": 1, "cards": ["m1", "m10"]}]
    assert "shown_by_you" not in view_for(after, None)
    # Nothing else changes: the same turn, the same hands; the old state is untouched.
    assert view_for(after, 0)["legal_actions"] == view_for(state, 0)["legal_actions"]
    assert shown(state, 1, 0) == []


def test_a_show_to_everyone_reaches_every_other_seat_and_any_seat_may_show_out_of_turn():
    state = start(3, HANDS)
    after = show_cards(state, 2, None, ["m6"])  # seat 0 is to act
    assert shown(after, 0, 2) == ["m6"] and shown(after, 1, 2) == ["m6"]
    assert view_for(after, 2)["shown_by_you"] == [
        {"to": 0, "cards": ["m6"]},
        {"to": 1, "cards": ["m6"]},
    ]


def test_showing_again_is_a_union_not_a_sum():
    state = start(3, HANDS)
    state = show_cards(state, 0, 1, ["m1"])
    state = show_cards(state, 0, 1, ["m1", "winter"])
    assert shown(state, 1, 0) == ["m1", "winter"]
    state = show_cards(state, 0, 1, ["m1", "m1"])
    assert shown(state, 1, 0) == ["m1", "m1", "winter"]


def test_a_card_played_face_up_leaves_the_shown_set():
    state = show_cards(start(3, HANDS), 0, 1, ["m1", "m10"])
    state = run(state, (0, choose("Roma")), (0, play("m10")))
    assert shown(state, 1, 0) == ["m1"]
    # Playing an m1 while holding two: the viewer cannot tell which one, so it is forgotten.
    state = run(state, (1, play("m2")), (2, play("m4")), (0, play("m1")))
    assert shown(state, 1, 0) == []


def test_a_face_down_play_forgets_everything_that_seat_showed():
    state = start(3, HANDS, hidden_cards=True)
    state = show_cards(state, 0, 1, ["m10", "winter"])
    state = run(state, (0, choose("Roma")), (0, play("heroine")))
    assert shown(state, 1, 0) == []  # removing only the Heroine would reveal the face-down card


def test_a_discarded_hand_and_the_end_of_the_round_forget_the_shows():
    hands = [["m1", "heroine", "heroine"], ["m10", "m2"], ["m3", "m4"]]
    state = start(3, hands)
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m1")),
        (1, play("m10")),
        (2, play("m3")),
        (0, PASS),
        (1, PASS),
        (2, PASS),
        (1, choose("Milano")),
    )
    state = show_cards(state, 0, 2, ["heroine"])
    state = show_cards(state, 1, 2, ["m2"])
    assert shown(state, 2, 0) == ["heroine"]
    state = run(state, (1, discard_hand(False)), (2, discard_hand(False)), (0, discard_hand(True)))
    assert shown(state, 2, 0) == []  # discarded
    assert shown(state, 2, 1) == ["m2"]  # still in hand


def test_the_end_of_a_round_forgets_every_show():
    hands = [["m1", "m2"], ["m3"]]
    state = show_cards(start(2, hands), 0, 1, ["m2"])
    state = run(state, (0, choose("Roma")), (0, play("m1")), (1, play("m3")), (0, PASS))
    # Seat 1 won Roma; seat 0 alone has cards (a Mercenary: it keeps its hand), then keeps it.
    state = run(state, (1, choose("Milano")), (0, discard_hand(False)))
    assert view_for(state, None)["phase"] == "keep"
    assert shown(state, 1, 0) == ["m2"]
    state = run(state, (0, {"type": "keep", "cards": ["m2"]}))
    assert shown(state, 1, 0) == []
    assert "m2" in hand(state, 0)  # kept, but the new round's hand is not the shown one


def test_determinize_keeps_the_shown_cards_in_that_hand():
    state = show_cards(start(3, HANDS), 0, 1, ["m10", "heroine"])
    view = view_for(state, 1)
    rng = random.Random(7)
    for _ in range(50):
        guess = determinize(view, rng)
        assert view_for(guess, 1) == view
        assert {"m10", "heroine"} <= set(hand(guess, 0))
    # The viewer's own shows are kept too (its view says what it showed).
    mine = view_for(show_cards(state, 1, 2, ["spring"]), 1)
    assert view_for(determinize(mine, rng), 1) == mine


def test_determinize_for_another_viewer_ignores_a_show_it_did_not_see():
    state = show_cards(start(3, HANDS), 0, 1, ["m10"])
    view = view_for(state, 2)
    rng = random.Random(11)
    held = sum("m10" in hand(determinize(view, rng), 0) for _ in range(200))
    assert held < 150  # seat 2 does not know: seat 0 holds the m10 only by chance (~5 in 10)


@pytest.mark.parametrize(
    ("seat", "to", "cards", "code"),
    [
        (0, 1, ["spring"], "not_in_hand"),
        (0, 1, ["m1", "m1", "m1"], "not_in_hand"),
        (0, 0, ["m1"], "self"),
        (0, 3, ["m1"], "target"),
        (0, True, ["m1"], "target"),
        (0, 1, [], "cards"),
        (0, 1, "m1", "cards"),
        (0, 1, ["joker"], "cards"),
        (5, 1, ["m1"], "seat"),
    ],
)
def test_bad_shows_are_refused_with_a_reason_and_change_nothing(seat, to, cards, code):
    state = start(3, HANDS)
    before = state.to_json()
    with pytest.raises(IllegalShow) as refused:
        show_cards(state, seat, to, cards)
    assert refused.value.code == code
    assert str(refused.value)
    assert state.to_json() == before


def test_no_show_after_the_game_is_over():
    state, rng = new_game(2, seed=3), random.Random(3)
    while not is_terminal(state):
        state = apply_action(state, rng.choice(legal_actions(state)))
    with pytest.raises(IllegalShow) as refused:
        show_cards(state, 0, 1, ["m10"])
    assert refused.value.code == "over"


def test_a_state_with_shows_round_trips_and_one_without_keeps_its_old_json():
    state = start(3, HANDS)
    assert '"shown"' not in state.to_json()  # stored games from before shows load and compare
    after = show_cards(state, 0, None, ["winter"])
    assert GameState.from_json(after.to_json()) == after


def test_a_replayed_log_applies_shows_from_any_seat():
    deal = replay(3, 1, start(3, HANDS).options, 0, [])[0]
    first, second = view_for(deal, 2)["hand"][:1], view_for(deal, 1)["hand"][:2]
    moves = [
        (2, {"type": "show", "to": 0, "cards": first}),
        (0, choose("Roma")),
        (1, {"type": "show", "to": None, "cards": second}),
    ]
    states = replay(3, 1, deal.options, 0, moves)
    assert shown(states[-1], 0, 2) == first
    assert shown(states[-1], 2, 1) == second == shown(states[-1], 0, 1)
