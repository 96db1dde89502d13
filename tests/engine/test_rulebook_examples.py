"""The worked examples printed in the 3rd edition rulebook, one test each.

Strength examples go through ``battle_strengths``; examples about play (Bishop, dealing,
drawing) are also played through ``apply_action`` from a stacked deal.
"""

from collections import Counter

from games.engine import battle_strengths, legal_actions

from .helpers import (
    PASS,
    act,
    bishop,
    choose,
    draw,
    hand,
    hand_sizes,
    line,
    phase,
    play,
    public,
    run,
    scarecrow,
    start,
)


def test_winter_makes_29_worth_4():
    """Winter: two 10s, a 5 and a 4 make 29; with a Winter in play, 4."""
    army = ["m10", "m10", "m5", "m4"]
    assert battle_strengths([army]) == [29]
    assert battle_strengths([army + ["winter"]]) == [4]
    assert battle_strengths([army, ["winter"]]) == [4, 0]


def test_drummer_doubles_21_to_42_and_6_under_winter():
    """Drummer: three Mercenaries worth 21 are worth 42 with a Drummer, 6 if Winter is in play."""
    army = ["m10", "m6", "m5"]
    assert battle_strengths([army]) == [21]
    assert battle_strengths([army + ["drummer"]]) == [42]
    assert battle_strengths([army + ["drummer"], ["winter"]]) == [6, 0]


def test_spring_example_scott_18_against_chris_15():
    """Spring: Scott 2, 5, 5 → 18 against Chris 1, 4, Heroine, Spring → 15."""
    scott = ["m2", "m5", "m5"]
    chris = ["m1", "m4", "heroine", "spring"]
    assert battle_strengths([scott, chris]) == [18, 15]


def test_spring_example_played_out_scott_takes_the_region():
    """The same Spring example played card by card: Scott's 18 beats Chris's 15."""
    state = start(2, [["m2", "m5", "m5"], ["m1", "m4", "heroine", "spring"]])
    state = run(
        state,
        (0, choose("Siena")),
        (0, play("m2")),
        (1, play("m1")),
        (0, play("m5")),
        (1, play("m4")),
        (0, play("m5")),
        (1, play("heroine")),
        (1, play("spring")),
    )
    assert public(state)["owners"] == {"Siena": 0}
    assert battle_strengths([line(state, 0), line(state, 1)]) == [18, 15]


def test_drummer_doubles_before_spring_adds_3_john_15():
    """John: 2, 4 and a Drummer with a Spring in play, 4 the highest Mercenary → 15."""
    assert battle_strengths([["m2", "m4", "drummer", "spring"]]) == [15]
    assert battle_strengths([["m2", "m4", "drummer"], ["spring", "m3"]]) == [15, 3]


def test_bishop_discards_every_6_from_both_lines_in_play():
    """Bishop: Chris 6, 3, 1, 1; Scott 6, 1, 1 plays a Bishop: both 6s are discarded."""
    state = start(
        2,
        [["m6", "m3", "m1", "m1", "scarecrow"], ["m6", "m1", "m1", "bishop", "scarecrow"]],
    )
    state = run(
        state,
        (0, choose("Firenze")),
        (0, play("m6")),
        (1, play("m6")),
        (0, play("m3")),
        (1, play("m1")),
        (0, play("m1")),
        (1, play("m1")),
        (0, play("m1")),
    )
    assert battle_strengths([line(state, 0), line(state, 1)]) == [11, 8]
    pope_choices = {a["pope"] for a in legal_actions(state) if a.get("card") == "bishop"}
    assert None in pope_choices and "Roma" in pope_choices
    state = act(state, 1, bishop("Roma"))
    assert Counter(line(state, 0)) == Counter(["m3", "m1", "m1"])
    assert Counter(line(state, 1)) == Counter(["m1", "m1"])
    assert public(state)["discards"][-3:] == ["m6", "m6", "bishop"]
    assert public(state)["pope"] == "Roma"
    assert battle_strengths([line(state, 0), line(state, 1)]) == [5, 2]


