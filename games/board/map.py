"""The board picture: an SVG map of Italy whose regions border exactly as the rules say.

The 17 regions are painted on a coarse grid kept as text below, one character a cell. Borders
are derived from shared cell edges, so a test can compare them with the rules' borders and the
picture can never disagree with the engine. The picture itself is drawn on Italy's real
coastline (games/board_data/coastline.json, from Natural Earth): the borders between regions are
smoothed curves following the grid (games/board_data/partition.py), and each region's shape is
cut by the real coast and national border (games/board_data/geometry.py).

Standard library only (no Django, no engine import), so `python -m games.board.map` can write
`static/board/board.svg` anywhere; pages read that committed file (board_svg()). See
docs/board-map.md for the pipeline and for how to edit the grid safely.
"""

import functools
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from games.board_data import geometry, partition

# One character a cell. '.' is sea, ':' is land outside the game (France, Switzerland, Austria,
# Slovenia, Croatia, Corsica, Sardinia); every other letter is a region (see REGION_OF_LETTER).
# Painted by projecting each city's latitude and longitude linearly (project() below), growing
# regions around the cities, then edited by hand until the derived borders equal the rulings.
GRID = """
:::::::::::::::::::::::::::VVVVVVVVVVVVVVVVV::::::::::::::::::::
::::::::::::::::::::::::::VVVVVVVVVVVVVVVVVVVVVVVVV:::::::::::::
:::::::::::MM::::::MMM:::VVVVVVVVVVVVVVVVVVVVVVVVVV:::::::::::::
:::::::::::MMM::::MMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
::::::::::TMMM::::MMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
::::::::::TMMMM::MMMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
:::::::::TTTMMMMMMMMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
:::TTTTTTTTTMMMMMMMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
::TTTTTTTTTTMMMMMMMMMMVVVVVVVVVVVVVVVVVVVVVVVVVVVV::::::::::::::
::TTTTTTTTTTMMMMMMMMMMVVVVVVVVVVVVVVVVVVVVVVV....VV:::::::::::::
::TTTTTTTTTTMMMMMMMMMMMMMMMVVVVVVVVVVVVVVVVV.....VV:::::::::::::
:::TTTTTTTTTMMMMMMMMMMMMMMMMVVVVVVVVVVVVVV.......:::::::::::::::
:::TTTTTTTTTMMMMMMMMMMMMMMMMAAAAAVVVVVVVV........:::::::::::::::
:::TTTTTTTTTTMMMMMMMMMMMMMMMAAAAAVVVVVVVV........:::::..::::::::
:::TTTTTTTTTTMMMMMMMMMMMMMMAAAAAAVVVVVVVV.........::::...:::::::
::TTTTTTTTTTTMMMMMMMMMMMMMDAAAAAAFVVVVVVV.........::::....::::::
:TTTTTTTTTTTTTMMMMMMMMMMMRDAAAAAAFFFFVVVVV........::::.....:::::
:TTTTTTTTTTTTTMMMMMMMMMMRRDDDDDDDFFFFFFFVV.........::.......::::
:TTTTTTTTTTTTTMMMMMMMMMRRRRRDDDDDFFFFFFFF...................::::
:TTTTTTTTTTTTGGGGGGGGMRRRRRRRDDDDBFFFFFFF...................::::
::TTTTTTTTTTGGGGGGGGGGRRRRRRDDDDBBBBBBBBB...................::::
::TTTTTTTTTGGGGGGGGGGGRRRRRDDDDDBBBBBBBBB....................:::
::TTTTTTTTGGGGGGGGGGGGRRRRDDDDDDBBBBBBBBB....................:::
::::TTTTTGGGG......GGGRRRRDDDDDDBBBBBBBBB.....................::
::::::TTGGGG.........RRRRRDDDDDIIIBBBBBBBB....................::
:::::::GGGGG...........RRRLLDIIIIIIIBBBBBB.....................:
:::::::GGG..............RLLLLLLIIIIIIBBBBUUU...................:
::::::GG.................LLLLLLIIIIIIIBUUUUUU...................
::::::G...................LLLLLIIIIIIIUUUUUUUUC.................
:::::.....................LLLLLIIIIIIIIUUUUUUUCC................
::::......................LLLLIIIIIIIIIUUUUUUCCCCC..............
::.........................IIIISSSSIIIIIUUUUUCCCCC..............
...........................IIIISSSSIIIIIIUUUUCCCCCC.............
............................IISSSSSIIIIIIIUUPCCCCCC.............
............................IISSSSSIIIIIIIPPPPCCCCC.............
............................IISSSSSIIIIIIIPPPPCCCCCC............
...................:........SSSSSSSIIIIIIIPPPPPPNNNN............
..................::........SSSSSSSIIIIIIPPPPPPPNNNN............
.................:::..........SSSSSSIIOOOPPPPPPPNNNNN...........
................::::...........SSSSSOOOOOPPPPPPPNNNNN...........
...............:::::...........SSSSOOOOOOPPPPPPPNNNNNN..........
...............::::::...........SSSOOOOOOOPPPPPNNNNNNN..........
..............:::::::............SSOOOOOOOOPPPPNNNNNNNN.........
..............:::::::.............OOOOOOOOOOPPPNNNNNNNNN........
..............:::::::...............OOOOOOOOOOONNNNNNNNNN.......
..............:::::::................OOOOOOOOOONNNNNNNNNNN......
..............:::::::.................OOOOOOOOOONNNNNNNNNNNN....
..............:::::::..................OOOOOOOOOONNNNNNNNNNNNNNN
...............:::::....................OOOOOOOOONNNNNNNNNNNNNNN
...............:::::.....................OOOOOOOONNNNNNNNNNNNNNN
...............::::.......................OOOOOOONNNNNNNNNNNNNNN
................:::........................OOOOOONNNNNNNNNNNNNNN
.................::.........................OOOOONNNNNNNNNNNNNNN
.............................................OOOONNNNNNNNNNNNNNN
..................:.............................NNNNNNNNNNNNNNNN
.................:::..............................NNNNNNNNNNNNNN
............::..:::::...............................NNNNNNNNNNNN
...........:::::::::::...............................NNNNNNNNNNN
...........:::::::::::.................................NNNNNNNNN
...........:::::::::::.................................NNNNNNNNN
...........:::::::::::.................................NNN..NNNN
...........:::::::::::......................................NNNN
............:::::::::::......................................NNN
"""

