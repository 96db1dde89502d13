"""The reconstructed Renaissance board (docs/renaissance/map.md): what the rulebook says of the map
holds, and the map is whole (every city reachable, every nation able to open)."""

import itertools
import json
from collections import deque

import pytest

from games.renaissance import board
from games.renaissance.board import BoardError, load_board

# Every city the French rulebook (not in this repository; docs/renaissance/rules.md) names, by line:
# 64 terrain examples; 100-110 the starting positions; 484-528 scenario 1494;
# 544-576 scenario 1499; 594-632 scenario 1515 ("Confederazione svizzera" takes a garrison, 601).
RULEBOOK_CITIES = [
    "Napoli", "Venezia",  # 64
    "Firenze", "Pistoia", "Genova", "Ajaccio", "Capua", "Milano", "Pavia",  # 100-106
    "Roma", "Viterbo", "Ragusa",  # 108-110
    "Pisa", "Bari", "Torino", "Siena", "Perugia", "Benevento",  # 488-496
    "Brescia", "Ferrara", "Piombino", "Piacenza", "Palermo", "Reggio", "L'Aquila",  # 502-528
    "Mantova", "Bologna", "Urbino", "Parma", "Nizza",  # 546-570
    "Confederazione svizzera", "Casale", "Saluzzo",  # 601-604
    "Treviso", "Trento", "Padova", "Ancona",  # 608-631
]  # fmt: skip

# The provinces it names: 22 (Lombardia) and the player-count exclusions, 86, 92 and 93.
CLOSED_IN_RULEBOOK = {
    "genoa": ("Heiligens Römisches Reich", "Ducato di Savoia"),  # 86
    "naples": ("Abruzzo Basilicata", "Regno di Napoli", "Calabria Puglia"),  # 92
    "milan": ("Marchesato di Saluzzo e di Monferrato", "Ducato di Milano", "Lombardia"),  # 93
}
# Who leaves at each player count (lines 84-95): 5 without Genoa, 4 also without Naples or
# Milan, 3 without all three.
REMOVALS = [("genoa",), ("genoa", "naples"), ("genoa", "milan"), ("genoa", "naples", "milan")]

# Provinces of more than two cities: the rulebook says "one or two cities most often" (line 62),
# read as at most one province in seven (four of 31: two in the Kingdom of Naples, which its
# closure list needs, and Lombardia and the Ducato di Milano, three cities each for the balance
# of the nations, map.md section 10).
BIG_PROVINCES_SHARE = 1 / 7


def raw_board():
    return json.loads(board.BOARD_FILE.read_text(encoding="utf-8"))


def sea_links():
    """A port lands in any other coastal city (line 66); ports reach each other both ways."""
    links = {city: set() for city in board.CITIES}
    for port in board.PORTS:
        for other in board.COASTAL - {port}:
            links[port].add(other)
            links[other].add(port)
    return links


def reachable(start, allowed, links=None):
    seen, queue = {start}, deque([start])
    while queue:
        city = queue.popleft()
        others = set(board.NEIGHBOURS[city]) | (links[city] if links else set())
        for other in others & allowed - seen:
            seen.add(other)
            queue.append(other)
    return seen


def test_every_city_the_rulebook_names_is_on_the_board():
    assert sorted(set(RULEBOOK_CITIES) - set(board.CITIES)) == []


def test_closed_provinces_are_exactly_the_rulebooks():
    assert dict(board.CLOSED_WITHOUT) == CLOSED_IN_RULEBOOK
    named = {"Lombardia"} | {p for provinces in CLOSED_IN_RULEBOOK.values() for p in provinces}
    assert named <= set(board.PROVINCES)


def test_board_file_and_module_agree():
    data = raw_board()
    assert set(board.CITIES) == set(data["cities"])
    for name, entry in data["cities"].items():
        city = board.CITIES[name]
        assert (city.province, city.terrain, city.coastal, city.port) == (
            entry["province"],
            entry["terrain"],
            entry["coastal"],
            entry["port"],
        )
    assert {p: tuple(e["cities"]) for p, e in data["provinces"].items()} == dict(board.PROVINCES)
    assert {frozenset(pair) for pair in data["roads"]} == board.ROADS
    assert {c for c, e in data["cities"].items() if e["port"]} == board.PORTS
    assert {n: tuple(c) for n, c in data["starts"].items()} == dict(board.STARTS)
    assert set(board.NATIONS) == {"milan", "florence", "venice", "naples", "rome", "genoa"}