def test_bishop_ignores_a_face_down_10_under_hidden_cards():
    """John 6, 6 and a face-down 10; Scott 5, 1, 1 plays a Bishop: the 6s go, the 10 stays."""
    state = start(
        2,
        [["m6", "m6", "m10", "scarecrow"], ["m5", "m1", "m1", "bishop", "scarecrow"]],
        hidden_cards=True,
    )
    state = run(
        state,
        (0, choose("Firenze")),
        (0, play("m6")),
        (1, play("m5")),
        (0, play("m6")),
        (1, play("m1")),
        (0, play("m10")),
        (1, play("m1")),
        (0, PASS),
        (1, bishop(None)),
    )
    assert line(state, 0, viewer=1) == ["hidden"]
    assert line(state, 0, viewer=0) == ["m10"]
    assert Counter(line(state, 1, viewer=1)) == Counter(["m5", "m1", "m1"])
    assert sorted(public(state)["discards"][-3:-1]) == ["m6", "m6"]
    state = act(state, 1, PASS)
    # All cards are revealed before the comparison: John's 10 beats Scott's 7.
    assert public(state)["owners"] == {"Firenze": 0}


def test_a_player_with_3_regions_and_no_cards_is_dealt_13():
    """Parma, Venezia and Siena controlled, an empty hand: 13 cards at the new round."""
    state = start(2, [["m1"], ["m2"]], owners={"Parma": 0, "Venezia": 0, "Siena": 0}, first=0)
    state = run(state, (0, choose("Torino")), (0, play("m1")), (1, play("m2")))
    assert public(state)["owners"]["Torino"] == 1
    state = act(state, 1, choose("Napoli"))
    # Nobody has a card left: the round ends, 10 + 3 for seat 0, 10 + 1 for seat 1.
    assert hand_sizes(state) == [13, 11]
    assert len(hand(state, 0)) == 13
    assert public(state)["deck_size"] == 110 - 24
    assert phase(state) == "battle"


def test_draw_after_battle_hand_limit_9_cards_1_region_draws_2():
    """Chris holds 9 cards and controls 1 region: his limit is 11, he may draw only 2."""
    chris = ["m1", "m2", "m3", "m4", "m5", "m6", "scarecrow"]
    other = ["m10", "m10", "m10", "m10", "m10", "m10", "m10"]
    top = ["m1", "m1", "m1", "m2", "m2", "m2", "m3", "m3", "m3", "m4", "m4", "m4"]
    deck = top + ["m6"] * 7
    state = start(2, [chris, other], owners={"Siena": 0}, deck=deck, draw_after_battle=True)
    # Battle 1: Chris passes, seat 1 wins with a 10 and draws first as the new token holder.
    state = run(state, (0, choose("Torino")), (0, PASS), (1, play("m10")), (1, PASS))
    assert phase(state) == "draw"
    counts_for_seat_1 = sorted(a["count"] for a in legal_actions(state))
    assert counts_for_seat_1 == [0, 1, 2, 3]
    state = act(state, 1, draw(0))
    assert sorted(a["count"] for a in legal_actions(state)) == [0, 1, 2, 3]
    state = act(state, 0, draw(3))
    assert len(hand(state, 0)) == 10
    assert Counter(hand(state, 0)) == Counter(chris + top[:3])
    # Battle 2: Chris plays one card and keeps 9; with 1 region he may draw at most 2.
    state = run(state, (1, choose("Milano")), (1, play("m10")), (0, scarecrow(None)))
    state = run(state, (1, PASS), (0, PASS))
    assert phase(state) == "draw"
    state = act(state, 1, draw(0))
    assert len(hand(state, 0)) == 9
    assert sorted(a["count"] for a in legal_actions(state)) == [0, 1, 2]
    state = act(state, 0, draw(2))
    assert len(hand(state, 0)) == 11
