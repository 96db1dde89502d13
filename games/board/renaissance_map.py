"""The Renaissance board picture: an SVG map of Italy around 1454 with the 31 provinces, 59 cities
and 92 roads of games/renaissance/data/board.json, drawn on Italy's real coastline.

The geometry (projection, land, where each city is drawn, provinces and borders) is in
games/board_data/renaissance_shapes.py; this module places the names and writes the SVG, whose
layers, classes and data-* attributes the Renaissance table's client relies on (docs/renaissance/
map.md, "The picture"). Standard library only, deterministic:

    .venv/bin/python -m games.board.renaissance_map > static/board/renaissance.svg

Pages read that committed file (renaissance_svg()); a test keeps it equal to the generator's.
"""

import functools
import itertools
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from games.board.map import _tag  # one XML element, as the Condottiere board writes them
from games.board_data import geometry
from games.board_data import renaissance_shapes as shapes

SVG_FILE = Path(__file__).resolve().parents[2] / "static" / "board" / "renaissance.svg"

WIDTH, HEIGHT = shapes.WIDTH, shapes.HEIGHT

# Sizes in map units. The table shows the whole map about 570 px wide at 1280x800 (a unit is
# about 0.57 px): city names are as large as the crowded north leaves room for, each near its spot.
SPOT_RADIUS = 8
# The client draws a garrison as a disc of this radius over the spot, fortifications as rings
# out to about 19 units, a palace and a pillage mark above either side (static/js/renaissance/
# board.js): names and anchors keep clear of the disc, and of the rings where they can.
PIECE_RADIUS = 11
CITY_FONT_SIZE = 15
CITY_FONT_WEIGHT = 600
PROVINCE_FONT_SIZE = 10
PROVINCE_LINE_HEIGHT = 11.5
# Province names stay in the file's serif italic (the table's CSS restyles only city names),
# a fifth narrower than the letter widths below allow for a sans-serif face.
SERIF_WIDTH = 0.85
# How far from the middle of its cities a province's name may go when it fits nowhere inside,
# nearest first.
FALLBACK_REACHES = (55, 90, 140)
PROVINCE_LINE_LENGTH = 16  # characters before a province's name goes on two lines
FONT_FAMILY = "Georgia, 'Times New Roman', serif"

# Default colours, as presentation attributes: any page CSS overrides them.
SEA_COLOUR = "#c9dbe0"
SHORE_COLOUR = "#b3cad2"
OUTSIDE_COLOUR = "#e4e0d8"
OUTSIDE_EDGE_COLOUR = "#bdb5a6"
PROVINCE_TINTS = ("#f2e6c4", "#e6d4a2", "#e3e5c2", "#f0d9c0", "#ead7b6")
BORDER_COLOUR = "#a3372b"  # the rulebook's provinces are "bordered in red on land"
ROAD_COLOUR = "#7a5c3a"
SPOT_FILL = "#fffaf0"
INK = "#2e2418"
PROVINCE_INK = "#5c4630"
HALO = "#f6efdc"

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # min x, min y, max x, max y


# ---- the data, in board.json's order --------------------------------------------------------


def cities() -> dict[str, dict]:
    return shapes.board()["cities"]


def provinces() -> dict[str, dict]:
    return shapes.board()["provinces"]


def roads() -> list[tuple[str, str]]:
    return [tuple(pair) for pair in shapes.board()["roads"]]


def city_point(name: str) -> Point:
    return shapes.city_points()[name]


# ---- boxes ----------------------------------------------------------------------------------


def overlaps(first: Box, second: Box) -> bool:
    return (
        first[0] < second[2]
        and second[0] < first[2]
        and first[1] < second[3]
        and second[1] < first[3]
    )


def spot_box(name: str, margin: float = 0.0) -> Box:
    x, y = city_point(name)
    reach = SPOT_RADIUS + margin
    return (x - reach, y - reach, x + reach, y + reach)


