"""Optional rules: Draw After Battle, Capturing Regions, Hidden Cards."""

from collections import Counter

from games.engine import REGIONS, Options, current_player, is_terminal, legal_actions, new_game

from .helpers import (
    PASS,
    PASS_REVEAL,
    RUN_OUT_BOARD,
    act,
    bishop,
    choose,
    counted_cards,
    draw,
    hand,
    hand_sizes,
    line,
    owners,
    phase,
    play,
    plays_of,
    public,
    run,
    scarecrow,
    start,
    token,
)


def test_draw_after_battle_starts_with_7_cards():
    """[rules] Draw After Battle — start with 7 cards."""
    state = new_game(3, seed=4, options=Options(draw_after_battle=True))
    assert hand_sizes(state) == [7, 7, 7]


def test_draw_decisions_in_seat_order_from_the_token_holder_skip_who_can_draw_nothing():
    """[ruling] Draw decisions are asked in seat order starting with the token holder; a player
    who can draw nothing is not asked."""
    hands = [["m1"] + ["m3"] * 6, ["m4"] * 7, ["m2"] + ["m5"] * 5 + ["m1"]]
    state = start(3, hands, draw_after_battle=True)
    state = run(state, (0, choose("Roma")), (0, play("m1")), (1, PASS), (2, PASS), (0, PASS))
    assert owners(state) == {"Roma": 0}
    assert phase(state) == "draw"
    state = run(state, (0, draw(0)), (1, draw(3)), (2, draw(1)))
    assert hand_sizes(state) == [6, 10, 8]
    state = run(state, (0, choose("Milano")), (0, PASS), (1, PASS), (2, play("m2")), (2, PASS))
    assert owners(state) == {"Roma": 0, "Milano": 2}
    # Seat 2 holds the token and draws first; seat 1 holds 10 of 10 and is not asked.
    assert current_player(state) == 2
    state = act(state, 2, draw(3))
    assert current_player(state) == 0
    state = act(state, 0, draw(2))
    assert phase(state) == "choose_region"
    assert current_player(state) == 2


def test_draw_after_battle_has_no_hand_discard_step_and_no_rounds():
    """[rules] Draw After Battle: No rounds, no hand-discard step. Order: compare, draw, choose
    region, discard lines."""
    state = start(2, [["m10"], ["heroine", "courtesan"]], draw_after_battle=True)
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, PASS))
    assert phase(state) == "draw"
    assert line(state, 0) == ["m10"]
    state = run(state, (0, draw(3)), (1, draw(0)))
    assert phase(state) == "choose_region"
    assert line(state, 0) == ["m10"]
    state = act(state, 0, choose("Milano"))
    assert phase(state) == "battle"
    assert line(state, 0) == []
    assert hand(state, 1) == ["courtesan", "heroine"]
    assert current_player(state) == 0


def test_when_the_deck_is_empty_the_discard_pile_is_shuffled_into_a_new_deck():
    """[ruling] When the deck is empty, the discard pile is shuffled into a new deck."""
    state = start(2, [["m10"], ["m1", "m2"]], deck=["heroine", "heroine"], draw_after_battle=True)
    assert public(state)["deck_size"] == 2
    assert counted_cards(state) == 110
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m1")), (1, PASS))
    state = act(state, 0, draw(3))
    assert len(hand(state, 0)) == 3
    assert hand(state, 0).count("heroine") == 2
    assert counted_cards(state) == 110
    state = act(state, 1, draw(3))
    assert len(hand(state, 1)) == 4
    assert counted_cards(state) == 110


def test_capturing_token_holder_may_target_others_regions_but_not_his_own():
    """[ruling] The token holder may not target his own region. [rules] the token may be placed
    on a region controlled by another player, its defender."""
    state = start(3, [["m1"], ["m1"], ["m1"]], owners={"Torino": 2, "Milano": 0},
                  capturing_regions=True)  # fmt: skip
    assert {a["region"] for a in legal_actions(state)} == set(REGIONS) - {"Milano"}


def _defence(hands, first=0):
    state = start(3, hands, first=first, owners={"Torino": 2}, capturing_regions=True)
    return act(state, first, choose("Torino"))


def test_defender_may_pass_until_he_plays_his_first_card():
    """[rules] Until the defender plays his first card he may pass any number of times without
    leaving the battle, so he can still play after all others passed. [ruling] A defender who
    is still waiting shows `passed: false`."""
    state = _defence([["m5", "m3", "m1"], ["m2", "m1"], ["m10", "m1", "m1"]])
    state = run(state, (0, play("m5")), (1, PASS), (2, PASS))
    assert public(state)["players"][2]["passed"] is False
    state = run(state, (0, play("m3")), (2, PASS), (0, PASS))
    assert current_player(state) == 2
    state = act(state, 2, play("m10"))
    assert current_player(state) == 2
    state = act(state, 2, PASS)
    assert owners(state) == {"Torino": 2}
    assert token(state) == 2


