"""The geometry of the Renaissance board picture, standard library only: the projection, the
land, where each city is drawn, and the provinces' shapes and borders.

How the land is shared out (docs/renaissance/map.md, "The picture"): a grid of CELL-unit cells
covers the frame; a cell of land takes the owner of the nearest seed of its country's group
(the cities, and the few helper seeds of renaissance_places.py), so a province is the land
nearest its cities, and land no province owns is outside the game. Sea cells then take the label
of the nearest land cell (games/board_data/partition.nearest_fill), the borders between labels
are smoothed once each (partition.smooth_outlines, as the Condottiere map does) and every shape
is cut by the real coast (geometry.intersection), so coasts are Natural Earth's.
"""

import functools
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from games.board_data import geometry, partition
from games.board_data.renaissance_places import (
    CITY_COORDINATES,
    CITY_GROUP,
    GROUP_OF_COUNTRY,
    HELPER_SEEDS,
)

ROOT = Path(__file__).resolve().parents[2]
BOARD_FILE = ROOT / "games" / "renaissance" / "data" / "board.json"
COASTLINE_FILE = Path(__file__).resolve().parent / "renaissance_coastline.json"

# The frame, in degrees: every city with room for its name, and Sicily whole.
NORTH = 47.35
SOUTH = 36.55
WEST = 6.55
EAST = 18.70
# A plate carrée stretched for the frame's middle latitude (as the Condottiere map does), so
# shapes keep their aspect.
LONGITUDE_SHRINK = math.cos(math.radians((NORTH + SOUTH) / 2))
WIDTH = 1000
UNITS_PER_DEGREE = WIDTH / ((EAST - WEST) * LONGITUDE_SHRINK)
HEIGHT = round((NORTH - SOUTH) * UNITS_PER_DEGREE)

CELL = 5  # map units per cell of the sharing-out grid (a unit is about 1 km)
PAD = 3  # cells past the frame on each side, so outlines run on past the picture's edge
SLIVER_AREA = 6.0  # square units: pieces of a province smaller than this are not drawn
# Cities nearer each other than MIN_SPACING (map units) are drawn pushed apart, so each spot
# keeps room for its pieces, and kept ROAD_CLEARANCE off the roads they are not on; LAND_MARGIN
# keeps a spot's centre this far inside the coast.
MIN_SPACING = 30.0
LAND_MARGIN = 2.5
ROAD_CLEARANCE = 13.0
OUTSIDE = "~"  # labels of land outside the game start with this

Point = tuple[float, float]
Ring = tuple[Point, ...]
Cell = tuple[int, int]  # (row, column)


def project(latitude: float, longitude: float) -> Point:
    """A place on the map, in SVG units (x east, y south from the frame's north-west corner)."""
    x = (longitude - WEST) * LONGITUDE_SHRINK * UNITS_PER_DEGREE
    y = (NORTH - latitude) * UNITS_PER_DEGREE
    return (x, y)


def unproject(point: Point) -> tuple[float, float]:
    """The (longitude, latitude) of a map point, the inverse of project."""
    x, y = point
    return (WEST + x / (LONGITUDE_SHRINK * UNITS_PER_DEGREE), NORTH - y / UNITS_PER_DEGREE)


# ---- data -----------------------------------------------------------------------------------


@functools.cache
def board() -> dict:
    """board.json as it is (read directly: this module needs no engine)."""
    return json.loads(BOARD_FILE.read_text(encoding="utf-8"))


@functools.cache
def coastline() -> dict:
    return json.loads(COASTLINE_FILE.read_text(encoding="utf-8"))


def _projected(ring: Iterable[Sequence[float]]) -> Ring:
    return tuple(project(latitude, longitude) for longitude, latitude in ring)


@functools.cache
def land() -> tuple[Ring, ...]:
    """Every land mass in the frame (countries merged), in map units."""
    return tuple(_projected(ring) for ring in coastline()["land"])


@functools.cache
def countries() -> dict[str, tuple[Ring, ...]]:
    """Each country's outline, coarse: only to look up which country a point is in."""
    return {
        name: tuple(_projected(ring) for ring in rings)
        for name, rings in coastline()["countries"].items()
    }