def anchor_box(name: str) -> Box:
    """Where a port's anchor is drawn: against the spot, lower left."""
    x, y = anchor_centre(name)
    return (x - 5, y - 5.5, x + 5, y + 5.5)


@functools.cache
def anchor_centre(name: str) -> Point:
    """A port's anchor stands against its spot on the side of the sea: the direction (in steps
    of 45 degrees) nearest the mean direction in which the sea lies 18 units away."""
    x, y = city_point(name)
    sea_x = sea_y = 0.0
    for step in range(32):
        angle = 2 * math.pi * step / 32
        dx, dy = math.cos(angle), math.sin(angle)
        if not shapes.on_land((x + 18 * dx, y + 18 * dy)):
            sea_x, sea_y = sea_x + dx, sea_y + dy
    if sea_x == sea_y == 0:
        sea_x, sea_y = -1.0, 1.0
    angle = round(math.atan2(sea_y, sea_x) / (math.pi / 4)) * math.pi / 4
    reach = PIECE_RADIUS + 5
    return (round(x + reach * math.cos(angle), 1), round(y + reach * math.sin(angle), 1))


# Widths of letters in ems, generous for the faces a page may use (the file's serif, Georgia,
# Times or DejaVu Serif; the table's CSS sets city names in the system's sans-serif, as wide as
# DejaVu Sans semi-bold): names are placed with these, the browser's measure being unknown here.
NARROW_LETTERS = frozenset("fijlrtI'.,: ")
WIDE_LETTERS = frozenset("mwMW")


def text_width(text: str, font_size: float) -> float:
    ems = sum(
        0.42
        if letter in NARROW_LETTERS
        else 1.1
        if letter in WIDE_LETTERS
        else 0.86
        if letter.isupper()
        else 0.7
        for letter in text
    )
    return ems * font_size


def city_label_box(name: str, x: float, y: float, anchor: str) -> Box:
    """The box a city's name covers, written at (x, y), vertically centred, anchored."""
    width = text_width(name, CITY_FONT_SIZE)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    half = CITY_FONT_SIZE * 0.5 + 0.5
    return (left, y - half, left + width, y + half)


def _segment_hits_box(a: Point, b: Point, box: Box) -> bool:
    return geometry.segment_crosses_box(a, b, box)


# ---- city names -----------------------------------------------------------------------------

# Where a name may go around its spot: (dx, dy, anchor), most wanted first.
_SIDE = PIECE_RADIUS + 3  # from the spot's centre to the near end of a name beside it
_ABOVE = PIECE_RADIUS + 8  # from the spot's centre to the middle of a name above or below it
LABEL_CANDIDATES = (
    (_SIDE, 0, "start"),
    (-_SIDE, 0, "end"),
    (0, _ABOVE, "middle"),
    (0, -_ABOVE, "middle"),
    (_SIDE - 4, _ABOVE - 5, "start"),
    (-(_SIDE - 4), _ABOVE - 5, "end"),
    (_SIDE - 4, -(_ABOVE - 5), "start"),
    (-(_SIDE - 4), -(_ABOVE - 5), "end"),
)
FARTHER = (0, 6, 12, 20)  # extra distance tried when every candidate near the spot is taken


def _box_distance(box: Box, point: Point) -> float:
    x, y = point
    return math.hypot(x - min(max(x, box[0]), box[2]), y - min(max(y, box[1]), box[3]))


def _nearer_another(name: str, box: Box) -> bool:
    """Whether another city's spot is about as near the name as its own (a reader might take
    the name for that city's)."""
    own = _box_distance(box, city_point(name))
    return any(
        _box_distance(box, city_point(other)) < own + 4 for other in cities() if other != name
    )


def _crowding(name: str) -> int:
    here = city_point(name)
    return sum(1 for other in cities() if math.dist(here, city_point(other)) < 70)


Candidate = tuple[float, tuple[float, float, str], Box]  # (cost, (x, y, anchor), box)


