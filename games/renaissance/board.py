"""The Renaissance board, read from data/board.json: this site's reconstruction of the map.

The rulebook names provinces and cities but prints the map only on the board, so the provinces,
roads, terrain and ports are reconstructed (docs/renaissance/map.md gives every choice). This
module only loads and checks the data file; the rules that use it live in the engine.
Pure standard library.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

BOARD_FILE = Path(__file__).parent / "data" / "board.json"
TERRAINS = ("plain", "mountain", "marsh")
# Mountains and marshes give the defender +1 (rulebook lines 64, 321 and 396).
DIFFICULT_TERRAINS = frozenset({"mountain", "marsh"})


class BoardError(ValueError):
    """The board file contradicts itself (a city in no province, a road to nowhere, ...)."""


@dataclass(frozen=True)
class Nation:
    key: str
    name: str
    capital: str


@dataclass(frozen=True)
class City:
    name: str
    province: str
    terrain: str
    coastal: bool
    port: bool


@dataclass(frozen=True)
class Board:
    source: str
    nations: MappingProxyType  # nation key -> Nation
    provinces: MappingProxyType  # province -> tuple of its cities
    sea_provinces: frozenset  # provinces drawn at sea (islands, Dalmatia): reached only by sea
    cities: MappingProxyType  # city -> City
    roads: frozenset  # frozenset({a, b}) pairs
    neighbours: MappingProxyType  # city -> frozenset of the cities one road away
    ports: frozenset
    coastal: frozenset
    starts: MappingProxyType  # nation key -> tuple of starting cities
    closed_without: MappingProxyType  # nation key -> provinces closed when it is removed
    scenarios: MappingProxyType  # the optional scenarios' data, as in the file


def load_board(path=BOARD_FILE):
    """Read and check a board file; raise BoardError naming the first inconsistency."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    provinces = _provinces(data)
    cities = _cities(data, provinces)
    roads = _roads(data, cities)
    nations = _nations(data, cities)
    return Board(
        source=data["source"],
        nations=MappingProxyType(nations),
        provinces=MappingProxyType(provinces),
        sea_provinces=frozenset(name for name, entry in data["provinces"].items() if entry["sea"]),
        cities=MappingProxyType(cities),
        roads=roads,
        neighbours=MappingProxyType(_neighbours(cities, roads)),
        ports=frozenset(name for name, city in cities.items() if city.port),
        coastal=frozenset(name for name, city in cities.items() if city.coastal),
        starts=MappingProxyType(_starts(data, cities, nations)),
        closed_without=MappingProxyType(_closed_without(data, provinces, nations)),
        scenarios=MappingProxyType(data.get("scenarios", {})),
    )


def _provinces(data):
    provinces = {}
    for name, entry in data["provinces"].items():
        members = tuple(entry["cities"])
        if not members or len(set(members)) != len(members):
            raise BoardError(f"province {name!r} has no city or a city twice")
        provinces[name] = members
    return provinces


def _cities(data, provinces):
    cities = {}
    for name, entry in data["cities"].items():
        city = City(name, entry["province"], entry["terrain"], entry["coastal"], entry["port"])
        if city.terrain not in TERRAINS:
            raise BoardError(f"{name}: unknown terrain {city.terrain!r}")
        if city.port and not city.coastal:
            raise BoardError(f"{name}: a port must be on the coast")
        if name not in provinces.get(city.province, ()):
            raise BoardError(f"{name}: its province {city.province!r} does not list it")
        cities[name] = city
    listed = [member for members in provinces.values() for member in members]
    if sorted(listed) != sorted(cities):
        raise BoardError("the provinces' cities and the cities differ")
    return cities


def _roads(data, cities):
    roads = set()
    for first, second in data["roads"]:
        if first not in cities or second not in cities:
            raise BoardError(f"road {first!r}-{second!r} leads to an unknown city")
        if first == second:
            raise BoardError(f"road from {first!r} to itself")
        pair = frozenset((first, second))
        if pair in roads:
            raise BoardError(f"road {first!r}-{second!r} twice")
        roads.add(pair)
    return frozenset(roads)


def _neighbours(cities, roads):
    neighbours = {name: set() for name in cities}
    for pair in roads:
        first, second = pair
        neighbours[first].add(second)
        neighbours[second].add(first)
    return {name: frozenset(others) for name, others in neighbours.items()}


def _nations(data, cities):
    nations = {}
    for key, entry in data["nations"].items():
        if entry["capital"] not in cities:
            raise BoardError(f"{key}: capital {entry['capital']!r} is not a city")
        nations[key] = Nation(key, entry["name"], entry["capital"])
    return nations


def _starts(data, cities, nations):
    if set(data["starts"]) != set(nations):
        raise BoardError("every nation, and only the nations, must have starting cities")
    starts = {}
    for key, names in data["starts"].items():
        unknown = [name for name in names if name not in cities]
        if unknown:
            raise BoardError(f"{key}: unknown starting cities {unknown}")
        starts[key] = tuple(names)
    return starts


def _closed_without(data, provinces, nations):
    closed = {}
    for key, names in data["closed_without"].items():
        if key not in nations:
            raise BoardError(f"closed_without names an unknown nation {key!r}")
        unknown = [name for name in names if name not in provinces]
        if unknown:
            raise BoardError(f"{key}: unknown closed provinces {unknown}")
        closed[key] = tuple(names)
    return closed


BOARD = load_board()
SOURCE = BOARD.source
NATIONS = BOARD.nations
PROVINCES = BOARD.provinces
SEA_PROVINCES = BOARD.sea_provinces
CITIES = BOARD.cities
ROADS = BOARD.roads
NEIGHBOURS = BOARD.neighbours
PORTS = BOARD.ports
COASTAL = BOARD.coastal
STARTS = BOARD.starts
CLOSED_WITHOUT = BOARD.closed_without
SCENARIOS = BOARD.scenarios
