"""Battle flow: region choice, turns, passing, ties, the after-battle steps, rounds, dealing."""

from collections import Counter

from games.engine import REGIONS, current_player, legal_actions, view_for

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


def test_discard_step_asked_in_seat_order_from_the_token_holder():
    """[ruling] Step 4 decisions are asked in seat order starting with the token holder; players
    with a Mercenary in hand, or no cards, are not asked. So that being asked does not reveal
    that a seat holds no Mercenary, the other seats' views show the phase but not who is
    deciding (`current_player` is `null` for them). A discarded hand goes face down: it is not
    among the public `discards`; only the hand size going to 0 is public."""
    hands = [["m1", "courtesan"], ["m2", "m3"], ["m10"], ["m1", "scarecrow", "heroine"]]
    state = start(4, hands, first=2)
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
    state = act(state, 2, choose("Milano"))
    assert phase(state) == "discard_hand"
    assert current_player(state) == 3
    assert view_for(state, 3)["current_player"] == 3
    for seat in (0, 1, 2, None):
        assert view_for(state, seat)["current_player"] is None
        assert view_for(state, seat)["phase"] == "discard_hand"
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
    # Seats 0 and 1 still hold cards: no end of round. Seats 2 and 3 are out and auto-passed.
    assert phase(state) == "battle"
    assert public(state)["region"] == "Milano"
    assert current_player(state) == 0
    assert hand(state, 0) == ["courtesan"]


def test_end_of_round_the_last_player_with_cards_keeps_at_most_two():
    """[rules] End of round: after step 4, if one player or none has cards, that player keeps up
    to 2 cards of his choice and discards the rest; all cards are shuffled together; every
    player is dealt up to 10 cards, then 1 more per region he controls."""
    state = start(2, [["m10"], ["m1", "m2", "m2", "m3"]])
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m1")), (1, PASS))
    assert owners(state) == {"Roma": 0}
    state = act(state, 0, choose("Milano"))
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
    state = act(state, 0, choose("Milano"))
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