@functools.cache
def _label_candidates(name: str) -> tuple[Candidate, ...]:
    """Every place the city's name may go, clear of the frame's edge, of every spot (with the
    garrison the client draws on it) and of every anchor, with its cost: the less wanted the
    place (beside, then below or above, then farther out), the more roads the name crosses, and
    whether another city is about as near (a reader might take the name for that city's)."""
    obstacles = [spot_box(other, PIECE_RADIUS - SPOT_RADIUS + 1) for other in cities()]
    obstacles += [anchor_box(other) for other, city in cities().items() if city["port"]]
    segments = [(city_point(a), city_point(b)) for a, b in roads()]
    x, y = city_point(name)
    found = []
    for extra in FARTHER:
        for rank, (dx, dy, anchor) in enumerate(LABEL_CANDIDATES):
            at = (
                x + (math.copysign(abs(dx) + extra, dx) if dx else 0),
                y + (math.copysign(abs(dy) + extra, dy) if dy else 0),
            )
            box = city_label_box(name, *at, anchor)
            if not _clear(box, obstacles):
                continue
            crossings = sum(1 for a, b in segments if _segment_hits_box(a, b, box))
            cost = rank + extra + 4 * crossings + 6 * _nearer_another(name, box)
            found.append((cost, (round(at[0], 1), round(at[1], 1), anchor), box))
    return tuple(sorted(found, key=lambda candidate: candidate[:2]))


def _cheapest(candidates: list[Candidate], taken: list[Box]) -> float:
    """The cost of the cheapest candidate clear of the taken boxes (a large one if none is)."""
    return next(
        (cost for cost, _, box in candidates if not any(overlaps(box, t) for t in taken)), 1000.0
    )


@functools.cache
def city_labels() -> dict[str, tuple[float, float, str]]:
    """Each city's name as (x, y, anchor). One name at a time, the city with the fewest places
    left first; it takes the place that costs least, counting what it costs the cities near it
    whose names are still to place (the best place each of them would lose): so Verona's name
    does not take the only room Padova's has."""
    candidates = {name: list(_label_candidates(name)) for name in cities()}
    placed: dict[str, tuple[float, float, str]] = {}
    taken: list[Box] = []
    while len(placed) < len(candidates):
        free = {
            name: [c for c in options if not any(overlaps(c[2], box) for box in taken)]
            for name, options in candidates.items()
            if name not in placed
        }
        name = min(free, key=lambda n: (len(free[n]), -_crowding(n), n))
        if not free[name]:
            raise ValueError(f"no room for the name of {name}")
        here = city_point(name)
        near = [o for o in free if o != name and math.dist(here, city_point(o)) < 160]
        before = {other: _cheapest(free[other], []) for other in near}

        def total(candidate: Candidate, free=free, near=near, before=before) -> float:
            return candidate[0] + sum(
                _cheapest(free[other], [candidate[2]]) - before[other] for other in near
            )

        best = min(free[name], key=lambda candidate: (total(candidate), candidate[1]))
        placed[name] = best[1]
        taken.append(best[2])
    return {name: placed[name] for name in cities()}


# ---- province names -------------------------------------------------------------------------


def province_lines(name: str) -> list[str]:
    """A province's name on as few lines as keep each within PROVINCE_LINE_LENGTH letters (at
    most three), split between words so that the longest line is as short as can be."""
    words = name.split(" ")
    best = [name]
    for count in (1, 2, 3):
        if count > len(words):
            break
        splits = [
            [" ".join(words[i:j]) for i, j in zip((0, *cuts), (*cuts, len(words)), strict=True)]
            for cuts in itertools.combinations(range(1, len(words)), count - 1)
        ]
        best = min(splits, key=lambda lines: (max(len(line) for line in lines), lines))
        if max(len(line) for line in best) <= PROVINCE_LINE_LENGTH:
            break
    return best