def _bounds(ring: Sequence[Point]) -> tuple[float, float, float, float]:
    xs, ys = zip(*ring, strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


@functools.cache
def _land_index() -> tuple[tuple[Ring, tuple, geometry.SegmentIndex], ...]:
    return tuple((ring, _bounds(ring), geometry.SegmentIndex(ring)) for ring in land())


def on_land(point: Point) -> bool:
    return any(_in_ring(ring, box, point) for ring, box, _ in _land_index())


def _in_ring(ring: Ring, box: tuple, point: Point) -> bool:
    """Whether the point lies in the ring, whose bounds are `box`: the bounds first, being
    cheap, since most rings asked about lie elsewhere."""
    x, y = point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3] and geometry.contains(ring, point)


def distance_to_coast(point: Point) -> float:
    x, y = point
    return min(
        geometry.distance_to_ring(ring, point)
        for ring, box, _ in _land_index()
        if box[0] - 60 <= x <= box[2] + 60 and box[1] - 60 <= y <= box[3] + 60
    )


def well_on_land(point: Point) -> bool:
    return on_land(point) and distance_to_coast(point) >= LAND_MARGIN


# ---- where the cities are drawn -------------------------------------------------------------


def _onto_land(point: Point) -> Point:
    """The point itself if it is well on land, else the nearest such point (a city on a lagoon
    or a cape that the coast's simplification cut off is drawn on the shore beside it)."""
    if well_on_land(point):
        return point
    x, y = point
    candidates = sorted(
        ((x + dx / 2, y + dy / 2) for dx in range(-40, 41) for dy in range(-40, 41)),
        key=lambda near: (math.dist(near, point), near),
    )
    return next(near for near in candidates if well_on_land(near))


@functools.cache
def city_points() -> dict[str, Point]:
    """Where each city is drawn: its real place projected, moved onto land if the coast's
    simplification left it at sea, then pushed apart from any city nearer than MIN_SPACING
    (Messina and Reggio face each other across the strait, Pisa, Lucca and Livorno are a few
    kilometres apart) and off any road it is not on by ROAD_CLEARANCE (Saluzzo lies by the
    Torino-Nizza road): a few units each way, so every spot has room for its pieces and
    no road seems to pass through a city."""
    real = {name: project(*CITY_COORDINATES[name]) for name in board()["cities"]}
    points = {name: _onto_land(point) for name, point in real.items()}
    for _ in range(80):
        moved = _spread(points, real)
        moved = _clear_roads(points, real) or moved
        if not moved:
            break
    return {name: (round(x, 1), round(y, 1)) for name, (x, y) in points.items()}


def _unit(a: Point, b: Point) -> Point:
    length = math.dist(a, b) or 1.0
    return ((b[0] - a[0]) / length, (b[1] - a[1]) / length)


def _slid(point: Point, step: Point) -> Point | None:
    """The point moved by step, or by step turned up to 60 degrees either way (a city on the
    coast slides along it); None if every such move ends at sea."""
    for degrees in (0, 30, -30, 60, -60):
        turn = math.radians(degrees)
        dx = step[0] * math.cos(turn) - step[1] * math.sin(turn)
        dy = step[0] * math.sin(turn) + step[1] * math.cos(turn)
        moved = (point[0] + dx, point[1] + dy)
        if well_on_land(moved):
            return moved
    return None


def _spread(points: dict[str, Point], real: dict[str, Point]) -> bool:
    """Push apart each pair nearer than MIN_SPACING, along the bearing of their real places
    (so no two cities ever swap sides); a city that would go to sea stays, the other moves."""
    names = sorted(points)
    moved = False
    for index, first in enumerate(names):
        for second in names[index + 1 :]:
            a, b = points[first], points[second]
            gap = math.dist(a, b)
            if gap >= MIN_SPACING:
                continue
            ux, uy = _unit(real[first], real[second])
            along = (b[0] - a[0]) * ux + (b[1] - a[1]) * uy
            push = max(MIN_SPACING - along, MIN_SPACING - gap, 0) / 2 + 0.01
            new_a = _slid(a, (-ux * push, -uy * push))
            new_b = _slid(b, (ux * push, uy * push))
            if new_a and new_b:
                points[first], points[second] = new_a, new_b
            elif new_a or new_b:  # the other would go to sea: this one moves the whole way
                if new_a:
                    new_a = _slid(a, (-2 * ux * push, -2 * uy * push))
                    points[first] = new_a or points[first]
                else:
                    new_b = _slid(b, (2 * ux * push, 2 * uy * push))
                    points[second] = new_b or points[second]
            else:
                continue
            moved = True
    return moved


