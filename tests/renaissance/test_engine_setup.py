"""Set-up (rulebook lines 74-118): nations and closed provinces by player count, starting
garrisons, the rampart, the extra garrison, 6 ducats, the drawn turn order, the box's limits."""

import pytest

from games.renaissance.api import apply_action, legal_actions, new_game
from games.renaissance.state import PURCHASE, SETUP_GARRISON, SETUP_RAMPART
from tests.renaissance.conftest import TINY, city, game, through_setup


def nations_in_play(players, **options):
    return sorted(new_game(players, 3, options, board=TINY).nations)


def closed_names(state):
    return {state.geo.cities[c] for c, closed in enumerate(state.closed) if closed}


def test_six_players_play_all_six_nations_and_nothing_is_closed():
    state = new_game(6, 1, board=TINY)
    assert sorted(state.nations) == sorted(
        ["milan", "florence", "venice", "naples", "rome", "genoa"]
    )
    assert not any(state.closed)


def test_five_players_remove_genoa_and_close_the_empire_and_savoy():
    """Line 86: "On retire Gênes (son territoire reste accessible). Les provinces de Heiligens
    Römisches Reich et Ducato di Savoia sont inaccessibles"."""
    state = game(5)
    assert "genoa" not in state.nations
    assert closed_names(state) == {"Trento", "Torino", "Nizza"}
    assert state.owner[city(state, "Genova")] == -1  # Genoa's territory stays, free


def test_four_players_also_remove_naples_by_default_or_milan_by_option():
    """Lines 90-93: with four players, Naples or Milan is removed and its provinces closed;
    [ruling] R3: Naples unless the option "remove" says Milan."""
    state = game(4)
    assert set(state.nations) == {"milan", "florence", "venice", "rome"}
    assert {"Napoli", "Capua", "L'Aquila", "Bari"} <= closed_names(state)
    state = game(4, remove="milan")
    assert set(state.nations) == {"naples", "florence", "venice", "rome"}
    assert {"Milano", "Pavia", "Brescia", "Saluzzo"} <= closed_names(state)
    with pytest.raises(ValueError):
        game(4, remove="rome")


def test_three_players_remove_genoa_naples_and_milan():
    """Line 95: "Pour 3 joueurs, on utilise les deux possibilités ci-dessus"."""
    assert nations_in_play(3) == ["florence", "rome", "venice"]


def test_player_counts_outside_three_to_six_are_refused():
    for players in (2, 7, True):
        with pytest.raises(ValueError):
            new_game(players, board=TINY)


def test_nations_are_drawn_by_lot_unless_chosen():
    """Line 74: players choose their nations, else they are drawn by lot (seeded)."""
    drawn = {new_game(6, seed, board=TINY).nations for seed in range(8)}
    assert len(drawn) > 1
    chosen = ["rome", "genoa", "milan", "florence", "venice", "naples"]
    assert list(new_game(6, 0, {"nations": chosen}, board=TINY).nations) == chosen


def test_starting_garrisons_six_ducats_and_twenty_one_garrisons():
    """Lines 78, 100-110: two starting garrisons per nation, 6 ducats, 21 garrisons each."""
    state = game(6)
    assert state.ducats == (6,) * 6
    milan = state.nations.index("milan")
    assert {state.geo.cities[c] for c in range(24) if state.owner[c] == milan} == {
        "Milano",
        "Pavia",
    }
    assert state.reserve == (19,) * 6


def test_each_player_places_its_rampart_on_one_of_its_cities_in_turn_order():
    """Line 95: "Chaque joueur pose également son rempart sur la ville de son choix" ([ruling]
    R4: one of its own cities)."""
    state = game(6)
    assert state.phase == SETUP_RAMPART and state.current == state.order[0]
    actions = legal_actions(state, state.current)
    owned = {state.geo.cities[c] for c in range(24) if state.owner[c] == state.current}
    assert {a["city"] for a in actions} == owned
    after = apply_action(state, state.current, actions[0])
    assert after.fort[city(after, actions[0]["city"])] == 1
    assert after.current == state.order[1]


def test_extra_garrison_next_to_a_starting_city_or_in_a_free_port():
    """Line 112: one more garrison on a free city linked by road to a starting garrison; a port
    owner may put it in another free port instead.
    [ruling] R7: optional; a port, not a mere coastal city."""
    state = game(6)
    while state.phase == SETUP_RAMPART:
        state = apply_action(state, state.current, legal_actions(state, state.current)[0])
    assert state.phase == SETUP_GARRISON
    seat = state.current
    nation = state.nations[seat]
    options = {a.get("city") for a in legal_actions(state, seat)}
    expected = {
        "milan": {"Brescia", "Trento", "Bologna"},
        "florence": {"Bologna", "Siena", "Perugia"},
        "venice": {"Padova", "Nizza", "Bari"},
        "naples": {"Bari", "Nizza"},
        "rome": {"Siena", "Perugia", "L'Aquila"},
        "genoa": {"Saluzzo", "Savona", "Nizza", "Bari"},
    }[nation]
    assert options - {None} == expected
    assert None in options  # the pass: the extra garrison is optional ("chacun peut")


def test_the_turn_order_is_drawn_at_set_up_and_the_first_turn_is_peace_without_vote():
    """Lines 80-82: the first turn order is drawn; 1454 is peace without vote."""
    orders = {game(6, seed).order for seed in range(10)}
    assert len(orders) > 1
    state = through_setup(game(6, 4))
    assert state.phase == PURCHASE and state.turn == 1 and state.war == 0
    assert state.last_votes == ()
    assert state.ducats == (10,) * 6  # 6 + the peace's 4


def test_the_box_holds_twenty_ramparts_ten_castles_ten_palaces_ten_pillage_markers():
    """Lines 49-59: 20 ramparts (one handed to each player), 10 castles, 10 palaces, 10 pillage
    markers, 12 artists (Savonarola among them)."""
    state = game(6)
    assert (state.ramparts, state.castles, state.palaces, state.pillages) == (14, 10, 10, 10)
    assert state.artists == 11
