"""Battle flow: region choice, turns, passing, ties, the after-battle steps, rounds, dealing."""

from collections import Counter

import pytest

from games.engine import (
    REGIONS,
    IllegalAction,
    apply_action,
    current_player,
    legal_actions,
    view_for,
)

from .helpers import (
    PASS,
    act,
    choose,
    discard_hand,
    hand,
    hand_sizes,
    keep,
    line,
    owners,
    phase,
    play,
    public,
    run,
    sorted_actions,
    start,
    token,
)


def test_token_holder_places_the_token_on_a_free_region_and_plays_first():
    """[rules] The token holder places the token on a region with no control marker and no Pope
    token (it may be the region of a battle just tied) and plays first; then clockwise (seat
    order), skipping players who passed."""
    state = start(3, [["m1", "m2"], ["m1", "m2"], ["m1", "m2"]], owners={"Roma": 1}, first=1)
    assert current_player(state) == 1
    assert phase(state) == "choose_region"
    assert {a["region"] for a in legal_actions(state)} == set(REGIONS) - {"Roma"}
    state = run(state, (1, choose("Siena")), (1, play("m1")), (2, PASS), (0, play("m1")))
    # Seat 2 passed: it is skipped from now on.
    state = run(state, (1, PASS), (0, PASS))
    # 1 against 1: a tie, no marker; the token goes left of seat 1, to seat 2.
    assert owners(state) == {"Roma": 1}
    assert token(state) == 2
    assert "Siena" in {a["region"] for a in legal_actions(state)}
    state = act(state, 2, choose("Siena"))
    assert public(state)["region"] == "Siena"