def test_battle_ends_when_the_defender_passes_while_all_others_have_passed_for_good():
    """[ruling] The battle ends when every player has passed for good, or the defender passes
    while all the others have passed for good."""
    state = _defence([["m5", "m3"], ["m2", "m1"], ["m10", "m1"]])
    state = run(state, (0, play("m5")), (1, PASS), (2, PASS), (0, PASS), (2, PASS))
    assert owners(state) == {"Torino": 0}
    assert token(state) == 0


def test_capturing_tie_the_defender_keeps_the_region_and_takes_the_token():
    """[rules] A tie: the defender keeps the region and takes the token."""
    state = _defence([["m5", "m3"], ["m2", "m1"], ["m5", "m1"]])
    state = run(state, (0, play("m5")), (1, PASS), (2, play("m5")), (0, PASS), (2, PASS))
    assert owners(state) == {"Torino": 2}
    assert token(state) == 2


def test_capturing_tie_with_a_strict_courtesan_leader():
    """[ruling] On a tie the defender takes the token unless one line holds strictly the most
    Courtesans: that player takes it."""
    state = _defence([["courtesan", "m1"], ["m5", "m1"], ["m5", "m1"]], first=1)
    state = run(
        state,
        (1, play("m5")),
        (2, play("m5")),
        (0, play("courtesan")),
        (1, PASS),
        (2, PASS),
        (0, PASS),
    )
    assert owners(state) == {"Torino": 2}
    assert token(state) == 0


def test_capturing_surrender_before_the_defender_played():
    """[ruling] A Surrender before the defender played: the strongest line takes the region (a
    tie: the defender keeps it)."""
    state = _defence([["m5", "surrender"], ["m2"], ["m10"]])
    state = run(state, (0, play("m5")), (1, PASS), (2, PASS), (0, play("surrender")))
    assert owners(state) == {"Torino": 0}
    state = _defence([["surrender", "m5"], ["m2"], ["m10"]])
    state = act(state, 0, play("surrender"))
    assert owners(state) == {"Torino": 2}
    assert token(state) == 2


def test_capturing_pope_token_may_go_on_any_region_but_the_contested_one():
    """[rules] With a Bishop, the Pope token may go on any region (even a controlled one) or off
    the board. [ruling] not on the region being fought over."""
    state = start(2, [["bishop", "m1"], ["m1"]], owners={"Torino": 1, "Milano": 0},
                  capturing_regions=True)  # fmt: skip
    state = act(state, 0, choose("Roma"))
    assert {a["pope"] for a in plays_of(state, "bishop")} == (set(REGIONS) - {"Roma"}) | {None}


def test_capturing_the_board_does_not_run_out():
    """[ruling] With Capturing Regions the board does not run out of regions; play goes on until
    a victory condition is met."""
    hands = [["bishop", "m5"]] + [[] for _ in range(5)]
    state = start(6, hands, owners=RUN_OUT_BOARD, capturing_regions=True)
    state = run(state, (0, choose("Spoleto")), (0, bishop("Firenze")), (0, play("m5")))
    assert owners(state)["Spoleto"] == 0
    assert not is_terminal(state)
    assert phase(state) == "choose_region"
    mine = {r for r, seat in owners(state).items() if seat == 0}
    assert {a["region"] for a in legal_actions(state)} == set(REGIONS) - mine - {"Firenze"}


def test_hidden_cards_face_down_kinds_and_announced_strength():
    """[rules] Mercenary, Drummer, Heroine and Courtesan cards are played face down. When that
    player next plays a card, his face-down card is turned up first. The strength a player
    announces counts face-up cards only."""
    state = start(2, [["m6", "m5", "winter", "heroine"], ["drummer", "spring", "m1"]],
                  hidden_cards=True)  # fmt: skip
    state = run(state, (0, choose("Roma")), (0, play("m6")))
    assert line(state, 0, viewer=1) == ["hidden"]
    assert line(state, 0, viewer=0) == ["m6"]
    assert public(state)["players"][0]["strength"] == 0
    state = run(state, (1, play("drummer")), (0, play("m5")))
    assert line(state, 0, viewer=1) == ["m6", "hidden"]
    assert public(state)["players"][0]["strength"] == 6
    state = run(state, (1, play("spring")), (0, play("winter")))
    assert line(state, 0, viewer=None) == ["m6", "m5", "winter"]
    assert line(state, 1, viewer=0) == ["drummer"]


