"""Rulings R33-R41 (docs/renaissance/rulings.md): the end, money, the starting rampart, pieces
running out, closed provinces, the purchase order, no attack from a city just taken, counters,
Marriage."""

from games.renaissance.api import apply_action, legal_actions
from games.renaissance.cards import KIND
from games.renaissance.diplomacy import diplomacy_actions
from games.renaissance.state import COMBAT, CORRUPT, PURCHASE, SETUP_GARRISON, SETUP_RAMPART, put
from tests.renaissance.conftest import (
    city,
    combat_state,
    edit,
    first_legal,
    game,
    random_game,
    until,
)
from tests.renaissance.test_engine_battle import commit, pass_all, prepare


def test_r33_the_game_ends_after_the_sixth_turns_scoring():
    """[ruling] R33: six turns (1454-1494), six scores each, then over."""
    final = random_game(4, 33)
    assert final.turn == 7 and all(len(sheet) == 6 for sheet in final.sheet)
    assert final.winners


def test_r34_nothing_that_costs_is_legal_without_the_ducats():
    """[ruling] R34: ducats never go below 0 (no gift, Marriage or Condottiere unpaid)."""
    state, seat = combat_state(cards=["marriage", "condottiere", "condottiere"], ducats=0)
    state = edit(state, turn=1)
    types = {a["type"] for a in legal_actions(state, seat)}
    assert "marriage" not in types and "attack" not in types
    assert not [a for a in diplomacy_actions(state, seat) if a["type"] == "give_ducats"]


def test_r35_the_starting_rampart_is_one_of_the_twenty_placed_before_the_extra_garrison():
    """[ruling] R35: with six players 14 ramparts are left in the box; ramparts come first."""
    state = game(6)
    assert state.phase == SETUP_RAMPART and state.ramparts == 14
    while state.phase == SETUP_RAMPART:
        state = first_legal(state)
    assert state.phase == SETUP_GARRISON and sum(1 for f in state.fort if f) == 6
    assert state.ramparts == 14


def test_r36_no_garrison_in_reserve_no_attack_marriage_or_corruption():
    """[ruling] R36: a piece to place is needed for every placement.
    [ruling] R12: an attack needs a garrison in reserve."""
    state, seat = combat_state(cards=["knights", "knights", "marriage"], war=1)
    state = edit(state, reserve=put(state.reserve, seat, 0))
    types = {a["type"] for a in legal_actions(state, seat)}
    assert types == {"end_turn"}
    corrupt = edit(state, phase=CORRUPT)
    assert legal_actions(corrupt, seat) == [{"type": "pass"}]


def test_r37_closed_provinces_are_out_of_reach_and_a_removed_nations_cities_start_free():
    """[ruling] R37: at five players Genoa's cities are free and open; the closed provinces
    (Ducato di Savoia, the Empire) are targets of nothing."""
    state = game(5)
    for name in ("Genova", "Ajaccio"):
        assert state.owner[city(state, name)] == -1 and not state.closed[city(state, name)]
    torino = city(state, "Torino")
    assert state.closed[torino]
    raider, seat = combat_state(cards=["raiders"])
    raider = edit(raider, closed=state.closed)
    targets = {a["city"] for a in legal_actions(raider, seat) if a["type"] == "raiders"}
    assert "Torino" not in targets and "Trento" not in targets and "Siena" in targets


def test_r38_purchases_follow_the_previous_turns_order():
    """[ruling] R38: the new order is drawn after the purchases."""
    state = until(game(6, 3), lambda s: s.turn == 2 and s.phase == PURCHASE)
    first_order = state.order
    assert state.current == first_order[0]
    state = until(state, lambda s: s.phase != PURCHASE)
    assert state.order[0] != first_order[0]  # nobody first twice running: a new draw


def _won_battle(nation="florence", options=None):
    state, (attacker, defender) = prepare(["cannon", "swiss"], [], target="Siena", nation=nation)
    if options:
        state = edit(state, options=options)
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = pass_all(apply_action(state, attacker, commit(["cannon", "swiss"])))
    assert state.phase == COMBAT and state.owner[city(state, "Siena")] == attacker
    return state, attacker


def test_r39_no_attack_from_a_city_taken_in_the_same_combat_phase():
    """[ruling] R39: Siena, just taken, is no base for attacking Viterbo."""
    state, attacker = _won_battle()
    origins = {a["from"] for a in legal_actions(state, attacker) if a["type"] == "attack"}
    assert "Siena" not in origins
    assert city(state, "Siena") in state.gained


def test_r40_an_attacking_engineer_and_a_defending_traitor_both_act():
    """[ruling] R40: different red cards are no counter; both act."""
    state, (attacker, defender) = prepare(
        ["knights", "pikemen", "engineer"], ["arquebusiers", "traitor"], fort=1
    )
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["pikemen", "knights"], "engineer"))
    state = apply_action(state, defender, commit(["arquebusiers"], "traitor"))
    assert state.battle["countered"] == 0
    assert state.battle["fort"] == 2  # a rampart lowered to a garrison
    assert state.battle["lost"] == KIND["knights"]


def test_r41_marriage_needs_no_consent_and_binds_only_the_marrying_player():
    """[ruling] R41: the city changes hands at once; the ban ends with the marrier's phase."""
    state, seat = combat_state(cards=["marriage", "pikemen"])
    rome = state.nations.index("rome")
    state = apply_action(state, seat, {"type": "marriage", "city": "Siena"})
    assert state.owner[city(state, "Siena")] == seat and state.current == seat
    assert state.married >> rome & 1
    state = apply_action(state, seat, {"type": "end_turn"})
    assert state.married == 0
