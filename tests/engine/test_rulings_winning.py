"""Winning: totals and connected groups, Bigger Kingdoms, the board running out, the final
battle and a shared victory, Playing for Points."""

import pytest

from games.engine import current_player, is_terminal, legal_actions, match_points, winners

from .helpers import (
    FINAL_BATTLE_BOARD,
    PASS,
    PRINTED,
    RUN_OUT_BOARD,
    act,
    bishop,
    choose,
    hand,
    hand_sizes,
    line,
    owners,
    phase,
    play,
    plays_of,
    public,
    run,
    start,
)

SCATTERED_4 = ("Torino", "Venezia", "Siena", "Napoli")  # no two of them border
SCATTERED_5 = (*SCATTERED_4, "Bologna")
CHAIN = ("Torino", "Genova", "Parma", "Lucca", "Firenze")  # each borders the next only


def conquer(players, owned, region, seat=0, **options):
    """Seat ``seat`` (holding only a 10) wins ``region`` while owning ``owned``; others have no
    cards. Returns the state right after the battle."""
    hands = [[] for _ in range(players)]
    hands[seat] = ["m10"]
    state = start(players, hands, first=seat, owners=dict.fromkeys(owned, seat), **options)
    return run(state, (seat, choose(region)), (seat, play("m10")))


def assert_won_by(state, seat):
    assert is_terminal(state)
    assert winners(state) == [seat]
    assert current_player(state) is None
    assert legal_actions(state) == []
    assert phase(state) == "over"
    assert public(state)["winners"] == [seat]


def assert_not_over(state):
    assert not is_terminal(state)
    assert winners(state) == []
    assert phase(state) == "choose_region"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_to_six_players_win_with_5_regions(players):
    """[rules] 4–6 players: 5 regions, or 3 adjacent regions."""
    assert_won_by(conquer(players, SCATTERED_4, "Bologna"), 0)
    assert_not_over(conquer(players, SCATTERED_4[:3], "Bologna"))


@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_to_six_players_win_with_3_connected_regions(players):
    """[rules] "N adjacent regions" = a connected group of N of the player's regions (a chain
    counts; they need not all touch each other)."""
    assert_won_by(conquer(players, ("Torino", "Parma"), "Genova"), 0)
    assert_not_over(conquer(players, ("Torino", "Siena"), "Napoli"))


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_need_6_regions_or_4_connected(players):
    """[rules] 2–3 players: 6 regions, or 4 adjacent regions."""
    assert_not_over(conquer(players, SCATTERED_4, "Bologna"))
    assert_won_by(conquer(players, SCATTERED_5, "Lucca"), 0)
    assert_not_over(conquer(players, ("Torino", "Parma"), "Genova"))
    assert_won_by(conquer(players, CHAIN[:3], "Lucca"), 0)


def test_bigger_kingdoms_raises_only_the_adjacency_target():
    """[rules] Bigger Kingdoms — the adjacency target rises by one (4 with 4–6 players, 5 with
    2–3); the total targets stay 5 and 6."""
    assert_not_over(conquer(4, ("Torino", "Parma"), "Genova", bigger_kingdoms=True))
    assert_won_by(conquer(4, CHAIN[:3], "Lucca", bigger_kingdoms=True), 0)
    assert_won_by(conquer(4, SCATTERED_4, "Bologna", bigger_kingdoms=True), 0)
    assert_not_over(conquer(2, CHAIN[:3], "Lucca", bigger_kingdoms=True))
    assert_won_by(conquer(2, CHAIN[:4], "Firenze", bigger_kingdoms=True), 0)
    assert_won_by(conquer(3, SCATTERED_5, "Lucca", bigger_kingdoms=True), 0)


def _run_out(pope):
    hands = [["bishop", "m5"]] + [[] for _ in range(5)]
    state = start(6, hands, owners=RUN_OUT_BOARD)
    assert {a["region"] for a in legal_actions(state)} == {"Spoleto", "Firenze"}
    return run(state, (0, choose("Spoleto")), (0, bishop(pope)), (0, play("m5")))


def test_board_running_out_the_player_with_most_regions_wins():
    """[rules] If no region can be chosen for the next battle (every region is controlled or has
    the Pope token), the player with the most regions wins."""
    assert_won_by(_run_out("Firenze"), 0)
    # With the Pope token off the board, Firenze is still free: the game goes on.
    state = _run_out(None)
    assert_not_over(state)
    assert [a["region"] for a in legal_actions(state)] == ["Firenze"]


def _final_battle(first_hands=None, seed=1, **options):
    """Seat 1 wins Genova on the FINAL_BATTLE_BOARD: seats 0 and 1 tie at 4 regions."""
    hands = first_hands or [[], ["m10"], [], [], [], []]
    state = start(6, hands, first=1, owners=FINAL_BATTLE_BOARD, seed=seed, **options)
    state = run(state, (1, choose("Genova")), (1, play("m10")))
    return state