def _clear_roads(points: dict[str, Point], real: dict[str, Point]) -> bool:
    """Push each city off the roads it is not on, towards the side its real place is on."""
    moved = False
    for name in sorted(points):
        for first, second in board()["roads"]:
            if name in (first, second):
                continue
            a, b, here = points[first], points[second], points[name]
            gap = geometry.distance_to_segment(here, a, b)
            if gap >= ROAD_CLEARANCE:
                continue
            dx, dy = _unit(a, b)
            normal = (-dy, dx)
            true_a, true_here = real[first], real[name]
            offset = (true_here[0] - true_a[0]) * normal[0] + (true_here[1] - true_a[1]) * normal[1]
            side = 1 if offset >= 0 else -1
            push = ROAD_CLEARANCE - gap + 0.01
            new = (here[0] + side * normal[0] * push, here[1] + side * normal[1] * push)
            if well_on_land(new):
                points[name] = new
                moved = True
    return moved


# ---- sharing the land out -------------------------------------------------------------------


@functools.cache
def seeds() -> tuple[tuple[Point, str, str, int | None], ...]:
    """(point, owner label, group, land mass) of every seed: the cities, then the helpers."""
    cities = board()["cities"]
    found = [
        (city_points()[name], cities[name]["province"], CITY_GROUP.get(name, "Italy"))
        for name in sorted(cities)
    ]
    for latitude, longitude, owner, group in HELPER_SEEDS:
        found.append((project(latitude, longitude), owner or OUTSIDE + group, group))
    return tuple((point, owner, group, land_mass_of(point)) for point, owner, group in found)


def _row_crossings(rings: Iterable[Ring], y: float) -> list[float]:
    xs = []
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
            if (y1 > y) != (y2 > y):
                xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return sorted(xs)


def _grid_range() -> tuple[range, range]:
    return (
        range(-PAD, math.ceil(HEIGHT / CELL) + PAD),
        range(-PAD, math.ceil(WIDTH / CELL) + PAD),
    )


def _scan(rings: Sequence[Ring]) -> dict[Cell, int]:
    """The cells whose centre lies inside each ring (even-odd, row by row): cell -> index of
    the first ring found holding it."""
    rows, columns = _grid_range()
    found: dict[Cell, int] = {}
    for index, ring in enumerate(rings):
        for row in rows:
            xs = _row_crossings([ring], (row + 0.5) * CELL)
            for start, end in zip(xs[::2], xs[1::2], strict=True):
                first = max(columns.start, math.ceil(start / CELL - 0.5))
                last = min(columns.stop - 1, math.floor(end / CELL - 0.5))
                for column in range(first, last + 1):
                    found.setdefault((row, column), index)
    return found


@functools.cache
def country_cells() -> dict[Cell, str]:
    """The country under each cell's centre, for the cells of land."""
    names, rings = [], []
    for name, outline in sorted(countries().items()):
        for ring in outline:
            names.append(name)
            rings.append(ring)
    return {cell: names[index] for cell, index in _scan(rings).items()}


@functools.cache
def land_mass_cells() -> dict[Cell, int]:
    """The land mass (index in land()) under each cell's centre."""
    return _scan(land())


def land_mass_of(point: Point) -> int | None:
    return next(
        (index for index, ring in enumerate(land()) if geometry.contains(ring, point)), None
    )


def land_owner(point: Point, country: str, mass: int | None) -> str:
    """Who owns a point of land in a country: the province (or outside label) of the nearest
    seed of the country's group on the same land mass (Sicily's land goes to Sicily's cities,
    however near Reggio stands), or of the whole group on an island with no seed (Elba goes
    to Piombino); a country of no group is outside the game."""
    group = GROUP_OF_COUNTRY.get(country)
    if group is None:
        return OUTSIDE + country
    candidates = [
        (seed, owner) for seed, owner, seed_group, seed_mass in seeds() if seed_group == group
    ]
    same_mass = [
        (seed, owner)
        for seed, owner, seed_group, seed_mass in seeds()
        if seed_group == group and mass is not None and seed_mass == mass
    ]
    return min(same_mass or candidates, key=lambda item: (math.dist(item[0], point), item[1]))[1]


def _components(labels: dict[Cell, str]) -> list[tuple[str, set[Cell]]]:
    """Each label's 4-connected pieces."""
    seen: set[Cell] = set()
    pieces = []
    for cell in sorted(labels):
        if cell in seen:
            continue
        label, piece, stack = labels[cell], set(), [cell]
        seen.add(cell)
        while stack:
            row, column = stack.pop()
            piece.add((row, column))
            for near in (
                (row - 1, column),
                (row + 1, column),
                (row, column - 1),
                (row, column + 1),
            ):
                if near not in seen and labels.get(near) == label:
                    seen.add(near)
                    stack.append(near)
        pieces.append((label, piece))
    return pieces


