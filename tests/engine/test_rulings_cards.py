"""The special cards: Bishop and the Pope token, Scarecrow, Surrender, Courtesan."""

from games.engine import REGIONS, current_player, legal_actions

from .helpers import (
    PASS,
    act,
    bishop,
    choose,
    hand,
    line,
    owners,
    play,
    plays_of,
    public,
    run,
    scarecrow,
    start,
    token,
)


def _pope_choices(state):
    return {a["pope"] for a in plays_of(state, "bishop")}


def test_bishop_discards_every_highest_mercenary_even_of_players_who_passed():
    """[rules] Bishop: discard every Mercenary tied for the highest printed value, from ALL
    lines, including the Bishop player's and those of players who passed. The Bishop card is
    discarded. The battle goes on."""
    state = start(3, [["m10", "m2"], ["m10", "m3"], ["m10", "bishop", "m4"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("m10")),
        (2, play("m10")),
        (0, PASS),
        (1, play("m3")),
        (2, bishop(None)),
    )
    assert line(state, 0) == []
    assert line(state, 1) == ["m3"]
    assert line(state, 2) == []
    assert public(state)["discards"] == ["m10", "m10", "m10", "bishop"]
    assert public(state)["phase"] == "battle"
    # Seat 0 passed and seat 1 has no card left: seat 2 plays on alone.
    assert current_player(state) == 2


def test_pope_token_may_not_go_on_the_region_being_fought_over():
    """[ruling] The Pope token may not go on the region being fought over; it may stay where
    it is."""
    state = start(2, [["bishop", "m1"], ["bishop", "m1"]], owners={"Torino": 1, "Siena": 0})
    state = run(state, (0, choose("Roma")))
    free = {r for r in REGIONS if r not in ("Roma", "Torino", "Siena")}
    assert _pope_choices(state) == free | {None}
    state = run(state, (0, bishop("Napoli")))
    assert public(state)["pope"] == "Napoli"
    # The next Bishop may leave it on Napoli, move it, or take it off the board.
    assert _pope_choices(state) == free | {None}
    state = act(state, 1, bishop("Napoli"))
    assert public(state)["pope"] == "Napoli"


def test_bishop_with_no_mercenary_in_play_still_takes_the_pope_token():
    """[ruling] With no Mercenary in play, nothing is discarded; the player still takes the
    Pope token."""
    state = start(2, [["bishop", "heroine"], ["m1"]])
    state = run(state, (0, choose("Roma")), (0, bishop("Siena")))
    assert public(state)["pope"] == "Siena"
    assert public(state)["discards"] == ["bishop"]
    assert "Siena" not in {a["region"] for a in _region_choices_after_battle(state)}


def _region_choices_after_battle(state):
    """Finish the battle quickly (everyone passes) and return the next region choices."""
    while public(state)["phase"] == "battle":
        state = act(state, current_player(state), PASS)
    return [a for a in legal_actions(state) if a["type"] == "choose_region"]


def test_pope_token_starts_off_the_board():
    """[ruling] The Favor of the Pope token starts off the board."""
    state = start(2, [["m1"], ["m2"]])
    assert public(state)["pope"] is None
    assert {a["region"] for a in legal_actions(state)} == set(REGIONS)


def test_scarecrow_takes_back_one_own_face_up_mercenary_or_nothing():
    """[rules] Scarecrow — take back at most one of your own face-up Mercenaries from your
    line into your hand; taking nothing is allowed. The Scarecrow is discarded."""
    state = start(2, [["m5", "m3", "heroine", "scarecrow", "scarecrow"], ["m10", "m6", "m1"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m5")),
        (1, play("m10")),
        (0, play("m3")),
        (1, play("m6")),
        (0, play("heroine")),
        (1, play("m1")),
    )
    assert {a["take"] for a in plays_of(state, "scarecrow")} == {"m5", "m3", None}
    state = act(state, 0, scarecrow("m5"))
    assert sorted(line(state, 0)) == ["heroine", "m3"]
    assert hand(state, 0) == ["m5", "scarecrow"]
    assert public(state)["discards"] == ["scarecrow"]
    # Seat 1 has no card left and is passed automatically: seat 0 plays again.
    state = act(state, 0, scarecrow(None))
    assert sorted(line(state, 0)) == ["heroine", "m3"]
    assert public(state)["discards"] == ["scarecrow", "scarecrow"]


def test_surrender_is_computed_with_all_effects_and_a_first_card_surrender_is_a_tie():
    """[ruling] Strength is computed with all effects, as at any conclusion. A Surrender played
    as the very first card of a battle is a 0–0 tie."""
    state = start(2, [["m10", "m1"], ["m2", "m2", "winter", "surrender"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("m2")),
        (0, PASS),
        (1, play("m2")),
        (1, play("winter")),
        (1, play("surrender")),
    )
    # Under Winter: seat 0's 10 counts 1, seat 1's two 2s count 2.
    assert owners(state) == {"Roma": 1}
    assert "surrender" in public(state)["discards"]

    state = start(3, [["surrender", "m10"], ["m3"], ["m4"]], first=1)
    state = run(state, (1, choose("Roma")), (1, PASS), (2, PASS), (0, play("surrender")))
    assert owners(state) == {}
    # A tie: the token goes to the player left of the last holder (seat 1 → seat 2).
    assert token(state) == 2
    assert current_player(state) == 2


def test_surrender_ends_the_battle_at_once_and_the_strongest_line_wins():
    """[rules] Surrender — the battle ends at once; the strongest line at that moment wins."""
    state = start(3, [["m10", "surrender", "m1"], ["m5", "m6"], ["m2", "m3"]])
    state = run(state, (0, choose("Roma")), (0, play("m10")), (1, play("m5")), (2, play("m2")))
    state = act(state, 0, play("surrender"))
    assert owners(state) == {"Roma": 0}
    assert public(state)["region"] is None
    assert public(state)["phase"] == "choose_region"
    assert current_player(state) == 0


def test_strict_courtesan_leader_takes_the_token_and_the_winner_the_region():
    """[rules] Courtesan — the player whose line holds strictly the most Courtesans takes the
    Condottiere token instead of the battle winner (the winner still takes the region)."""
    state = start(3, [["m10"], ["courtesan", "courtesan"], ["courtesan", "m1"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m10")),
        (1, play("courtesan")),
        (2, play("courtesan")),
        (1, play("courtesan")),
        (2, PASS),
    )
    assert owners(state) == {"Roma": 0}
    assert token(state) == 1
    assert current_player(state) == 1


def test_tie_for_most_courtesans_leaves_the_token_to_the_battle_winner():
    """[rules] A tie for most Courtesans: the battle winner takes the token."""
    state = start(3, [["courtesan", "m10"], ["courtesan", "m2"], ["m1"]], first=2)
    state = run(
        state,
        (2, choose("Roma")),
        (2, PASS),
        (0, play("courtesan")),
        (1, play("courtesan")),
        (0, play("m10")),
        (1, play("m2")),
    )
    assert owners(state) == {"Roma": 0}
    assert token(state) == 0


def test_tie_for_courtesans_and_for_strength_sends_the_token_left_of_the_last_holder():
    """[rules] Tie for most Courtesans AND tie for strength: the token goes to the player left
    of the last holder."""
    state = start(3, [["courtesan", "m4"], ["courtesan", "m4"], ["m1"]], first=1)
    state = run(
        state,
        (1, choose("Roma")),
        (1, play("courtesan")),
        (2, PASS),
        (0, play("courtesan")),
        (1, play("m4")),
        (0, play("m4")),
    )
    assert owners(state) == {}
    assert token(state) == 2


def test_strength_tie_with_a_strict_courtesan_leader():
    """[ruling] Strength tie with a strict Courtesan leader: that leader takes the token."""
    state = start(3, [["m5"], ["m1"], ["m4", "courtesan"]])
    state = run(
        state,
        (0, choose("Roma")),
        (0, play("m5")),
        (1, play("m1")),
        (2, play("m4")),
        (2, play("courtesan")),
    )
    assert owners(state) == {}
    # Left of the last holder would be seat 1; the Courtesan leader is seat 2.
    assert token(state) == 2


def test_nobody_played_a_courtesan_no_override():
    """[ruling] Nobody played a Courtesan: no override."""
    state = start(3, [["m2"], ["m6"], ["m4"]])
    state = run(state, (0, choose("Roma")), (0, play("m2")), (1, play("m6")), (2, play("m4")))
    assert owners(state) == {"Roma": 1}
    assert token(state) == 1