def test_a_tie_for_most_regions_is_settled_by_a_final_battle_of_the_tied_players():
    """[rules] A tie for most regions: a final battle among the tied players only: all hands are
    discarded, all 110 cards shuffled, each tied player dealt 10 + 1 per region he controls; the
    token holder leads. Its winner wins the game; a tie shares the victory."""
    state = _final_battle()
    assert owners(state)["Genova"] == 1
    assert phase(state) == "final_battle"
    assert not is_terminal(state)
    assert current_player(state) == 1
    assert hand_sizes(state) == [14, 14, 0, 0, 0, 0]
    assert public(state)["deck_size"] == 110 - 28
    assert all(a["type"] in ("play", "pass") for a in legal_actions(state))
    state = run(state, (1, PASS), (0, PASS))
    assert is_terminal(state)
    assert winners(state) == [0, 1]
    assert phase(state) == "over"


def test_final_battle_leader_is_the_tied_player_nearest_left_of_the_token_holder():
    """[rules] ... the token holder leads, or the tied player nearest to his left."""
    hands = [[], ["m10"], [], ["courtesan"], [], []]
    state = start(6, hands, first=1, owners=FINAL_BATTLE_BOARD)
    state = run(state, (1, choose("Genova")), (1, play("m10")), (3, play("courtesan")))
    # Seat 3 holds strictly the most Courtesans: it takes the token, seat 1 takes Genova.
    assert public(state)["condottiere"] == 3
    assert phase(state) == "final_battle"
    assert current_player(state) == 0


def _final_battle_where(condition, **options):
    """The first seed whose final-battle hands satisfy ``condition(hand0, hand1)``."""
    for seed in range(200):
        state = _final_battle(seed=seed, **options)
        if condition(hand(state, 0), hand(state, 1)):
            return state
    raise AssertionError("no seed among 200 deals the wanted final-battle hands")


def test_final_battle_bishop_discards_but_skips_the_pope_decision():
    """[ruling] In the final battle a Bishop still discards Mercenaries; the Pope token decision
    is skipped (the action is `{"type": "play", "card": "bishop"}` with no `pope` key) and the
    token stays where it is."""
    state = _final_battle_where(lambda h0, h1: "bishop" in h1 and any(c in PRINTED for c in h1))
    top = max((c for c in hand(state, 1) if c in PRINTED), key=PRINTED.get)
    state = run(state, (1, play(top)), (0, PASS))
    assert plays_of(state, "bishop") == [{"type": "play", "card": "bishop"}]
    state = act(state, 1, {"type": "play", "card": "bishop"})
    assert top not in line(state, 1)
    assert public(state)["pope"] is None
    assert public(state)["discards"][-2:] == [top, "bishop"]


def test_final_battle_courtesans_do_not_change_the_winner():
    """[ruling] The Courtesan rule has no effect (in the final battle)."""
    state = _final_battle_where(
        lambda h0, h1: "courtesan" in h0 and any(c in PRINTED and c != "m1" for c in h1)
    )
    top = max((c for c in hand(state, 1) if c in PRINTED), key=PRINTED.get)
    state = run(state, (1, play(top)), (0, play("courtesan")), (1, PASS), (0, PASS))
    assert is_terminal(state)
    assert winners(state) == [1]


def test_final_battle_keeps_hidden_cards_in_force():
    """[ruling] Optional rules in force (e.g. Hidden Cards) apply to the final battle too."""
    state = _final_battle_where(lambda h0, h1: any(c in PRINTED for c in h1), hidden_cards=True)
    merc = next(c for c in hand(state, 1) if c in PRINTED)
    state = act(state, 1, play(merc))
    assert line(state, 1, viewer=0) == ["hidden"]
    assert line(state, 1, viewer=1) == [merc]


def test_points_one_per_region_and_5_for_a_win_by_adjacency():
    """[rules]/[ruling] Playing for Points: 1 point per region controlled, +5 to a winner by
    adjacency — the winning battle gave him a connected group of the adjacency target in force,
    Bigger Kingdoms included, even if he also reached the total; nothing extra for a win on most
    regions or by final battle."""
    assert match_points(conquer(4, ("Torino", "Parma"), "Genova")) == [8, 0, 0, 0]
    assert match_points(conquer(4, SCATTERED_4, "Bologna")) == [5, 0, 0, 0]
    with_group = ("Torino", "Parma", "Siena", "Napoli")
    assert match_points(conquer(4, with_group, "Genova")) == [10, 0, 0, 0]
    bigger = conquer(4, with_group, "Genova", bigger_kingdoms=True)
    assert match_points(bigger) == [5, 0, 0, 0]
    assert match_points(conquer(4, CHAIN[:3], "Lucca", bigger_kingdoms=True)) == [9, 0, 0, 0]
    assert match_points(_run_out("Firenze")) == [4, 3, 3, 2, 2, 2]
    shared = run(_final_battle(), (1, PASS), (0, PASS))
    assert match_points(shared) == [4, 4, 3, 2, 2, 2]
