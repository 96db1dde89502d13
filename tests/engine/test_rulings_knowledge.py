"""What every seat knows: Scarecrow take-backs, own face-down discards, what stays in view."""

import random

from games.engine import current_player, determinize, view_for

from .helpers import (
    PASS,
    act,
    bishop,
    choose,
    discard_hand,
    hand,
    line,
    play,
    public,
    run,
    scarecrow,
    start,
)


def test_a_mercenary_taken_back_by_a_scarecrow_is_known_until_played_again():
    """[ruling] A Mercenary taken back by a Scarecrow was seen by everyone: until it is played
    again, every view lists it as known to be in that hand, and `determinize` keeps it there."""
    state = start(2, [["m5", "scarecrow", "m1", "m2"], ["m3", "m4", "m6", "m1"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m5")),
        (1, play("m3")),
        (0, scarecrow("m5")),
    )
    for seat in (0, 1, None):
        assert view_for(state, seat)["players"][0]["known_hand"] == ["m5"]
    rng = random.Random(3)
    for _ in range(20):
        guess = determinize(view_for(state, 1), rng)
        assert "m5" in hand(guess, 0)
        assert view_for(guess, 1) == view_for(state, 1)
    state = run(state, (1, play("m4")), (0, play("m5")))
    for seat in (0, 1, None):
        assert view_for(state, seat)["players"][0]["known_hand"] == []


def test_own_face_down_discards_are_known_to_that_seat_and_kept_by_determinize():
    """[ruling] Cards a seat discarded face down itself (step 4, the keep-two discard) are known
    to that seat until the next reshuffle; its own view lists them, and `determinize` keeps them
    in the discard pile."""
    hands = [["m1", "heroine", "heroine", "heroine"], ["m10", "m2"], ["m3", "m4"]]
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
    )
    state = act(state, 1, choose("Milano"))
    # Every seat with cards is asked, from the token holder: seats 1 and 2 keep their Mercenary
    # (their only choice), seat 0 discards its Heroines.
    state = run(state, (1, discard_hand(False)), (2, discard_hand(False)), (0, discard_hand(True)))
    mine = view_for(state, 0)
    assert sorted(mine["own_discards"]) == ["heroine"] * 3
    assert "own_discards" not in view_for(state, None)
    assert view_for(state, 1)["own_discards"] == []
    rng = random.Random(5)
    for _ in range(20):
        guess = determinize(mine, rng)
        assert view_for(guess, 0) == mine
        # Every Heroine lies in seat 0's discard: nobody else can be holding one.
        for seat in (1, 2):
            assert "heroine" not in hand(guess, seat)


def test_bishop_scarecrow_and_surrender_go_straight_to_the_discard_pile():
    """[ruling] Bishop, Scarecrow and Surrender go straight to the discard pile when played."""
    state = start(2, [["bishop", "scarecrow", "surrender", "m1"], ["m2", "m3", "m4"]])
    state = run(state, (0, choose("Roma")), (0, bishop(None)))
    assert line(state, 0) == [] and public(state)["discards"] == ["bishop"]
    state = run(state, (1, play("m2")), (0, scarecrow(None)))
    assert line(state, 0) == [] and public(state)["discards"] == ["bishop", "scarecrow"]
    state = run(state, (1, play("m3")), (0, play("surrender")))
    assert public(state)["discards"] == ["bishop", "scarecrow", "surrender"]
    assert line(state, 0) == []


def test_battle_lines_stay_in_view_until_the_next_region_is_chosen():
    """[ruling] After a battle, the battle lines stay in view until the next region is chosen;
    meanwhile `region` is `null`. (Lines are then discarded in seat order.)"""
    state = start(2, [["m10", "m1", "m6"], ["m5", "m2", "m3"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("m5")),
        (0, play("m1")),
        (1, play("m2")),
        (0, PASS),
        (1, PASS),
    )
    view = public(state)
    assert view["region"] is None
    assert view["phase"] == "choose_region"
    assert line(state, 0) == ["m10", "m1"]
    assert line(state, 1) == ["m5", "m2"]
    assert view["owners"] == {"Roma": 0}
    state = act(state, 0, choose("Milano"))
    assert public(state)["region"] == "Milano"
    assert line(state, 0) == [] and line(state, 1) == []
    assert public(state)["discards"] == ["m10", "m1", "m5", "m2"]
    assert current_player(state) == 0