SEA = "."
FOREIGN_LAND = ":"

REGION_OF_LETTER = {
    "T": "Torino",
    "M": "Milano",
    "V": "Venezia",
    "G": "Genova",
    "A": "Mantova",
    "F": "Ferrara",
    "R": "Parma",
    "D": "Modena",
    "B": "Bologna",
    "L": "Lucca",
    "I": "Firenze",
    "S": "Siena",
    "U": "Urbino",
    "C": "Ancona",
    "P": "Spoleto",
    "O": "Roma",
    "N": "Napoli",
}

# Real city centres (latitude, longitude in degrees, WGS84), from the project's cities.json.
# They place the labels; the grid itself was drawn around them.
CITY_COORDINATES = {
    "Torino": (45.07, 7.69),
    "Milano": (45.46, 9.19),
    "Venezia": (45.44, 12.33),
    "Genova": (44.41, 8.93),
    "Mantova": (45.16, 10.79),
    "Ferrara": (44.84, 11.62),
    "Parma": (44.80, 10.33),
    "Modena": (44.65, 10.93),
    "Bologna": (44.49, 11.34),
    "Lucca": (43.84, 10.50),
    "Firenze": (43.77, 11.25),
    "Siena": (43.32, 11.33),
    "Urbino": (43.73, 12.64),
    "Ancona": (43.62, 13.52),
    "Spoleto": (42.73, 12.74),
    "Roma": (41.90, 12.50),
    "Napoli": (40.85, 14.27),
}

