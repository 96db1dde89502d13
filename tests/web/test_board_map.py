"""The board picture agrees with the rules: 17 regions, and exactly the rulings' 34 borders.

The borders below are the table of docs/rulings.md ("The board"), copied verbatim, so the map is
checked against the rules themselves and, separately, against the engine's ADJACENCY.
"""

import functools
import itertools
import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from games.board import map as board_map

ROOT = Path(__file__).resolve().parents[2]
SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"

RULINGS_BORDERS = """
Ancona:  Napoli, Spoleto, Urbino
Bologna: Ferrara, Firenze, Modena, Urbino
Ferrara: Bologna, Mantova, Modena, Venezia
Firenze: Bologna, Lucca, Modena, Roma, Siena, Spoleto, Urbino
Genova:  Milano, Parma, Torino
Lucca:   Firenze, Modena, Parma
Mantova: Ferrara, Milano, Modena, Venezia
Milano:  Genova, Mantova, Modena, Parma, Torino, Venezia
Modena:  Bologna, Ferrara, Firenze, Lucca, Mantova, Milano, Parma
Napoli:  Ancona, Roma, Spoleto
Parma:   Genova, Lucca, Milano, Modena
Roma:    Firenze, Napoli, Siena, Spoleto
Siena:   Firenze, Roma
Spoleto: Ancona, Firenze, Napoli, Roma, Urbino
Torino:  Genova, Milano
Urbino:  Ancona, Bologna, Firenze, Spoleto
Venezia: Ferrara, Mantova, Milano
"""

RULINGS_NON_BORDERS = [
    ("Genova", "Modena"),
    ("Lucca", "Siena"),
    ("Siena", "Spoleto"),
    ("Mantova", "Parma"),
    ("Bologna", "Lucca"),
    ("Urbino", "Roma"),
    ("Ancona", "Roma"),
    ("Venezia", "Modena"),
]

RULINGS_REGIONS = {
    "Torino", "Milano", "Venezia", "Genova", "Mantova", "Ferrara", "Parma", "Modena", "Bologna",
    "Lucca", "Firenze", "Siena", "Urbino", "Ancona", "Spoleto", "Roma", "Napoli",
}  # fmt: skip


def ruled_adjacency() -> dict[str, frozenset[str]]:
    adjacency = {}
    for line in RULINGS_BORDERS.strip().splitlines():
        region, neighbours = line.split(":")
        adjacency[region.strip()] = frozenset(name.strip() for name in neighbours.split(","))
    return adjacency


def pairs(adjacency: dict[str, frozenset[str]]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, neighbours in adjacency.items() for b in neighbours}


@functools.cache
def parsed_svg() -> ElementTree.Element:
    """The committed file, the one pages show (equal to the generator's, tested below)."""
    return ElementTree.fromstring(board_map.board_svg())


def pairs_sharing_a_cell_edge() -> set[frozenset[str]]:
    """Worked out here from the cells alone, as the rule for the picture says: two regions
    border when a cell of one and a cell of the other share an edge (a corner is not enough)."""
    owner = {cell: name for name, cells in board_map.region_cells().items() for cell in cells}
    found = set()
    for (row, column), name in owner.items():
        for other_cell in ((row + 1, column), (row, column + 1)):
            other = owner.get(other_cell)
            if other is not None and other != name:
                found.add(frozenset((name, other)))
    return found


def parse_path(d: str) -> list[list[tuple[float, float]]]:
    """The loops of an SVG path made of `M x y L x y ... Z` subpaths; fails on anything else."""
    number = r"-?\d+(?:\.\d+)?"
    point = rf"{number} {number}"
    subpath = rf"M {point}(?: L {point})* Z"
    assert re.fullmatch(rf"{subpath}(?: {subpath})*", d), d[:120]
    loops = []
    for text in re.findall(subpath, d):
        coordinates = [float(value) for value in re.findall(number, text)]
        loops.append(list(zip(coordinates[::2], coordinates[1::2], strict=True)))
    return loops


def inside_even_odd(loop: list[tuple[float, float]], x: float, y: float) -> bool:
    crossings = 0
    for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def crossings_at(loop: list[tuple[float, float]], y: float) -> list[float]:
    """Where a horizontal line meets the loop, left to right: inside between pairs."""
    found = []
    for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1], strict=True):
        if (y1 > y) != (y2 > y):
            found.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return sorted(found)


