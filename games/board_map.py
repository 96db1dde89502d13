"""The board picture: an SVG map of Italy whose regions border exactly as the rules say.

The 17 regions are painted on a coarse grid kept as text below, one character a cell. Borders
are derived from shared cell edges, so a test can compare them with the rules' borders and the
picture can never disagree with the engine. Each region's cells are merged into one SVG path by
tracing the outline of their union.

Standard library only (no Django, no engine import), so `python -m games.board_map` can write
`static/board/board.svg` anywhere. See docs/board-map.md for how to edit the grid safely.
"""

import functools
import math
import sys
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

# One character a cell. '.' is sea, ':' is land outside the game (France, Switzerland, Austria,
# Slovenia, Croatia, Corsica, Sardinia); every other letter is a region (see REGION_OF_LETTER).
# Painted by projecting each city's latitude and longitude linearly (PROJECTION below), growing
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
::::......................LLLLIIIIIIIIIUUUUUUUCCCC..............
::.........................IIIISSSSIIIIIUUUUUUCCCC..............
...........................IIIISSSSIIIIIIUUUUUCCCCC.............
............................IISSSSSIIIIIIIUUPPCCCCC.............
............................IISSSSSIIIIIIIPPPPPCCCC.............
............................IISSSSSIIIIIIIPPPPPCCCCC............
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

SEA_COLOUR = "#c9dbe0"
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


def outline_loops(cells: Iterable[Cell]) -> list[list[Point]]:
    """The outline of a union of cells as closed loops of corner points, in grid units.

    Every cell side not shared with another cell of the set is a boundary edge, oriented
    clockwise on screen (the cells on its right). Chaining edges end to start gives closed
    loops; holes come out turning the other way, so an even-odd fill draws them right.
    """
    cell_set = frozenset(cells)
    edges: dict[Point, list[Point]] = {}
    for row, column in cell_set:
        corners = ((column, row), (column + 1, row), (column + 1, row + 1), (column, row + 1))
        beyond = ((row - 1, column), (row, column + 1), (row + 1, column), (row, column - 1))
        for side, neighbour in enumerate(beyond):
            if neighbour not in cell_set:
                edges.setdefault(corners[side], []).append(corners[(side + 1) % 4])
    loops = []
    while edges:
        start = min(edges)  # deterministic output, so the committed SVG is stable
        loops.append(_merge_collinear(_walk_loop(edges, start)))
    return loops


def _walk_loop(edges: dict[Point, list[Point]], start: Point) -> list[Point]:
    """Follow boundary edges from start until back at start, consuming them."""
    loop = [start]
    previous, here = None, start
    while True:
        choices = edges[here]
        # Two cells of the set touching only at a corner give that corner two ways out;
        # taking the sharpest right turn keeps each touching lobe its own simple loop.
        following = choices[0] if len(choices) == 1 else _sharpest_right(previous, here, choices)
        choices.remove(following)
        if not choices:
            del edges[here]
        previous, here = here, following
        if here == start:
            return loop
        loop.append(here)


def _sharpest_right(previous: Point | None, here: Point, choices: list[Point]) -> Point:
    if previous is None:
        return min(choices)
    incoming = (here[0] - previous[0], here[1] - previous[1])

    def right_turn_first(point: Point) -> int:
        outgoing = (point[0] - here[0], point[1] - here[1])
        cross = incoming[0] * outgoing[1] - incoming[1] * outgoing[0]
        return -cross  # y points down on screen, so a right turn has a positive cross product

    return min(choices, key=right_turn_first)


def _merge_collinear(loop: list[Point]) -> list[Point]:
    """Drop repeated points and points on a straight run, keeping only the turns."""
    points = list(loop)
    index = 0
    while index < len(points) and len(points) > 2:
        before, here, after = points[index - 1], points[index], points[(index + 1) % len(points)]
        cross = (here[0] - before[0]) * (after[1] - here[1]) - (here[1] - before[1]) * (
            after[0] - here[0]
        )
        if here == before or cross == 0:
            del points[index]
            index = max(index - 1, 0)  # the point before may have become straight too
        else:
            index += 1
    return points