# Grid row 0 lies at NORTH_EDGE, column 0 at WEST_EDGE; a degree of latitude is CELLS_PER_DEGREE
# rows, a degree of longitude is that many columns shrunk by cos(44°) so shapes keep their aspect.
NORTH_EDGE = 46.65
WEST_EDGE = 6.65
CELLS_PER_DEGREE = 10.0
LONGITUDE_SHRINK = math.cos(math.radians(44.0))

CELL = 10  # SVG user units per grid cell

COASTLINE_FILE = Path(__file__).resolve().parents[1] / "board_data" / "coastline.json"
BOARD_FILE = Path(__file__).resolve().parents[2] / "static" / "board" / "board.svg"

SEA_COLOUR = "#c9dbe0"
SHORE_COLOUR = "#b3cad2"
FOREIGN_COLOUR = "#e2ddd2"
LAND_COLOUR = "#efe2bf"
FOREIGN_BORDER_COLOUR = "#b9b1a1"
BORDER_COLOUR = "#4a3b28"
LABEL_COLOUR = "#2e2418"

Cell = tuple[int, int]  # (row, column)
Point = tuple[float, float]  # (x, y) in SVG units


@functools.cache
def grid_rows() -> tuple[str, ...]:
    """The grid's rows, all the same width."""
    rows = tuple(line for line in GRID.splitlines() if line.strip())
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(f"grid rows differ in width: {sorted(widths)}")
    return rows


@functools.cache
def region_cells() -> dict[str, frozenset[Cell]]:
    """Each region's name mapped to the set of its (row, column) cells."""
    cells: dict[str, set[Cell]] = {name: set() for name in REGION_OF_LETTER.values()}
    for row, line in enumerate(grid_rows()):
        for column, letter in enumerate(line):
            if letter in (SEA, FOREIGN_LAND):
                continue
            if letter not in REGION_OF_LETTER:
                raise ValueError(f"unknown letter {letter!r} at row {row}, column {column}")
            cells[REGION_OF_LETTER[letter]].add((row, column))
    return {name: frozenset(found) for name, found in cells.items()}


def region_at(cell: Cell) -> str | None:
    """The region holding a cell, or None for sea, foreign land and cells off the grid."""
    row, column = cell
    rows = grid_rows()
    if not (0 <= row < len(rows) and 0 <= column < len(rows[0])):
        return None
    return REGION_OF_LETTER.get(rows[row][column])


@functools.cache
def derived_adjacency() -> dict[str, frozenset[str]]:
    """Borders read off the grid: two regions border when two of their cells share an edge.

    Cells touching only at a corner do not make a border, as on the printed board.
    """
    neighbours: dict[str, set[str]] = {name: set() for name in REGION_OF_LETTER.values()}
    for name, cells in region_cells().items():
        for row, column in cells:
            for other_cell in ((row + 1, column), (row, column + 1)):
                other = region_at(other_cell)
                if other is not None and other != name:
                    neighbours[name].add(other)
                    neighbours[other].add(name)
    return {name: frozenset(found) for name, found in neighbours.items()}


LETTER_OF_REGION = {name: letter for letter, name in REGION_OF_LETTER.items()}

# The drawing grid reaches this many cells past the frame on each side, so that region outlines
# run on past the land's cut edges (which lie just outside the picture) and cross them cleanly.
PAD = 2
SLIVER_AREA = CELL * CELL / 4  # square SVG units


@functools.cache
def coastline() -> dict:
    """The land, cut from Natural Earth by games/board_data/extract_coastline.py."""
    return json.loads(COASTLINE_FILE.read_text(encoding="utf-8"))


def _projected(ring: list[list[float]]) -> tuple[Point, ...]:
    return tuple(project(latitude, longitude) for longitude, latitude in ring)