def test_passing_is_final_and_a_player_who_passed_can_still_win():
    """[rules] On a turn: play one card or pass. Passing is final for this battle. A player who
    passed can still win."""
    state = start(3, [["m10", "m1"], ["m2", "m3", "m1"], ["m1", "m2", "m3"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("m2")),
        (2, play("m1")),
        (0, PASS),
    )
    assert public(state)["players"][0]["passed"] is True
    state = run(state, (1, play("m3")), (2, play("m2")), (1, play("m1")), (2, play("m3")))
    assert owners(state) == {"Roma": 0}
    assert hand(state, 0) == ["m1"]


def test_a_player_with_no_cards_is_passed_automatically_and_never_asked():
    """[rules] A player with no cards can only pass: the engine passes them automatically and
    never asks them."""
    state = start(3, [["m5"], ["m1", "m2", "m3", "m1"], ["m4", "m4"]])
    state = run(state, (0, choose("Roma")), (0, play("m5")))
    assert current_player(state) == 1
    state = run(state, (1, play("m1")), (2, play("m4")), (1, play("m2")))
    assert public(state)["players"][0]["passed"] is True
    state = run(state, (2, play("m4")), (1, play("m3")))
    # Seat 2 and seat 0 are out of cards, so seat 1 alone is asked until it passes.
    assert current_player(state) == 1
    state = act(state, 1, PASS)
    assert owners(state) == {"Roma": 2}


def test_token_holder_with_no_cards_still_chooses_the_region():
    """[ruling] A token holder with no cards still chooses the region; he is then passed
    automatically."""
    state = start(3, [[], ["m5"], ["m3"]])
    assert current_player(state) == 0
    assert phase(state) == "choose_region"
    state = act(state, 0, choose("Roma"))
    assert public(state)["players"][0]["passed"] is True
    assert current_player(state) == 1


def test_winner_who_played_his_last_card_still_takes_the_token_and_chooses():
    """[rules] A player who wins the battle in which he played his last card still takes the
    token and chooses the next region."""
    state = start(3, [["m1", "m2"], ["m5"], ["m3", "m2"]])
    state = run(state, (0, choose("Roma")), (0, play("m1")), (1, play("m5")), (2, play("m3")))
    state = run(state, (0, PASS), (2, PASS))
    assert owners(state) == {"Roma": 1}
    assert hand_sizes(state)[1] == 0
    assert token(state) == 1
    assert phase(state) == "choose_region"
    assert current_player(state) == 1


def test_a_strength_tie_gives_no_marker_and_the_token_to_the_left_of_the_last_holder():
    """[rules] Strength tie for first (including all at 0): no control marker; the token goes
    to the player left of the last holder (subject to the Courtesan rule)."""
    state = start(3, [["m1"], ["m1"], ["m1"]], first=2)
    state = run(state, (2, choose("Roma")), (2, PASS), (0, PASS), (1, PASS))
    assert owners(state) == {}
    assert token(state) == 0
    state = start(4, [["m6"], ["m2", "m4"], ["m1"], ["m5"]], first=3)
    state = run(
        state,
        (3, choose("Roma")),
        (3, play("m5")),
        (0, play("m6")),
        (1, play("m2")),
        (2, play("m1")),
        (1, play("m4")),
    )
    assert owners(state) == {}
    assert token(state) == 0


def _after_roma(hands, first=2):
    """Seat 2 (token holder) wins Roma with its Mercenary 10; every other seat plays its first
    card (a Mercenary 1, 1 and 2) and passes. Seat 2 then sends the token to Milano: step 4."""
    state = start(4, hands, first=first)
    state = run(
        state,
        (2, choose("Roma")),
        (2, play("m10")),
        (3, play("m1")),
        (0, play("m1")),
        (1, play("m2")),
        (3, PASS),
        (0, PASS),
        (1, PASS),
    )
    assert owners(state) == {"Roma": 2}
    return act(state, 2, choose("Milano"))


def test_discard_step_asks_every_seat_with_cards_in_seat_order_from_the_token_holder():
    """[ruling] Step 4 is asked of EVERY seat holding cards, Mercenary or not, in seat order
    starting with the token holder; a seat with no cards is skipped (hand sizes are public).
    Everybody sees who is asked. A discarded hand goes face down: it is not among the public
    `discards`; only the hand size going to 0 is public."""
    hands = [["m1", "courtesan"], ["m2", "m3"], ["m10"], ["m1", "scarecrow", "heroine"]]
    state = _after_roma(hands)
    # Token holder 2 has no card left: 3, then 0, then 1 (who holds a Mercenary 3).
    assert phase(state) == "discard_hand"
    assert current_player(state) == 3
    for seat in (0, 1, 2, 3, None):
        assert view_for(state, seat)["phase"] == "discard_hand"
        assert view_for(state, seat)["current_player"] == 3
    for seat in (0, 1, 2, None):
        assert view_for(state, seat)["legal_actions"] == []
    expected = [discard_hand(True), discard_hand(False)]
    assert sorted_actions(legal_actions(state)) == sorted_actions(expected)
    state = act(state, 3, discard_hand(True))
    assert view_for(state, 1)["players"][3]["hand_size"] == 0
    for seat in (0, 1, 2, None):
        shown = view_for(state, seat)["discards"]
        assert "heroine" not in shown and "scarecrow" not in shown
    assert sorted(view_for(state, 3)["own_discards"]) == ["heroine", "scarecrow"]
    assert current_player(state) == 0
    state = act(state, 0, discard_hand(False))
    assert current_player(state) == 1
    assert view_for(state, None)["current_player"] == 1
    state = act(state, 1, discard_hand(False))
    # Seats 0 and 1 still hold cards: no end of round. Seats 2 and 3 are out and auto-passed.
    assert phase(state) == "battle"
    assert public(state)["region"] == "Milano"
    assert current_player(state) == 0
    assert hand(state, 0) == ["courtesan"]
    assert hand(state, 1) == ["m3"]


def test_a_seat_holding_a_mercenary_can_only_keep_its_hand():
    """[ruling] Asked in step 4, a seat with a Mercenary in hand has one legal action: declining.
    Discarding is refused with a reason and changes nothing."""
    hands = [["m1", "m5", "heroine"], ["m2", "m4"], ["m10"], ["m1", "courtesan"]]
    state = _after_roma(hands)
    assert current_player(state) == 3  # a Courtesan only: both answers
    assert len(legal_actions(state)) == 2
    state = act(state, 3, discard_hand(False))
    assert current_player(state) == 0  # a Mercenary 5 and a Heroine
    assert legal_actions(state) == [discard_hand(False)]
    with pytest.raises(IllegalAction, match="Mercenary"):
        apply_action(state, discard_hand(True))
    assert hand(state, 0) == ["heroine", "m5"]
    state = act(state, 0, discard_hand(False))
    assert legal_actions(state) == [discard_hand(False)]  # seat 1, a Mercenary 4
    state = act(state, 1, discard_hand(False))
    assert (phase(state), current_player(state)) == ("battle", 3)  # 2 has no card


def test_the_others_see_the_same_discard_step_whether_the_asked_seat_holds_a_mercenary():
    """[ruling] Being asked reveals nothing: two games differing only in whether the asked seat's
    remaining card is a Mercenary look exactly the same, at every step of the discard round, to
    the spectator and to every other seat."""
    others = (0, 1, 2, None)
    states = []
    for kept in ("m5", "heroine"):
        hands = [["m1", "courtesan"], ["m2", "m3"], ["m10"], ["m1", kept]]
        states.append(_after_roma(hands))
    with_mercenary, without = states
    assert legal_actions(with_mercenary) != legal_actions(without)  # only seat 3 can tell
    for step in range(4):
        for seat in others:
            assert view_for(with_mercenary, seat) == view_for(without, seat), (step, seat)
        if phase(without) != "discard_hand":
            break
        seat = current_player(without)
        with_mercenary = act(with_mercenary, seat, discard_hand(False))
        without = act(without, seat, discard_hand(False))
    assert phase(without) == "battle"


def test_end_of_round_the_last_player_with_cards_keeps_at_most_two():
    """[rules] End of round: after step 4, if one player or none has cards, that player keeps up
    to 2 cards of his choice and discards the rest; all cards are shuffled together; every
    player is dealt up to 10 cards, then 1 more per region he controls."""
    state = start(2, [["m10"], ["m1", "m2", "m2", "m3"]])
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m1")), (1, PASS))
    assert owners(state) == {"Roma": 0}
    state = act(state, 0, choose("Milano"))
    # Step 4 first: seat 1 is asked, and with its Mercenaries can only keep its hand.
    assert (phase(state), current_player(state)) == ("discard_hand", 1)
    assert legal_actions(state) == [discard_hand(False)]
    state = act(state, 1, discard_hand(False))
    assert phase(state) == "keep"
    assert current_player(state) == 1
    choices = [tuple(sorted(a["cards"])) for a in legal_actions(state)]
    assert all(a["type"] == "keep" for a in legal_actions(state))
    assert len(choices) == len(set(choices))
    expected = {(), ("m2",), ("m3",), ("m2", "m2"), ("m2", "m3")}
    assert set(choices) == expected
    # Any order of the kept cards is accepted.
    state = act(state, 1, keep("m3", "m2"))
    assert hand_sizes(state) == [11, 10]
    assert Counter(hand(state, 1)) >= Counter(["m2", "m3"])
    assert public(state)["deck_size"] == 110 - 21
    assert public(state)["discards"] == []
    assert phase(state) == "battle"
    assert public(state)["region"] == "Milano"
    assert current_player(state) == 0


def test_keep_accepts_the_cards_in_any_order():
    """[rules] keep: a multiset — `apply_action` accepts its cards in any order."""
    state = start(2, [["m10"], ["m1", "heroine", "m2", "m3"]], seed=5)
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m1")), (1, PASS))
    state = run(state, (0, choose("Milano")), (1, discard_hand(False)))
    one = act(state, 1, keep("heroine", "m2"))
    other = act(state, 1, keep("m2", "heroine"))
    assert one == other


def test_dealing_gives_each_player_his_whole_allotment_in_turn_from_the_token_holder():
    """[ruling] Dealing gives each player his whole allotment in turn, starting with the token
    holder and going in seat order, taking cards from the top of the deck. (Observed through
    Draw After Battle's deal of 10 when nobody has cards, which does not reshuffle.)"""
    top = ["m10"] * 8 + ["heroine"] * 2 + ["courtesan"] * 10 + ["scarecrow"] * 10
    deck = top + ["m4"] * 8
    state = start(3, [["m1"], ["m2"], ["m3"]], first=1, deck=deck, draw_after_battle=True)
    state = run(state, (1, choose("Roma")), (1, play("m2")), (2, play("m3")), (0, play("m1")))
    assert owners(state) == {"Roma": 2}
    # Nobody has a card: each is dealt 10 automatically, seat 2 (token holder) first.
    assert phase(state) == "choose_region"
    assert current_player(state) == 2
    assert hand(state, 2) == sorted(top[0:10])
    assert hand(state, 0) == sorted(top[10:20])
    assert hand(state, 1) == sorted(top[20:30])
    assert public(state)["deck_size"] == 8
    assert line(state, 2) == ["m3"]