def distance_to_loop(loop: list[tuple[float, float]], point: tuple[float, float]) -> float:
    best = math.inf
    px, py = point
    for (ax, ay), (bx, by) in zip(loop, loop[1:] + loop[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = ((px - ax) * dx + (py - ay) * dy) / ((dx * dx + dy * dy) or 1.0)
        t = max(0.0, min(1.0, t))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def drawn_shapes() -> dict[str, list[tuple[float, float]]]:
    """Each region's outline as written in the SVG (one loop, checked elsewhere)."""
    return {
        group.attrib["data-region"]: parse_path(group.find(f"{SVG_NAMESPACE}path").attrib["d"])[0]
        for group in parsed_svg().findall(f".//{SVG_NAMESPACE}g[@class='region']")
    }


def mainland() -> list[tuple[float, float]]:
    return list(board_map.mainland())


def shared_length(first: list, second: list) -> tuple[float, tuple[float, float] | None]:
    """How long two outlines run together (edges both have), and the middle of the longest
    such edge."""
    edges = {frozenset(pair) for pair in zip(first, first[1:] + first[:1], strict=True)}
    total, longest, middle = 0.0, 0.0, None
    for a, b in zip(second, second[1:] + second[:1], strict=True):
        if frozenset((a, b)) in edges:
            length = math.dist(a, b)
            total += length
            if length > longest:
                longest, middle = length, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return total, middle


def test_the_rulings_table_itself_has_17_regions_and_34_symmetric_borders():
    adjacency = ruled_adjacency()
    assert set(adjacency) == RULINGS_REGIONS
    assert len(pairs(adjacency)) == 34
    for region, neighbours in adjacency.items():
        for neighbour in neighbours:
            assert region in adjacency[neighbour], (region, neighbour)


def test_the_grid_holds_the_17_regions_and_no_other():
    cells = board_map.region_cells()
    assert set(cells) == RULINGS_REGIONS
    assert all(cells[name] for name in RULINGS_REGIONS)


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_region_is_one_piece(region):
    cells = board_map.region_cells()[region]
    start = min(cells)
    reached, frontier = {start}, [start]
    while frontier:
        row, column = frontier.pop()
        for step in ((row + 1, column), (row - 1, column), (row, column + 1), (row, column - 1)):
            if step in cells and step not in reached:
                reached.add(step)
                frontier.append(step)
    assert reached == cells


def test_regions_sharing_a_cell_edge_are_exactly_the_rulings_34_borders():
    found, ruled = pairs_sharing_a_cell_edge(), pairs(ruled_adjacency())
    assert found - ruled == set(), "borders on the map that the rules do not have"
    assert ruled - found == set(), "borders of the rules missing from the map"


def test_derived_adjacency_is_the_rulings_table():
    assert board_map.derived_adjacency() == ruled_adjacency()


def test_derived_adjacency_is_the_engines():
    from games.engine import ADJACENCY, REGIONS

    assert set(REGIONS) == set(board_map.region_cells())
    assert {name: frozenset(ADJACENCY[name]) for name in REGIONS} == board_map.derived_adjacency()


@pytest.mark.parametrize(("region", "other"), RULINGS_NON_BORDERS)
def test_the_rulings_non_borders_do_not_touch_on_the_map(region, other):
    assert other not in board_map.derived_adjacency()[region]
    assert frozenset((region, other)) not in pairs_sharing_a_cell_edge()


def test_each_region_is_drawn_as_one_outline():
    for region, loop in drawn_shapes().items():
        assert len(parse_path(board_map.region_path(region))) == 1, region
        assert len(loop) >= 20, region  # a smooth curve, not a box


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_region_is_drawn_where_its_cells_are(region):
    """Smoothing moves borders by less than a cell: every cell of the region whose eight
    neighbours are the region's too, if on land, is inside the drawn shape."""
    cells, shape, land = board_map.region_cells()[region], drawn_shapes()[region], mainland()
    size = board_map.CELL
    deep = [
        (row, column)
        for row, column in cells
        if all((row + dr, column + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    ]
    assert deep, region
    for row, column in deep:
        centre = ((column + 0.5) * size, (row + 0.5) * size)
        if inside_even_odd(land, *centre):
            assert inside_even_odd(shape, *centre), (row, column)


def test_the_regions_share_out_the_mainland_without_overlap():
    """Along every row of the map, the regions' spans are disjoint and together cover the
    mainland's spans (but for slivers under a few units where a coast wiggle meets a border)."""
    shapes, land = drawn_shapes(), mainland()
    for row in range(63 * 2):
        y = (row + 0.5) * board_map.CELL / 2 + 0.01
        spans = []
        for shape in shapes.values():
            found = crossings_at(shape, y)
            spans += list(zip(found[::2], found[1::2], strict=True))
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert start >= end - 0.05, f"regions overlap at y={y}, x={start}..{end}"
        found = crossings_at(land, y)
        land_length = sum(b - a for a, b in zip(found[::2], found[1::2], strict=True))
        region_length = sum(b - a for a, b in spans)
        assert land_length - region_length == pytest.approx(0, abs=3), f"gap at y={y}"


def test_the_borders_drawn_on_land_are_exactly_the_rulings_borders():
    """Two regions whose outlines run together for a few units border on the map; each such
    border lies on land, so no two regions border only out at sea."""
    shapes, land = drawn_shapes(), mainland()
    drawn = set()
    for first, second in itertools.combinations(sorted(shapes), 2):
        length, middle = shared_length(shapes[first], shapes[second])
        if length > 0:
            assert length >= board_map.CELL, (first, second, length)  # not a mere touch
            assert inside_even_odd(land, *middle), (first, second)
            drawn.add(frozenset((first, second)))
    assert drawn == pairs(ruled_adjacency())


@pytest.mark.parametrize(("region", "other"), RULINGS_NON_BORDERS)
def test_the_rulings_non_borders_are_kept_apart_on_the_drawn_map(region, other):
    first, second = drawn_shapes()[region], drawn_shapes()[other]
    gap = min(
        min(distance_to_loop(second, point) for point in first[::2]),
        min(distance_to_loop(first, point) for point in second[::2]),
    )
    assert gap >= 3, (region, other, gap)


def test_every_city_lies_on_the_mainland_drawn_from_the_vendored_coastline():
    land = mainland()
    for region in RULINGS_REGIONS:
        city = board_map.city_point(region)
        assert inside_even_odd(land, *city) or distance_to_loop(land, city) < 5, region


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_region_lies_at_its_city(region):
    city = board_map.city_point(region)
    nearest = min(
        math.dist(((column + 0.5) * board_map.CELL, (row + 0.5) * board_map.CELL), city)
        for row, column in board_map.region_cells()[region]
    )
    assert nearest <= board_map.CELL


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_label_and_marker_points_fall_inside_their_region_on_land_apart_from_each_other(region):
    shape, land = drawn_shapes()[region], mainland()
    label, marker = board_map.label_position(region), board_map.marker_position(region)
    for point in (label, marker):
        assert inside_even_odd(shape, *point)
        assert inside_even_odd(land, *point)
    assert math.dist(label, marker) >= board_map.CELL
    assert math.dist(label, board_map.city_point(region)) <= 4 * board_map.CELL
    assert distance_to_loop(shape, marker) > board_map.MARKER_RADIUS


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_name_fits_inside_its_region_clear_of_the_marker(region):
    shape = drawn_shapes()[region]
    low_x, low_y, high_x, high_y = board_map.label_box(region, board_map.label_position(region))
    corners = [(low_x, low_y), (high_x, low_y), (high_x, high_y), (low_x, high_y)]
    assert all(inside_even_odd(shape, *corner) for corner in corners)
    assert not any(low_x < x < high_x and low_y < y < high_y for x, y in shape)
    marker_x, marker_y = board_map.marker_position(region)
    radius = board_map.MARKER_RADIUS
    assert not (
        low_x - radius < marker_x < high_x + radius and low_y - radius < marker_y < high_y + radius
    )


def test_seaports_touch_the_sea_and_inland_regions_do_not():
    rows = board_map.grid_rows()

    def touches_sea(region):
        return any(
            0 <= row + dr < len(rows)
            and 0 <= column + dc < len(rows[0])
            and rows[row + dr][column + dc] == board_map.SEA
            for row, column in board_map.region_cells()[region]
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )

    for port in ("Genova", "Venezia", "Ancona", "Roma", "Napoli", "Lucca", "Siena"):
        assert touches_sea(port), port
    for inland in ("Milano", "Mantova", "Modena", "Spoleto"):
        assert not touches_sea(inland), inland


def test_the_svg_is_responsive_with_a_sea_background():
    root = parsed_svg()
    assert root.tag == f"{SVG_NAMESPACE}svg"
    assert "width" not in root.attrib and "height" not in root.attrib
    _, _, width, height = (float(value) for value in root.attrib["viewBox"].split())
    sea = root.find(f"{SVG_NAMESPACE}rect[@class='sea']")
    assert sea is not None
    assert (float(sea.attrib["width"]), float(sea.attrib["height"])) == (width, height)


def test_the_svg_has_one_focusable_group_per_region_with_its_marker_point():
    groups = parsed_svg().findall(f".//{SVG_NAMESPACE}g[@class='region']")
    assert sorted(group.attrib["data-region"] for group in groups) == sorted(RULINGS_REGIONS)
    for group in groups:
        region = group.attrib["data-region"]
        assert group.attrib["id"] == f"region-{region}"
        assert group.attrib["tabindex"] == "0"
        assert group.attrib["role"] == "button"
        assert group.attrib["aria-label"] == region
        marker = (float(group.attrib["data-marker-x"]), float(group.attrib["data-marker-y"]))
        assert marker == board_map.marker_position(region)
        assert group.find(f"{SVG_NAMESPACE}path").attrib["d"] == board_map.region_path(region)
        assert group.find(f"{SVG_NAMESPACE}text").text == region


def test_the_committed_svg_file_is_the_generated_one():
    committed = (ROOT / "static" / "board" / "board.svg").read_text(encoding="utf-8")
    assert committed == board_map.render_board_svg(), "regenerate: python -m games.board.map > ..."
    assert board_map.board_svg() == committed
