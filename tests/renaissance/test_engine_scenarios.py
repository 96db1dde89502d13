"""The Italian Wars scenarios (rulebook lines 462-632; [ruling] R46-R49) on the real board: the
set-up matches the rulebook's tables, the turn order is the listed one, removals by player
count, the first turn's state, 1515's palaces, returns."""

import pytest

from games.renaissance.api import apply_action, legal_actions, new_game
from games.renaissance.legal import sea_expansions_allowed
from games.renaissance.state import (
    EXPANSION,
    PURCHASE,
    RETURN,
    SETUP_PALACE,
    SETUP_RAMPART,
    SETUP_START,
)
from tests.renaissance.conftest import edit, first_legal, until

# The rulebook's tables, nation by nation in its order: (fixed cities, the "ou" choices).
TABLES = {
    "1494": {
        "france": ({"Genova", "Napoli"}, {"Pisa", "Bari", "Torino"}),
        "rome": ({"Roma", "Siena"}, {"Perugia", "Benevento"}),
        "venice": ({"Venezia", "Brescia", "Ferrara"}, set()),
        "florence": ({"Firenze", "Pistoia", "Piombino"}, set()),
        "milan": ({"Milano", "Pavia", "Piacenza"}, set()),
        "spain": ({"Palermo", "Reggio", "L'Aquila"}, set()),
    },
    "1499": {
        "venice": ({"Venezia", "Brescia"}, {"Mantova", "Ferrara"}),
        "rome": ({"Roma", "Bologna"}, {"Urbino", "Perugia", "Benevento"}),
        "florence": ({"Firenze", "Siena"}, {"Pisa", "Pistoia"}),
        "milan": ({"Milano", "Genova"}, {"Parma", "Pavia"}),
        "france": ({"Torino", "Napoli"}, {"Capua", "L'Aquila", "Nizza"}),
        "spain": ({"Palermo", "Reggio", "Bari"}, set()),
    },
    "1515": {
        "france": ({"Nizza", "Torino", "Genova", "Ajaccio"}, set()),
        "swiss": ({"Confederazione svizzera", "Milano", "Casale", "Saluzzo"}, set()),
        "empire": ({"Treviso", "Trento", "Padova", "Mantova"}, set()),
        "florence": ({"Firenze", "Pistoia", "Pisa", "Piombino"}, set()),
        "spain": ({"Napoli", "Reggio", "Bari", "Palermo"}, set()),
        "rome": ({"Roma", "Bologna", "Ancona"}, {"Urbino", "Perugia"}),
    },
}
REMOVED = {"1494": ("florence", "milan"), "1499": ("milan", "rome"), "1515": ("florence", "swiss")}
FIRST_TURN_WAR = {"1494": 0, "1499": 0, "1515": 1}


def owned(state, seat):
    return {state.geo.cities[c] for c, o in enumerate(state.owner) if o == seat}


@pytest.mark.parametrize("scenario", sorted(TABLES))
def test_scenario_set_up_matches_the_rulebooks_table(scenario):
    """[rules] lines 470-632: each nation's garrisons; [ruling] R46 the "ou" city is chosen in
    turn order, the order is the rulebook's list, no extra garrison, the first turn's state."""
    state = new_game(6, 1, {"scenario": scenario})
    table = TABLES[scenario]
    assert [state.nations[seat] for seat in state.order] == list(table)
    for seat, nation in enumerate(state.nations):
        assert owned(state, seat) == table[nation][0]
    choosers = [state.nations[s] for s in state.order if table[state.nations[s]][1]]
    picked = []
    while state.phase == SETUP_START:
        seat = state.current
        picked.append(state.nations[seat])
        choices = {a["city"] for a in legal_actions(state, seat)}
        assert choices == table[state.nations[seat]][1]
        state = first_legal(state)
    assert picked == choosers
    for seat, nation in enumerate(state.nations):
        fixed, choice = table[nation]
        assert fixed <= owned(state, seat) and len(owned(state, seat) - fixed) == bool(choice)
    assert state.phase == SETUP_RAMPART
    state = until(state, lambda s: s.turn == 1)
    assert state.war == FIRST_TURN_WAR[scenario] and state.phase == PURCHASE
    assert sum(state.reserve) == 6 * 21 - sum(len(owned(state, s)) for s in range(6))
    assert all(
        len(owned(state, s))
        == len(TABLES[scenario][state.nations[s]][0]) + bool(TABLES[scenario][state.nations[s]][1])
        for s in range(6)
    ), "an extra garrison was placed"


def test_1515_each_player_places_a_palace_on_one_of_its_cities():
    """[rules] 1515: "Chaque joueur reçoit un palais qu'il place sur une de ses garnisons"."""
    state = until(new_game(6, 2, {"scenario": "1515"}), lambda s: s.phase == SETUP_PALACE)
    seat = state.current
    assert {a["city"] for a in legal_actions(state, seat)} == owned(state, seat)
    state = until(state, lambda s: s.turn == 1)
    assert sum(state.palace) == 6 and state.palaces == 4
    for seat in range(6):
        assert sum(state.palace[c] for c in range(len(state.owner)) if state.owner[c] == seat)


@pytest.mark.parametrize("scenario", sorted(TABLES))
def test_r47_removals_are_cumulative_and_close_no_province(scenario):
    """[ruling] R47: five players remove the first named nation, four both; three are refused."""
    first, second = REMOVED[scenario]
    five = new_game(5, 1, {"scenario": scenario})
    four = new_game(4, 1, {"scenario": scenario})
    assert first not in five.nations and second in five.nations
    assert first not in four.nations and second not in four.nations
    assert not any(five.closed) and not any(four.closed)
    with pytest.raises(ValueError):
        new_game(3, 1, {"scenario": scenario})


def test_r48_1499_uses_every_nations_printed_list():
    """[ruling] R48: not only France's placement changes: Milan holds Genova, Florence Siena."""
    state = new_game(6, 1, {"scenario": "1499"})
    assert "Genova" in owned(state, state.nations.index("milan"))
    assert "Siena" in owned(state, state.nations.index("florence"))


def test_r49_a_return_in_a_scenario_may_take_any_of_the_nations_starting_cities():
    """[ruling] R49: three or four starting cities (the chosen one included)."""
    state = until(new_game(6, 3, {"scenario": "1494"}), lambda s: s.turn == 1)
    state = until(state, lambda s: s.phase == EXPANSION)
    rome = state.nations.index("rome")
    starts = {state.geo.cities[c] for c in state.starts[rome]}
    assert len(starts) == 3 and {"Roma", "Siena"} < starts
    owner = tuple(-1 if o == rome else o for o in state.owner)
    wiped = edit(
        state,
        owner=owner,
        reserve=tuple(21 if s == rome else r for s, r in enumerate(state.reserve)),
        phase=RETURN,
        current=rome,
    )
    assert {a["city"] for a in legal_actions(wiped, rome)} == starts
    back = apply_action(wiped, rome, {"type": "return", "city": "Siena"})
    assert back.owner[back.geo.index["Siena"]] == rome


def test_the_scenarios_two_sea_expansions_follow_the_rulebook():
    """[rules] "(2 EXPANSIONS PAR MER POSSIBLES)": France, Venice, Spain in 1494 and 1499;
    France and Spain in 1515."""
    for scenario, twice in (
        ("1494", {"france", "venice", "spain"}),
        ("1499", {"france", "venice", "spain"}),
        ("1515", {"france", "spain"}),
    ):
        state = new_game(6, 1, {"scenario": scenario})
        assert {
            state.nations[s] for s in range(6) if sea_expansions_allowed(state, s) == 2
        } == twice