def test_a_line_holds_at_most_one_face_down_card():
    """[ruling] A line holds at most one face-down card."""
    state = start(2, [["m1", "m2", "courtesan", "m3"], ["m4", "m5", "m6", "m1"]],
                  hidden_cards=True)  # fmt: skip
    state = run(state, (0, choose("Roma")))
    for card_0, card_1 in (("m1", "m4"), ("m2", "m5"), ("courtesan", "m6")):
        state = run(state, (0, play(card_0)), (1, play(card_1)))
        for seat in (0, 1):
            assert line(state, seat, viewer=None).count("hidden") == 1
    assert line(state, 0, viewer=1) == ["m1", "m2", "hidden"]


def test_pass_may_reveal_or_keep_the_face_down_card():
    """[rules] A player who passes may keep his face-down card hidden: `{"type": "pass",
    "reveal": true}` turns it up, and is only offered with a face-down card."""
    state = start(2, [["m6", "m5"], ["m2", "m1"]], hidden_cards=True)
    state = act(state, 0, choose("Roma"))
    assert PASS in legal_actions(state)
    assert not any(a.get("reveal") for a in legal_actions(state))
    state = act(state, 0, play("m6"))
    state = act(state, 1, play("m2"))
    assert PASS_REVEAL in legal_actions(state) and PASS in legal_actions(state)
    revealed = act(state, 0, PASS_REVEAL)
    assert line(revealed, 0, viewer=1) == ["m6"]
    kept = act(state, 0, PASS)
    assert line(kept, 0, viewer=1) == ["hidden"]


def test_hidden_scarecrow_takes_back_only_a_mercenary_face_up_before_it_was_played():
    """[ruling] A Scarecrow may take back only a Mercenary that was face up before the Scarecrow
    was played (not the one its own play just turned up)."""
    state = start(2, [["m3", "m5", "scarecrow"], ["m1", "m2", "m4"]], hidden_cards=True)
    state = run(state, (0, choose("Roma")), (0, play("m3")), (1, play("m1")))
    assert {a["take"] for a in plays_of(state, "scarecrow")} == {None}
    state = run(state, (0, play("m5")), (1, play("m2")))
    assert {a["take"] for a in plays_of(state, "scarecrow")} == {"m3", None}
    state = act(state, 0, scarecrow("m3"))
    assert line(state, 0, viewer=1) == ["m5"]
    assert hand(state, 0) == ["m3"]


def test_hidden_bishop_counts_the_card_its_own_play_turned_up_and_ignores_others():
    """[ruling] A Bishop counts the Mercenary that its own play just turned up, and ignores other
    players' face-down cards."""
    state = start(2, [["courtesan", "m10", "bishop", "m1"], ["m6", "m10", "m1"]],
                  hidden_cards=True)  # fmt: skip
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("courtesan")),
        (1, play("m6")),
        (0, play("m10")),
        (1, play("m10")),
        (0, bishop(None)),
    )
    assert line(state, 0, viewer=1) == ["courtesan"]
    assert line(state, 1, viewer=0) == ["m6", "hidden"]
    assert line(state, 1, viewer=1) == ["m6", "m10"]
    assert public(state)["discards"][-2:] == ["m10", "bishop"]


def test_hidden_spring_highest_is_taken_after_all_cards_are_revealed():
    """[ruling] Spring's "highest" and the Courtesan count are taken after all cards are
    revealed. (Spring part.)"""
    state = start(2, [["m6", "m6", "spring"], ["m10", "m1"]], hidden_cards=True)
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m6")),
        (1, play("m10")),
        (0, play("m6")),
        (1, PASS),
        (0, play("spring")),
    )
    # Revealed: 6 + 6 = 12 against 10 + 3 = 13 (the 10 is the highest Mercenary in play).
    assert owners(state) == {"Roma": 1}


def test_hidden_courtesan_count_is_taken_after_all_cards_are_revealed():
    """[ruling] Spring's "highest" and the Courtesan count are taken after all cards are
    revealed. (Courtesan part.)"""
    state = start(2, [["courtesan", "courtesan", "m1"], ["courtesan", "m10", "m1"]],
                  hidden_cards=True)  # fmt: skip
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("courtesan")),
        (1, play("courtesan")),
        (0, play("courtesan")),
        (1, play("m10")),
        (0, PASS),
        (1, PASS),
    )
    assert owners(state) == {"Roma": 1}
    # Face up there was one Courtesan each; revealed, seat 0 holds strictly the most.
    assert token(state) == 0


def test_hidden_surrender_reveals_all_cards():
    """[ruling] Surrender reveals all cards."""
    state = start(2, [["m10", "m1"], ["m5", "surrender", "m1"]], hidden_cards=True)
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("m5")),
        (0, PASS),
        (1, play("surrender")),
    )
    assert owners(state) == {"Roma": 0}
    assert Counter(line(state, 0, viewer=1)) == Counter(["m10"])