def _letters_around(vertex: Point) -> tuple[str | None, ...]:
    """The letters of the four cells meeting at a grid corner (None off the grid)."""
    x, y = int(vertex[0]), int(vertex[1])
    rows = grid_rows()
    around = ((y - 1, x - 1), (y - 1, x), (y, x - 1), (y, x))
    return tuple(
        rows[row][column] if 0 <= row < len(rows) and 0 <= column < len(rows[0]) else None
        for row, column in around
    )


def _bevel_coast(loop: list[Point], letter: str) -> list[Point]:
    """Cut each coastal corner of a loop at 45 degrees, so stairs of cells read as a coast.

    Only corners where this letter meets nothing but sea are cut: a corner shared with another
    region or foreign land stays square, so borders stay exactly where the cells put them.
    Cutting half a cell either side of a corner keeps every cell centre on its own side.
    """
    bevelled: list[Point] = []
    for index, here in enumerate(loop):
        around = _letters_around(here)
        if None in around or len(set(around)) != 2 or around.count(letter) == 2:
            bevelled.append(here)
            continue
        for neighbour in (loop[index - 1], loop[(index + 1) % len(loop)]):
            step_x = (neighbour[0] > here[0]) - (neighbour[0] < here[0])
            step_y = (neighbour[1] > here[1]) - (neighbour[1] < here[1])
            bevelled.append((here[0] + step_x / 2, here[1] + step_y / 2))
    return _merge_collinear(bevelled)


def _path_data(cells: Iterable[Cell], letter: str) -> str:
    subpaths = []
    for loop in outline_loops(cells):
        points = [f"{x * CELL:g} {y * CELL:g}" for x, y in _bevel_coast(loop, letter)]
        subpaths.append("M " + " L ".join(points) + " Z")
    return " ".join(subpaths)


LETTER_OF_REGION = {name: letter for letter, name in REGION_OF_LETTER.items()}


def region_path(name: str) -> str:
    """The SVG path data (`d`) of a region's outline, one closed subpath per loop, with its
    coastal corners bevelled."""
    return _path_data(region_cells()[name], LETTER_OF_REGION[name])


def city_point(name: str) -> Point:
    """The city's real position projected onto the map, in SVG units."""
    latitude, longitude = CITY_COORDINATES[name]
    x = (longitude - WEST_EDGE) * LONGITUDE_SHRINK * CELLS_PER_DEGREE * CELL
    y = (NORTH_EDGE - latitude) * CELLS_PER_DEGREE * CELL
    return (x, y)


def _cell_of(point: Point) -> Cell:
    return (math.floor(point[1] / CELL), math.floor(point[0] / CELL))


def _nearest_cell_centre(cells: Iterable[Cell], target: Point) -> Point:
    centres = (((column + 0.5) * CELL, (row + 0.5) * CELL) for row, column in sorted(cells))
    return min(centres, key=lambda centre: math.dist(centre, target))


LABEL_FONT_SIZE = 10.5
LABEL_CHARACTER_WIDTH = 0.55 * LABEL_FONT_SIZE  # a generous average for a serif face
MARKER_RADIUS = 6  # the largest piece the client is expected to draw at a marker point


def _label_half_size(name: str) -> tuple[float, float]:
    """Half the width and height of the name as drawn, with a little air around it."""
    return (len(name) * LABEL_CHARACTER_WIDTH / 2 + 3, 0.5 * LABEL_FONT_SIZE + 1)


def _label_box_fits(cells: frozenset[Cell], centre: Point, name: str) -> bool:
    """Whether the name, written centred on centre, stays inside the region's cells."""
    half_width, half_height = _label_half_size(name)
    first_row, last_row = (
        math.floor((centre[1] + dy) / CELL) for dy in (-half_height, half_height)
    )
    columns = (math.floor((centre[0] + dx) / CELL) for dx in (-half_width, half_width))
    first_column, last_column = columns
    return all(
        (row, column) in cells
        for row in range(first_row, last_row + 1)
        for column in range(first_column, last_column + 1)
    )