def _absorb_enclosed(labels: dict[Cell, str]) -> dict[Cell, str]:
    """A piece wholly surrounded by one other label (an enclave such as Campione d'Italia, a
    speck of land) would be a hole in that label's outline: it takes the surrounding label,
    unless a city stands in it (then the test that each city lies in its province fails)."""
    city_cells = {(math.floor(y / CELL), math.floor(x / CELL)) for x, y in city_points().values()}
    changed = True
    while changed:
        changed = False
        for _label, piece in _components(labels):
            if piece & city_cells:
                continue
            around = set()
            for row, column in piece:
                for near in (
                    (row - 1, column),
                    (row + 1, column),
                    (row, column - 1),
                    (row, column + 1),
                ):
                    if near not in piece:
                        around.add(labels.get(near))
            if len(around) == 1 and None not in around:
                (other,) = around
                for cell in piece:
                    labels[cell] = other
                changed = True
                break
    return labels


@functools.cache
def cell_labels() -> dict[Cell, str]:
    """Every cell of the grid labelled: province (or outside label) of its land, then the sea
    after the nearest land; each label's separate pieces are told apart by '#n' (a province
    on an island and the mainland, outside land in France and in Sardinia...)."""
    rows, columns = _grid_range()
    masses = land_mass_cells()
    land_labels = {
        cell: land_owner(
            ((cell[1] + 0.5) * CELL, (cell[0] + 0.5) * CELL), country, masses.get(cell)
        )
        for cell, country in country_cells().items()
    }
    everywhere = [(row, column) for row in rows for column in columns]
    filled = _absorb_enclosed(partition.nearest_fill(land_labels, everywhere))
    counts: dict[str, int] = defaultdict(int)
    result: dict[Cell, str] = {}
    for label, piece in _components(filled):
        counts[label] += 1
        for cell in piece:
            result[cell] = f"{label}#{counts[label]}"
    return result


def label_owner(label: str) -> str:
    """The province (or outside label) of a cell label, without its piece number."""
    return label.rsplit("#", 1)[0]


# ---- shapes and borders ---------------------------------------------------------------------


@functools.cache
def outlines() -> dict[str, tuple[Point, ...]]:
    """Each label's smoothed outline, in map units, before the coast cuts it."""
    smooth = partition.smooth_outlines(cell_labels())
    return {label: tuple((x * CELL, y * CELL) for x, y in ring) for label, ring in smooth.items()}


def rounded_ring(ring: Iterable[Point]) -> Ring:
    """Tenths of a unit, repeated points dropped: both sides of a border round alike."""
    points: list[Point] = []
    for x, y in ring:
        point = (round(x, 1) + 0.0, round(y, 1) + 0.0)
        if not points or points[-1] != point:
            points.append(point)
    while len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return tuple(points)


def _cut_by_land(outline: Sequence[Point]) -> list[Ring]:
    """The parts of an outline on land."""
    box = _bounds(outline)
    pieces = []
    for ring, ring_box, index in _land_index():
        if ring_box[0] > box[2] or ring_box[2] < box[0]:
            continue
        if ring_box[1] > box[3] or ring_box[3] < box[1]:
            continue
        try:
            cut = geometry.intersection(outline, ring, index)
        except ValueError:
            # A vertex exactly on the coast: a nudge far below what the eye sees.
            cut = geometry.intersection([(x + 1e-4, y + 7e-5) for x, y in outline], ring, index)
        pieces.extend(piece for piece in cut if abs(geometry.signed_area(piece)) >= SLIVER_AREA)
    return [rounded_ring(piece) for piece in pieces]


@functools.cache
def province_shapes() -> dict[str, tuple[Ring, ...]]:
    """Each province as drawn: the land nearest its cities, cut by the real coast; one ring
    per piece (a province with islands has several), largest first."""
    shapes: dict[str, list[Ring]] = defaultdict(list)
    for label, outline in sorted(outlines().items()):
        owner = label_owner(label)
        if owner.startswith(OUTSIDE):
            continue
        shapes[owner].extend(_cut_by_land(outline))
    return {
        name: tuple(sorted(rings, key=lambda ring: -abs(geometry.signed_area(ring))))
        for name, rings in shapes.items()
    }