@functools.cache
def mainland() -> tuple[Point, ...]:
    """Italy's mainland in SVG units: the land the regions share out between them."""
    return _projected(coastline()["italy_mainland"])


@functools.cache
def other_land() -> tuple[tuple[Point, ...], ...]:
    """The land outside the game: neighbouring countries and the islands (Sardinia, Elba...)."""
    return tuple(_projected(ring) for ring in coastline()["other_land"])


@functools.cache
def _mainland_index() -> geometry.SegmentIndex:
    return geometry.SegmentIndex(mainland())


@functools.cache
def drawing_outlines() -> dict[str, tuple[Point, ...]]:
    """Each region's smoothed outline in SVG units, before the coast cuts it.

    Drawn over the grid widened by PAD, where every sea or foreign cell takes the letter of the
    nearest region cell, so the regions cover all of the real mainland, wherever the grid's coarse
    coast lies. Only for drawing: borders and adjacency come from the region cells alone, and the
    tests check that the cells added at sea never make two regions touch on land.
    """
    rows, columns = len(grid_rows()), len(grid_rows()[0])
    labels = {cell: name for name, cells in region_cells().items() for cell in cells}
    everywhere = [
        (row, column) for row in range(-PAD, rows + PAD) for column in range(-PAD, columns + PAD)
    ]
    outlines = partition.smooth_outlines(partition.nearest_fill(labels, everywhere))
    return {name: tuple((x * CELL, y * CELL) for x, y in ring) for name, ring in outlines.items()}


def _rounded(ring: list[Point]) -> tuple[Point, ...]:
    """Tenths of a unit: both sides of a border round the same points the same way."""
    points: list[Point] = []
    for x, y in ring:
        point = (round(x, 1) + 0.0, round(y, 1) + 0.0)  # + 0.0 turns -0.0 into 0.0
        if not points or points[-1] != point:
            points.append(point)
    while len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return tuple(points)


@functools.cache
def region_outline(name: str) -> tuple[Point, ...]:
    """The region as drawn, in SVG units: its smoothed outline cut by Italy's real coast and
    national border. Slivers where a wiggle of the coast crosses a border (under SLIVER_AREA)
    are dropped: the mainland drawn beneath shows there. Raises ValueError if the coast cuts
    the region into pieces worth seeing."""
    cut = geometry.intersection(drawing_outlines()[name], mainland(), _mainland_index())
    pieces = [piece for piece in cut if abs(geometry.signed_area(piece)) >= SLIVER_AREA]
    if len(pieces) != 1:
        sizes = sorted(round(abs(geometry.signed_area(piece))) for piece in pieces)
        raise ValueError(f"{name} is cut into {len(pieces)} pieces on land, areas {sizes}")
    return _rounded(pieces[0])


def _path_data(rings: Iterable[Iterable[Point]]) -> str:
    subpaths = []
    for ring in rings:
        points = [f"{x:g} {y:g}" for x, y in ring]
        subpaths.append("M " + " L ".join(points) + " Z")
    return " ".join(subpaths)


def region_path(name: str) -> str:
    """The SVG path data (`d`) of a region: one closed outline."""
    return _path_data([region_outline(name)])


def project(latitude: float, longitude: float) -> Point:
    """A place on the map, in SVG units: the grid's projection (row 0 at NORTH_EDGE...)."""
    x = (longitude - WEST_EDGE) * LONGITUDE_SHRINK * CELLS_PER_DEGREE * CELL
    y = (NORTH_EDGE - latitude) * CELLS_PER_DEGREE * CELL
    return (x, y)


def unproject(point: Point) -> tuple[float, float]:
    """The (longitude, latitude) of a map point, the inverse of project."""
    x, y = point
    longitude = WEST_EDGE + x / (LONGITUDE_SHRINK * CELLS_PER_DEGREE * CELL)
    latitude = NORTH_EDGE - y / (CELLS_PER_DEGREE * CELL)
    return (longitude, latitude)