@functools.cache
def label_position(name: str) -> Point:
    """Where a region's name is written: the point nearest its city (on a half-cell lattice)
    where the whole name fits inside the region; failing that, at the city when the city lies
    inside the region, else at the centre of the region's cell nearest the city."""
    cells = region_cells()[name]
    city = city_point(name)
    half = CELL / 2
    lattice = (
        (column * CELL + dx, row * CELL + dy)
        for row, column in sorted(cells)
        for dx in (0, half)
        for dy in (0, half)
    )
    fitting = [point for point in lattice if _label_box_fits(cells, point, name)]
    if fitting:
        return min(fitting, key=lambda point: math.dist(point, city))
    if _cell_of(city) in cells:
        return (round(city[0], 1), round(city[1], 1))
    return _nearest_cell_centre(cells, city)


def _is_deep(cells: frozenset[Cell], cell: Cell) -> bool:
    """Whether all eight cells around this one are in the set too, so a piece drawn on its
    centre stays clear of the region's border."""
    row, column = cell
    return all((row + dr, column + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))


@functools.cache
def marker_position(name: str) -> Point:
    """Where the client draws whatever sits on the region: a control marker, the Condottiere
    token or the Pope token (at most one of them at a time, by the rules). The centre of a
    region cell clear of the name and, where the region is wide enough, of its border, as near
    as possible to just below the name."""
    label_x, label_y = label_position(name)
    half_width, half_height = _label_half_size(name)
    cells = region_cells()[name]
    clear_of_name = [
        (row, column)
        for row, column in cells
        if abs((column + 0.5) * CELL - label_x) >= half_width + MARKER_RADIUS
        or abs((row + 0.5) * CELL - label_y) >= half_height + MARKER_RADIUS
    ]
    deep_and_clear = [cell for cell in clear_of_name if _is_deep(cells, cell)]
    candidates = deep_and_clear or clear_of_name or cells
    return _nearest_cell_centre(candidates, (label_x, label_y + 1.8 * CELL))


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


def _foreign_cells() -> list[Cell]:
    return [
        (row, column)
        for row, line in enumerate(grid_rows())
        for column, letter in enumerate(line)
        if letter == FOREIGN_LAND
    ]


@functools.cache
def board_svg() -> str:
    """The whole board as SVG text: sea, foreign land, then one focusable group per region,
    in the rulings' order.

    Colours are presentation attributes, so page CSS can restyle regions (owner, hover,
    focus) without fighting the file. No width or height: it scales to its container. No
    English text either: the page that shows it names it, through its translations.
    """
    width, height = len(grid_rows()[0]) * CELL, len(grid_rows()) * CELL
    sea = _tag("rect", {"class": "sea", "width": width, "height": height, "fill": SEA_COLOUR})
    foreign_land = _tag(
        "path",
        {
            "class": "foreign-land",
            "d": _path_data(_foreign_cells(), FOREIGN_LAND),
            "fill": FOREIGN_COLOUR,
            "stroke": FOREIGN_BORDER_COLOUR,
            "stroke-width": 0.6,
            "stroke-linejoin": "round",
            "fill-rule": "evenodd",
        },
    )
    regions = "\n".join(_region_group(name) for name in REGION_OF_LETTER.values())
    regions_layer = _tag("g", {"class": "regions", "fill-rule": "evenodd"}, f"\n{regions}\n")
    svg_attributes = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {width} {height}",
        "class": "board-map",
    }
    return _tag("svg", svg_attributes, f"\n{sea}\n{foreign_land}\n{regions_layer}\n") + "\n"


if __name__ == "__main__":
    sys.stdout.write(board_svg())