def test_roads_join_two_different_existing_cities_once_each_sorted():
    roads = [tuple(pair) for pair in raw_board()["roads"]]
    assert all(len(pair) == 2 and pair[0] < pair[1] for pair in roads)
    assert all(a in board.CITIES and b in board.CITIES for a, b in roads)
    assert roads == sorted(set(roads))
    assert len(board.ROADS) == len(roads)


def test_every_city_is_reachable_by_road_and_sea():
    everything = set(board.CITIES)
    assert reachable("Roma", everything, sea_links()) == everything


def test_mainland_is_connected_by_roads_alone_and_sea_provinces_by_ports():
    overseas = {c for p in board.SEA_PROVINCES for c in board.PROVINCES[p]}
    mainland = set(board.CITIES) - overseas
    assert reachable("Roma", mainland) == mainland
    for province in board.SEA_PROVINCES:
        cities = set(board.PROVINCES[province])
        assert all(board.NEIGHBOURS[c] <= cities for c in cities), province
        assert cities & board.PORTS, province


@pytest.mark.parametrize("removed", REMOVALS, ids="-".join)
def test_board_stays_whole_at_every_player_count(removed):
    closed = {p for nation in removed for p in board.CLOSED_WITHOUT[nation]}
    open_cities = {c for c, city in board.CITIES.items() if city.province not in closed}
    assert reachable("Roma", open_cities, sea_links()) == open_cities
    for nation in set(board.STARTS) - set(removed):
        assert all(board.CITIES[c].province not in closed for c in board.STARTS[nation])


def test_one_road_links_firenze_and_pistoia():
    assert frozenset({"Firenze", "Pistoia"}) in board.ROADS


@pytest.mark.parametrize("nation", ["genoa", "venice"])
def test_genoa_and_venice_start_on_two_ports(nation):
    # Line 360: only they may expand twice by sea "if they hold 2 ports": both their starts are.
    assert len(set(board.STARTS[nation]) & board.PORTS) == 2


def test_napoli_is_mountainous_and_venezia_a_marsh():
    assert board.CITIES["Napoli"].terrain == "mountain"
    assert board.CITIES["Venezia"].terrain == "marsh"


def test_provinces_hold_one_or_two_cities_mostly():
    sizes = {name: len(cities) for name, cities in board.PROVINCES.items()}
    big = [name for name, size in sizes.items() if size > 2]
    assert all(1 <= size <= 3 for size in sizes.values())
    assert len(big) <= BIG_PROVINCES_SHARE * len(sizes), big


def test_starting_cities_exist_and_are_distinct_across_nations():
    starts = [city for cities in board.STARTS.values() for city in cities]
    assert len(starts) == len(set(starts)) == 12
    assert set(starts) <= set(board.CITIES)
    for nation in board.NATIONS.values():
        assert nation.capital in board.STARTS[nation.key]


def two_expansions(owned, occupied):
    """Two expansions by road, not both from the same city (lines 353-359), if any exist."""
    for base, first in ((b, c) for b in owned for c in board.NEIGHBOURS[b] - occupied):
        for second_base in (owned | {first}) - {base}:
            if board.NEIGHBOURS[second_base] - occupied - {first}:
                return True
    return False


@pytest.mark.parametrize("nation", sorted(board.STARTS))
def test_each_nation_can_make_its_opening_moves(nation):
    occupied = {c for cities in board.STARTS.values() for c in cities}
    own = set(board.STARTS[nation])
    # Setup (line 112): one more garrison on a free city one road from a starting garrison.
    setup_choices = {c for start in own for c in board.NEIGHBOURS[start]} - occupied
    assert setup_choices
    for extra in setup_choices:  # whichever city the setup takes, the first turn's two remain
        assert two_expansions(own | {extra}, occupied | {extra}), extra


def test_scenario_starts_name_existing_cities():
    for name in ("1494", "1499", "1515"):
        slots = board.SCENARIOS[name]["starts"].values()
        for city in itertools.chain.from_iterable(itertools.chain.from_iterable(slots)):
            assert city in board.CITIES, (name, city)


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda d: d["roads"].append(["Roma", "Atlantide"]), "unknown city"),
        (lambda d: d["roads"].append(["Firenze", "Pistoia"]), "twice"),
        (lambda d: d["cities"]["Milano"].update(port=True), "coast"),
        (lambda d: d["cities"]["Pavia"].update(province="Lombardia"), "does not list"),
    ],
    ids=["road-to-nowhere", "road-twice", "inland-port", "city-outside-its-province"],
)
def test_load_board_refuses_a_broken_file(tmp_path, breakage, message):
    data = raw_board()
    breakage(data)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BoardError, match=message):
        load_board(path)