def province_label_box(name: str, centre: Point) -> Box:
    lines = province_lines(name)
    width = max(text_width(line, PROVINCE_FONT_SIZE) for line in lines) * SERIF_WIDTH
    height = len(lines) * PROVINCE_LINE_HEIGHT
    x, y = centre
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


def _lattice(box: Box, step: float) -> list[Point]:
    return [
        (column * step, row * step)
        for row in range(math.ceil(box[1] / step), math.floor(box[3] / step) + 1)
        for column in range(math.ceil(box[0] / step), math.floor(box[2] / step) + 1)
    ]


@functools.cache
def province_labels() -> dict[str, Point]:
    """Each province's name centre, the smallest provinces first (they have least room):
    inside one of its pieces where the whole name fits clear of every city (spot, anchor,
    name) and of the roads where it can, away from the border, nearest the middle of its
    cities; where it fits nowhere inside, the nearest place clear of the cities and of other
    names, over its own land or the sea where it can, and in the frame."""
    obstacles: list[Box] = [spot_box(name, 3) for name in cities()]
    obstacles += [anchor_box(name) for name, city in cities().items() if city["port"]]
    obstacles += [city_label_box(name, *city_labels()[name]) for name in cities()]
    segments = [(city_point(a), city_point(b)) for a, b in roads()]
    placed: dict[str, Point] = {}
    for name in sorted(provinces(), key=lambda name: (_land_area(name), name)):
        spots = [city_point(city) for city in provinces()[name]["cities"]]
        centre = (sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots))
        inside = sorted(
            (
                (math.dist(point, centre), point, ring)
                for ring in shapes.province_shapes()[name]
                for point in _lattice(_ring_bounds(ring), 3)
            ),
            key=lambda item: item[:2],
        )
        best = None
        for distance, point, ring in inside:
            if best is not None and distance - 2 * BORDER_ROOM > best[0]:
                break  # nothing farther can score better
            box = province_label_box(name, point)
            if not _clear(box, obstacles) or not geometry.box_inside(ring, _grown(box, 1.5)):
                continue
            crossings = sum(1 for a, b in segments if _segment_hits_box(a, b, box))
            room = min(BORDER_ROOM, _room(ring, box))
            score = distance + ROAD_PENALTY * crossings - 2 * room
            if best is None or score < best[0]:
                best = (score, point, box)
        for reach in FALLBACK_REACHES:
            if best is not None:
                break
            # Too small for its name: as near its cities as it can, mostly over its own land or
            # the sea, over few roads (the name's halo keeps it legible over a road or a border).
            near = _lattice(
                (centre[0] - reach, centre[1] - reach, centre[0] + reach, centre[1] + reach), 3
            )
            for point in near:
                box = province_label_box(name, point)
                if not _clear(box, obstacles):
                    continue
                crossings = sum(1 for a, b in segments if _segment_hits_box(a, b, box))
                foreign = _foreign_samples(name, box)
                away = shapes.province_of_point(point) != name
                score = math.dist(point, centre) + 12 * crossings + 6 * foreign + 30 * away
                if best is None or score < best[0]:
                    best = (score, point, box)
        if best is None:
            raise ValueError(f"no room for the name of {name}")
        placed[name] = best[1]
        obstacles.append(best[2])
    return {name: placed[name] for name in provinces()}


def _land_area(province: str) -> float:
    """The province's land in square units: the smallest are named first, having least room."""
    return sum(abs(geometry.signed_area(ring)) for ring in shapes.province_shapes()[province])


# A province's name keeps off roads (each one it crosses counts as this many units farther from
# the province's middle) and, up to BORDER_ROOM units, away from the province's edge.
ROAD_PENALTY = 200
BORDER_ROOM = 12


def _room(ring: Sequence[Point], box: Box) -> float:
    """How far the box's corners and the middles of its sides are from the ring's outline."""
    (left, top, right, bottom), middle_x, middle_y = (
        box,
        (box[0] + box[2]) / 2,
        (box[1] + box[3]) / 2,
    )
    points = [
        (left, top), (middle_x, top), (right, top), (right, middle_y),
        (right, bottom), (middle_x, bottom), (left, bottom), (left, middle_y),
    ]  # fmt: skip
    return min(geometry.distance_to_ring(ring, point) for point in points)