@functools.cache
def border_curves() -> tuple[tuple[str, str, tuple[Point, ...]], ...]:
    """Every smoothed curve between two labels (owner, owner, points in map units): the same
    curves the outlines are made of (partition's own border chaining and smoothing)."""
    labels = cell_labels()
    graph = partition._boundary_edges(labels)  # the very curves the outlines use
    found = []
    for line in partition._border_polylines(graph):
        sides = _sides_of(line[0], line[1], labels)
        if sides is None:
            continue
        curve = partition._smoothed(line)
        found.append((*sides, tuple((x * CELL, y * CELL) for x, y in curve)))
    return tuple(found)


def _sides_of(a: tuple[int, int], b: tuple[int, int], labels: dict[Cell, str]):
    """The owners of the two cells either side of the cell edge from corner a to corner b."""
    (x1, y1), (x2, y2) = a, b
    if y1 == y2:  # horizontal edge: cells above and below
        column = min(x1, x2)
        cells = ((y1 - 1, column), (y1, column))
    else:
        row = min(y1, y2)
        cells = ((row, x1 - 1), (row, x1))
    first, second = labels.get(cells[0]), labels.get(cells[1])
    if first is None or second is None:
        return None
    return label_owner(first), label_owner(second)


def clip_to_land(line: Sequence[Point]) -> list[list[Point]]:
    """The stretches of a polyline that run over land."""
    pieces: list[list[Point]] = []
    current: list[Point] = []
    for a, b in zip(line, line[1:], strict=False):
        cuts = [0.0, 1.0]
        for ring, ring_box, index in _land_index():
            if max(a[0], b[0]) < ring_box[0] or min(a[0], b[0]) > ring_box[2]:
                continue
            if max(a[1], b[1]) < ring_box[1] or min(a[1], b[1]) > ring_box[3]:
                continue
            for j in index.near(a, b):
                c, d = ring[j], ring[(j + 1) % len(ring)]
                t = _segment_parameter(a, b, c, d)
                if t is not None:
                    cuts.append(t)
        cuts.sort()
        for t1, t2 in zip(cuts, cuts[1:], strict=False):
            if t2 - t1 < 1e-9:
                continue
            p = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            q = (a[0] + (b[0] - a[0]) * t2, a[1] + (b[1] - a[1]) * t2)
            middle = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            if on_land(middle):
                if not current:
                    current = [p]
                current.append(q)
            elif current:
                pieces.append(current)
                current = []
    if current:
        pieces.append(current)
    return [piece for piece in pieces if _length(piece) > 1.0]


def _segment_parameter(a: Point, b: Point, c: Point, d: Point) -> float | None:
    """How far along ab (0 to 1) it meets cd, ends included. Not geometry._crossing: that one
    counts only proper crossings and refuses a vertex lying on the other outline, where a
    border cut here must take a touch as a cut."""
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    denominator = rx * sy - ry * sx
    if denominator == 0:
        return None
    t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / denominator
    u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / denominator
    return t if 0 <= t <= 1 and 0 <= u <= 1 else None


def _length(line: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(line, line[1:], strict=False))


@functools.cache
def borders() -> tuple[tuple[str, str, tuple[Point, ...]], ...]:
    """The borders drawn on land: (owner, owner, polyline) where the province changes, the
    owners sorted; a province's edge against land outside the game counts, a line between two
    pieces of outside land does not."""
    found = []
    for first, second, curve in border_curves():
        if first == second or (first.startswith(OUTSIDE) and second.startswith(OUTSIDE)):
            continue
        pair = tuple(sorted((first, second)))
        for piece in clip_to_land(curve):
            found.append((*pair, rounded_ring(piece)))
    return tuple(found)


def province_of_point(point: Point) -> str | None:
    """The province whose drawn shape holds the point (None at sea or outside the game)."""
    for name, rings in _province_index():
        if any(_in_ring(ring, box, point) for ring, box in rings):
            return name
    return None


@functools.cache
def _province_index() -> tuple[tuple[str, tuple[tuple[Ring, tuple], ...]], ...]:
    """province_shapes() with each ring's bounds: the label search asks of tens of thousands of
    points, and a point outside a ring's box is outside the ring."""
    return tuple(
        (name, tuple((ring, _bounds(ring)) for ring in rings))
        for name, rings in province_shapes().items()
    )


def neighbouring_provinces() -> dict[str, set[str]]:
    """Provinces sharing a border on land."""
    found: dict[str, set[str]] = defaultdict(set)
    for first, second, _ in borders():
        if not first.startswith(OUTSIDE) and not second.startswith(OUTSIDE):
            found[first].add(second)
            found[second].add(first)
    return found
