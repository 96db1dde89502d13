"""The board as a bot reads it: cities by the view's indices, roads, provinces, terrain, ports.

The map is printed on the board, so every player knows it: the shared board comes from
games.renaissance.board's data file, an injected one (tests) travels in `view["board"]`.
"""

import json

from games.renaissance.board import BOARD_FILE

ROUGH = frozenset({"mountain", "marsh"})
_CACHE = {}


class Geometry:
    """Read-only facts by city index (the view's `cities` order)."""

    def __init__(self, data: dict, names: list):
        index = {name: i for i, name in enumerate(names)}
        self.names = tuple(names)
        self.index = index
        info = data["cities"]
        provinces = sorted(data["provinces"])
        self.province_cities = tuple(
            tuple(sorted(index[c] for c in data["provinces"][p]["cities"])) for p in provinces
        )
        province_index = {name: i for i, name in enumerate(provinces)}
        self.province_of = tuple(province_index[info[c]["province"]] for c in names)
        self.rough = tuple(int(info[c]["terrain"] in ROUGH) for c in names)
        self.coastal = tuple(bool(info[c].get("coastal")) for c in names)
        self.port = tuple(bool(info[c].get("port")) for c in names)
        neighbours = [set() for _ in names]
        for a, b in data["roads"]:
            neighbours[index[a]].add(index[b])
            neighbours[index[b]].add(index[a])
        self.neighbours = tuple(frozenset(n) for n in neighbours)


def _shared_board() -> dict:
    if "shared" not in _CACHE:
        with open(BOARD_FILE, encoding="utf-8") as handle:
            _CACHE["shared"] = json.load(handle)
    return _CACHE["shared"]


def geometry_for(view: dict) -> Geometry:
    """The Geometry of the view's board, built once per board."""
    board = view.get("board")
    key = None if board is None else json.dumps(board, sort_keys=True)
    cached = _CACHE.get(("geometry", key))
    if cached is None:
        data = _shared_board() if board is None else board
        cached = _CACHE[("geometry", key)] = Geometry(data, view["cities"])
    return cached