def _ring_bounds(ring: Sequence[Point]) -> Box:
    xs, ys = zip(*ring, strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


def _clear(box: Box, obstacles: list[Box]) -> bool:
    """Inside the frame and over none of the obstacles."""
    if box[0] < 2 or box[1] < 2 or box[2] > WIDTH - 2 or box[3] > HEIGHT - 2:
        return False
    return not any(overlaps(box, other) for other in obstacles)


def _foreign_samples(name: str, box: Box) -> int:
    """How many of 15 points spread over the box lie on land that is not the province's (read
    off the sharing-out grid, which is fine enough to choose between places)."""
    labels, masses = shapes.cell_labels(), shapes.land_mass_cells()
    count = 0
    for i in range(5):
        for j in range(3):
            x = box[0] + (box[2] - box[0]) * i / 4
            y = box[1] + (box[3] - box[1]) * j / 2
            cell = (math.floor(y / shapes.CELL), math.floor(x / shapes.CELL))
            if cell in masses and shapes.label_owner(labels[cell]) != name:
                count += 1
    return count


def _grown(box: Box, margin: float) -> Box:
    return (box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)


# ---- tints ----------------------------------------------------------------------------------


@functools.cache
def province_tints() -> dict[str, int]:
    """A tint per province so that neighbours differ (greedy colouring, board.json's order)."""
    neighbours = shapes.neighbouring_provinces()
    tints: dict[str, int] = {}
    for name in provinces():
        used = {tints[other] for other in neighbours.get(name, ()) if other in tints}
        tints[name] = next(tint for tint in range(len(PROVINCE_TINTS)) if tint not in used)
    return tints


# ---- SVG ------------------------------------------------------------------------------------


def _number(value: float) -> str:
    return f"{round(value, 1) + 0.0:g}"


def path_data(rings: Iterable[Iterable[Point]], closed: bool = True) -> str:
    parts = []
    for ring in rings:
        points = [f"{_number(x)} {_number(y)}" for x, y in ring]
        parts.append("M" + " L".join(points) + (" Z" if closed else ""))
    return " ".join(parts)


def _layer(name: str, children: Iterable[str]) -> str:
    body = "\n".join(children)
    return _tag("g", {"data-layer": name}, f"\n{body}\n" if body else "")


def land_layer() -> list[str]:
    """The sea, then all the land in the muted colour of land outside the game (the provinces
    are drawn over their part of it). The land's stroke, painted under its fill, leaves a band of
    deeper water along every shore: the coast reads at a glance."""
    all_land = [shapes.rounded_ring(ring) for ring in shapes.land()]
    sea = _tag("rect", {"class": "rn-sea", "width": WIDTH, "height": HEIGHT, "fill": SEA_COLOUR})
    land = _tag(
        "path",
        {
            "class": "rn-land",
            "d": path_data(all_land),
            "fill": OUTSIDE_COLOUR,
            "stroke": SHORE_COLOUR,
            "stroke-width": 6,
            "stroke-linejoin": "round",
            "paint-order": "stroke",
        },
    )
    return [sea, land]


def province_group(name: str) -> str:
    tint = province_tints()[name]
    shape = _tag(
        "path",
        {
            "class": "rn-province__shape",
            "d": path_data(shapes.province_shapes()[name]),
            "fill": PROVINCE_TINTS[tint],
        },
    )
    return _tag(
        "g",
        {
            "class": f"rn-province rn-province--tint-{tint}",
            "data-province": name,
            "data-sea": int(provinces()[name]["sea"]),
        },
        shape,
    )


def border_paths() -> list[str]:
    inner, edge = [], []
    for first, second, line in shapes.borders():
        outer = first.startswith(shapes.OUTSIDE) or second.startswith(shapes.OUTSIDE)
        (edge if outer else inner).append(line)
    return [
        _tag(
            "path",
            {
                "class": "rn-border rn-border--edge",
                "d": path_data(edge, closed=False),
                "fill": "none",
                "stroke": OUTSIDE_EDGE_COLOUR,
                "stroke-width": 1.2,
                "stroke-linejoin": "round",
                "stroke-linecap": "round",
            },
        ),
        _tag(
            "path",
            {
                "class": "rn-border",
                "d": path_data(inner, closed=False),
                "fill": "none",
                "stroke": BORDER_COLOUR,
                "stroke-width": 1.3,
                "stroke-opacity": 0.75,
                "stroke-linejoin": "round",
                "stroke-linecap": "round",
            },
        ),
    ]


def crosses_sea(first: str, second: str) -> bool:
    """Whether a road joins two different land masses (none does in board.json today)."""

    def mass(name: str) -> int:
        point = city_point(name)
        return next(
            index for index, ring in enumerate(shapes.land()) if geometry.contains(ring, point)
        )

    return mass(first) != mass(second)


def road_line(first: str, second: str) -> str:
    (x1, y1), (x2, y2) = city_point(first), city_point(second)
    attributes = {
        "class": "rn-road" + (" rn-road--sea" if crosses_sea(first, second) else ""),
        "data-a": first,
        "data-b": second,
        "x1": _number(x1),
        "y1": _number(y1),
        "x2": _number(x2),
        "y2": _number(y2),
        "stroke": ROAD_COLOUR,
        "stroke-width": 1.6,
        "stroke-linecap": "round",
    }
    if crosses_sea(first, second):
        attributes["stroke-dasharray"] = "5 4"
    return _tag("line", attributes)


def province_label(name: str) -> str:
    x, y = province_labels()[name]
    lines = province_lines(name)
    top = y - (len(lines) - 1) * PROVINCE_LINE_HEIGHT / 2
    spans = "".join(
        _tag(
            "tspan",
            {"x": _number(x), "y": _number(top + index * PROVINCE_LINE_HEIGHT)},
            escape(line),
        )
        for index, line in enumerate(lines)
    )
    return _tag(
        "text",
        {
            "class": "rn-province-name",
            "data-province": name,
            "text-anchor": "middle",
            "dominant-baseline": "central",
            "font-family": FONT_FAMILY,
            "font-size": PROVINCE_FONT_SIZE,
            "font-style": "italic",
            "letter-spacing": 0.3,
            "fill": PROVINCE_INK,
            "stroke": HALO,
            "stroke-width": 2,
            "stroke-opacity": 0.8,
            "paint-order": "stroke",
            "pointer-events": "none",
        },
        spans,
    )


def terrain_mark(name: str, terrain: str) -> str:
    """A mark inside the spot that needs no colour: a peak for mountain, reed tufts for marsh."""
    x, y = city_point(name)
    if terrain == "mountain":
        d = (
            f"M{_number(x - 4.6)} {_number(y + 3)} L{_number(x)} {_number(y - 4.2)}"
            f" L{_number(x + 4.6)} {_number(y + 3)} Z"
        )
        return _tag("path", {"class": "rn-city__terrain", "d": d, "fill": INK})
    if terrain == "marsh":
        tufts = []
        for dx in (-3.2, 0, 3.2):
            bx, by = x + dx, y + 3.4
            tufts.append(
                f"M{_number(bx)} {_number(by)} L{_number(bx)} {_number(by - 6)}"
                f" M{_number(bx)} {_number(by)} L{_number(bx - 1.6)} {_number(by - 4.2)}"
                f" M{_number(bx)} {_number(by)} L{_number(bx + 1.6)} {_number(by - 4.2)}"
            )
        return _tag(
            "path",
            {
                "class": "rn-city__terrain",
                "d": " ".join(tufts),
                "fill": "none",
                "stroke": INK,
                "stroke-width": 1,
                "stroke-linecap": "round",
            },
        )
    return ""


def port_mark(name: str) -> str:
    """An anchor against the spot's lower left."""
    x, y = anchor_centre(name)
    d = (
        f"M{_number(x)} {_number(y - 3.6)} L{_number(x)} {_number(y + 4.2)}"
        f" M{_number(x - 2.6)} {_number(y - 1.6)} L{_number(x + 2.6)} {_number(y - 1.6)}"
        f" M{_number(x - 4)} {_number(y + 1.2)}"
        f" Q{_number(x - 3.4)} {_number(y + 4.6)} {_number(x)} {_number(y + 4.2)}"
        f" Q{_number(x + 3.4)} {_number(y + 4.6)} {_number(x + 4)} {_number(y + 1.2)}"
        f" M{_number(x)} {_number(y - 5.2)} m-1.4 0 a1.4 1.4 0 1 0 2.8 0 a1.4 1.4 0 1 0 -2.8 0"
    )
    return _tag(
        "path",
        {
            "class": "rn-city__port",
            "d": d,
            "fill": "none",
            "stroke": INK,
            "stroke-width": 1.2,
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
        },
    )


def city_group(name: str) -> str:
    city = cities()[name]
    x, y = city_point(name)
    label_x, label_y, anchor = city_labels()[name]
    parts = [
        _tag(
            "circle",
            {
                "class": "rn-city__spot",
                "cx": _number(x),
                "cy": _number(y),
                "r": SPOT_RADIUS,
                "fill": SPOT_FILL,
                "stroke": INK,
                "stroke-width": 1.6,
            },
        ),
        terrain_mark(name, city["terrain"]),
        port_mark(name) if city["port"] else "",
        _tag(
            "text",
            {
                "class": "rn-city__name",
                "x": _number(label_x),
                "y": _number(label_y),
                "text-anchor": anchor,
                "dominant-baseline": "central",
                "font-family": FONT_FAMILY,
                "font-size": CITY_FONT_SIZE,
                "font-weight": CITY_FONT_WEIGHT,
                "fill": INK,
                "stroke": HALO,
                "stroke-width": 3,
                "stroke-linejoin": "round",
                "paint-order": "stroke",
                "pointer-events": "none",
            },
            escape(name),
        ),
        _tag("g", {"class": "rn-city__pieces"}, ""),
    ]
    return _tag(
        "g",
        {
            "class": "rn-city",
            "data-city": name,
            "data-x": _number(x),
            "data-y": _number(y),
            "data-terrain": city["terrain"],
            "data-coastal": int(city["coastal"]),
            "data-port": int(city["port"]),
        },
        "".join(part for part in parts if part),
    )


@functools.cache
def render_renaissance_svg() -> str:
    """The whole board as SVG text, layers in the contract's order (docs/renaissance/map.md)."""
    title = _tag("title", {"id": "rn-map-title"}, "Italia 1454")
    layers = [
        _layer("land", land_layer()),
        _layer("provinces", (province_group(name) for name in provinces())),
        _layer("borders", border_paths()),
        _layer("roads", (road_line(a, b) for a, b in roads())),
        _layer("labels", (province_label(name) for name in provinces())),
        _layer("cities", (city_group(name) for name in cities())),
        _layer("overlay", ()),
    ]
    attributes = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {WIDTH} {HEIGHT}",
        "class": "rn-map",
        "role": "img",
        "aria-labelledby": "rn-map-title",
    }
    body = "\n".join([title, *layers])
    return _tag("svg", attributes, f"\n{body}\n") + "\n"


@functools.cache
def renaissance_svg() -> str:
    """The board as committed in static/board/renaissance.svg (a test keeps it equal to
    render_renaissance_svg()): pages read the file rather than redo the geometry."""
    return SVG_FILE.read_text(encoding="utf-8")


if __name__ == "__main__":
    sys.stdout.write(render_renaissance_svg())
