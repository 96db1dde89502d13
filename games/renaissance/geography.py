"""The map as the engine uses it: cities and provinces by index, roads as neighbour tuples.

Built from the shared board data (the dict format of `data/board.json`, written by the map's own
module `board.py`); a test may inject any board of the same format into `new_game(board=...)`.
The engine never depends on the real map's details beyond this format.
"""

import json
from pathlib import Path

# [rules] The six nations in the rulebook's order (Milan, Florence, Venise, Naples, Rome, Gênes).
NATIONS = ("milan", "florence", "venice", "naples", "rome", "genoa")
# [rules] "Seules Gênes et Venise ... peuvent réaliser 2 expansions par mer".
TWO_SEA_EXPANSIONS = frozenset({"genoa", "venice", "france", "spain"})
ROUGH_TERRAIN = frozenset({"mountain", "marsh"})

DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "board.json"
_MAPS = {}


class Map:
    """Indexed, read-only geometry of one board (cities sorted by name)."""

    def __init__(self, data, default=False):
        self.data = data
        self.default = default
        self.cities = tuple(sorted(data["cities"]))
        self.index = {name: i for i, name in enumerate(self.cities)}
        self.provinces = tuple(sorted(data["provinces"]))
        self.province_cities = tuple(
            tuple(sorted(self.index[c] for c in data["provinces"][p]["cities"]))
            for p in self.provinces
        )
        province_index = {name: i for i, name in enumerate(self.provinces)}
        info = data["cities"]
        self.province_of = tuple(province_index[info[c]["province"]] for c in self.cities)
        self.rough = tuple(int(info[c]["terrain"] in ROUGH_TERRAIN) for c in self.cities)
        self.coastal = tuple(bool(info[c].get("coastal")) for c in self.cities)
        self.port = tuple(bool(info[c].get("port")) for c in self.cities)
        neighbours = [set() for _ in self.cities]
        for a, b in data["roads"]:
            neighbours[self.index[a]].add(self.index[b])
            neighbours[self.index[b]].add(self.index[a])
        self.neighbours = tuple(tuple(sorted(n)) for n in neighbours)
        self.starts = {
            nation: tuple(self.index[c] for c in cities)
            for nation, cities in data["starts"].items()
        }
        self.closed_without = {
            nation: tuple(province_index[p] for p in provinces)
            for nation, provinces in data.get("closed_without", {}).items()
        }
        self.coastal_cities = tuple(i for i, c in enumerate(self.coastal) if c)
        self.port_cities = tuple(i for i, p in enumerate(self.port) if p)
        # Per city: the coastal cities a landing from it reaches (those not one road away).
        self.landing = tuple(
            tuple(c for c in self.coastal_cities if c not in roads) for roads in self.neighbours
        )
        # Tables the engine derives from this board once, on first use (legal.py's actions).
        self.memo = {}

    def key(self):
        """None for the shared board; the board's data for an injected one (for the JSON)."""
        return None if self.default else self.data


def default_map():
    """The shared board, read once from data/board.json."""
    if None not in _MAPS:
        with DEFAULT_PATH.open(encoding="utf-8") as file:
            _MAPS[None] = Map(json.load(file), default=True)
    return _MAPS[None]


def map_for(board):
    """A Map for `board`: None (the shared board), a Map, or a dict in board.json's format."""
    if board is None:
        return default_map()
    if isinstance(board, Map):
        return board
    key = json.dumps(board, sort_keys=True)
    if key not in _MAPS:
        _MAPS[key] = Map(board)
    return _MAPS[key]