def frame_size() -> tuple[int, int]:
    """The map's width and height in SVG units: the grid's."""
    return (len(grid_rows()[0]) * CELL, len(grid_rows()) * CELL)


def city_point(name: str) -> Point:
    """The city's real position projected onto the map, in SVG units."""
    return project(*CITY_COORDINATES[name])


# The size and weight the game page's CSS gives names (static/css/game.css, .region-name: 12px
# semi-bold; in the SVG a px is a map unit), so the file alone looks as the page does. Narrow
# screens get 14px bold there, on a map drawn wider than the screen: names may then touch a border.
LABEL_FONT_SIZE = 12
LABEL_FONT_WEIGHT = 600
LABEL_CHARACTER_WIDTH = 0.56 * LABEL_FONT_SIZE  # a generous average for a semi-bold serif face
MARKER_RADIUS = 6  # the largest piece the client is expected to draw at a marker point
MARKER_DEPTH = CELL  # how far inside its region a piece is drawn, where the region allows


def _label_half_size(name: str) -> tuple[float, float]:
    """Half the width and height of the name as drawn, with a little air around it."""
    return (len(name) * LABEL_CHARACTER_WIDTH / 2 + 2, 0.5 * LABEL_FONT_SIZE + 1)


def label_box(name: str, centre: Point, margin: float = 0.0) -> tuple[float, float, float, float]:
    """The rectangle (min x, min y, max x, max y) the name covers when written at centre."""
    half_width, half_height = _label_half_size(name)
    x, y = centre
    return (
        x - half_width - margin,
        y - half_height - margin,
        x + half_width + margin,
        y + half_height + margin,
    )


def _lattice(ring: Iterable[Point], step: float) -> list[Point]:
    """Points every step units over the ring's bounding box."""
    xs, ys = zip(*ring, strict=True)
    return [
        (column * step, row * step)
        for row in range(math.ceil(min(ys) / step), math.floor(max(ys) / step) + 1)
        for column in range(math.ceil(min(xs) / step), math.floor(max(xs) / step) + 1)
    ]


@functools.cache
def label_position(name: str) -> Point:
    """Where a region's name is written: the point nearest its city (on a half-cell lattice)
    where the whole name fits inside the region's shape; failing that, the lattice point
    inside the shape nearest the city."""
    ring = region_outline(name)
    city = city_point(name)
    candidates = sorted(_lattice(ring, CELL / 2), key=lambda point: math.dist(point, city))
    for point in candidates:
        if geometry.box_inside(ring, label_box(name, point)):
            return point
    return next(point for point in candidates if geometry.contains(ring, point))


@functools.cache
def marker_position(name: str) -> Point:
    """Where the client draws whatever sits on the region: a control marker, the Condottiere
    token or the Pope token (at most one of them at a time, by the rules). A point of the
    shape clear of the name and, where the region is wide enough, MARKER_DEPTH from its
    border, as near as possible to just below the name."""
    ring = region_outline(name)
    label = label_position(name)
    name_area = label_box(name, label, MARKER_RADIUS)
    target = (label[0], label[1] + 1.8 * CELL)
    candidates = sorted(
        (
            point
            for point in _lattice(ring, CELL / 2)
            if geometry.contains(ring, point)
            and not (
                name_area[0] < point[0] < name_area[2] and name_area[1] < point[1] < name_area[3]
            )
        ),
        key=lambda point: math.dist(point, target),
    )
    for depth in (MARKER_DEPTH, MARKER_RADIUS + 1):
        for point in candidates:
            if geometry.distance_to_ring(ring, point) >= depth:
                return point
    return max(candidates, key=lambda point: geometry.distance_to_ring(ring, point))


