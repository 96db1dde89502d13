"""Strength of a battle line: the rulings' fixed order, seasons, Drummer, Heroine, Courtesan."""

from games.engine import battle_strengths, current_player

from .helpers import bishop, choose, line, owners, play, plays_of, public, run, start


def test_highest_compares_printed_values():
    """[ruling] "Highest" (Spring, Bishop) compares PRINTED values, ignoring Drummer and Winter."""
    # Spring: a doubled 5 (10) is not "higher" than a printed 6; the 6 gets the +3.
    assert battle_strengths([["m5", "drummer"], ["m6", "spring"]]) == [10, 9]
    # Bishop: the printed value decides, whatever a Drummer makes of it.
    state = start(2, [["m5", "drummer", "m1"], ["m6", "bishop", "m1"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("drummer")),
        (1, play("m6")),
        (0, play("m5")),
        (1, bishop(None)),
    )
    # The Bishop takes the printed 6, not the 5 that a Drummer makes worth 10.
    assert sorted(line(state, 0)) == ["drummer", "m5"]
    assert line(state, 1) == []


def test_winter_counts_every_mercenary_as_1_and_2_with_a_drummer():
    """[rules] Winter: every Mercenary counts as 1; with a Drummer in the line, 2."""
    assert battle_strengths([["m10", "m6", "winter"], ["m3", "drummer"]]) == [2, 2]


def test_spring_adds_3_to_every_mercenary_tied_for_highest_in_every_line():
    """[rules] Spring gives +3 to every Mercenary tied for highest, in every line, whoever
    played Spring."""
    assert battle_strengths([["m6", "m6", "m2"], ["m6", "spring"], ["m5"]]) == [20, 9, 5]


def test_heroine_and_courtesan_are_not_mercenaries():
    """[rules] Heroine (10) and Courtesan (1) are not Mercenaries: no season, Drummer, Bishop
    or Scarecrow touches them."""
    assert battle_strengths([["heroine", "courtesan", "drummer", "winter"]]) == [11]
    assert battle_strengths([["heroine", "courtesan", "spring"], ["m1"]]) == [11, 4]
    state = start(2, [["heroine", "courtesan", "scarecrow"], ["bishop", "m1", "m2"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("heroine")),
        (1, play("m1")),
        (0, play("courtesan")),
        (1, bishop(None)),
    )
    # The only Mercenary in play was seat 1's 1: it went, the Heroine and Courtesan stay.
    assert sorted(line(state, 0)) == ["courtesan", "heroine"]
    assert line(state, 1) == []
    assert current_player(state) == 0
    takes = {a["take"] for a in plays_of(state, "scarecrow")}
    assert takes == {None}


def test_winter_and_spring_cancel_each_other():
    """[rules] Playing Winter discards every Spring in play, and vice versa: at most one season
    kind is ever in play."""
    state = start(2, [["spring", "spring", "m10"], ["winter", "m1", "m2"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("spring")),
        (1, play("m1")),
        (0, play("spring")),
        (1, play("winter")),
    )
    assert line(state, 0) == []
    assert public(state)["discards"].count("spring") == 2
    assert line(state, 1) == ["m1", "winter"]
    # Winter alone is in play: the 10 counts 1, seat 1's 1 and 2 count 2.
    state = run(state, (0, play("m10")), (1, play("m2")))
    assert owners(state) == {"Roma": 1}

    state = start(2, [["winter", "m10"], ["spring", "m5", "m6"]])
    state = run(state, (0, choose("Roma")), (0, play("winter")), (1, play("spring")))
    assert line(state, 0) == []
    assert line(state, 1) == ["spring"]
    assert "winter" in public(state)["discards"]


def test_several_seasons_of_one_kind_count_once():
    """[rules] Several copies of one season = one."""
    assert battle_strengths([["m10", "winter", "winter"], ["m2", "winter"]]) == [1, 1]
    assert battle_strengths([["m10", "spring", "spring"], ["m2", "spring"]]) == [13, 2]


def test_several_drummers_in_a_line_are_one_drummer():
    """[rules] Several Drummers in a line = one Drummer."""
    assert battle_strengths([["m5", "drummer", "drummer", "drummer"]]) == [10]
    assert battle_strengths([["m5", "drummer", "drummer"], ["m5"]]) == [10, 5]