def _tag(name: str, attributes: dict[str, object], content: str | None = None) -> str:
    """One XML element, its attribute values escaped; self-closing when it has no content."""
    written = "".join(f" {key}={quoteattr(str(value))}" for key, value in attributes.items())
    if content is None:
        return f"<{name}{written}/>"
    return f"<{name}{written}>{content}</{name}>"


def _region_group(name: str) -> str:
    label_x, label_y = label_position(name)
    marker_x, marker_y = marker_position(name)
    shape = _tag(
        "path",
        {
            "class": "region-shape",
            "d": region_path(name),
            "fill": LAND_COLOUR,
            "stroke": BORDER_COLOUR,
            "stroke-width": 1.1,
            "stroke-linejoin": "round",
        },
    )
    label = _tag(
        "text",
        {
            "class": "region-name",
            "x": f"{label_x:g}",
            "y": f"{label_y:g}",
            "text-anchor": "middle",
            "dominant-baseline": "central",
            "font-family": "Georgia, 'Times New Roman', serif",
            "font-size": f"{LABEL_FONT_SIZE:g}",
            "font-weight": LABEL_FONT_WEIGHT,
            "fill": LABEL_COLOUR,
            # A halo in the land colour keeps the name legible where it crosses a border.
            "stroke": LAND_COLOUR,
            "stroke-width": 2.5,
            "paint-order": "stroke",
            "pointer-events": "none",
        },
        escape(name),
    )
    group = {
        "class": "region",
        "id": f"region-{name}",
        "data-region": name,
        "tabindex": 0,
        "role": "button",
        "aria-label": name,
        "data-marker-x": f"{marker_x:g}",
        "data-marker-y": f"{marker_y:g}",
    }
    return _tag("g", group, shape + label)


@functools.cache
def render_board_svg() -> str:
    """The whole board as SVG text: sea, the land outside the game, the mainland under the
    regions (so no sea shows at a seam), then one focusable group per region, in the rulings'
    order.

    Colours are presentation attributes, so page CSS can restyle regions (owner, hover,
    focus) without fighting the file. No width or height: it scales to its container. No
    English text either: the page that shows it names it, through its translations.
    """
    width, height = frame_size()
    sea = _tag("rect", {"class": "sea", "width": width, "height": height, "fill": SEA_COLOUR})
    all_land = [_rounded(list(ring)) for ring in (*other_land(), mainland())]
    # A band of deeper water along every shore, under the land: the coast reads at a glance.
    shore = _tag(
        "path",
        {
            "class": "shore",
            "d": _path_data(all_land),
            "fill": "none",
            "stroke": SHORE_COLOUR,
            "stroke-width": 6,
            "stroke-linejoin": "round",
        },
    )
    foreign_land = _tag(
        "path",
        {
            "class": "foreign-land",
            "d": _path_data(_rounded(list(ring)) for ring in other_land()),
            "fill": FOREIGN_COLOUR,
            "stroke": FOREIGN_BORDER_COLOUR,
            "stroke-width": 0.6,
            "stroke-linejoin": "round",
        },
    )
    mainland_under = _tag(
        "path",
        {"class": "mainland", "d": _path_data([_rounded(list(mainland()))]), "fill": LAND_COLOUR},
    )
    regions = "\n".join(_region_group(name) for name in REGION_OF_LETTER.values())
    regions_layer = _tag("g", {"class": "regions"}, f"\n{regions}\n")
    svg_attributes = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {width} {height}",
        "class": "board-map",
    }
    content = f"\n{sea}\n{shore}\n{foreign_land}\n{mainland_under}\n{regions_layer}\n"
    return _tag("svg", svg_attributes, content) + "\n"


@functools.cache
def board_svg() -> str:
    """The board as committed in static/board/board.svg (a test keeps it equal to
    render_board_svg()): pages read the file rather than redo the geometry."""
    return BOARD_FILE.read_text(encoding="utf-8")


if __name__ == "__main__":
    sys.stdout.write(render_board_svg())
