"""The board picture agrees with the rules: 17 regions, and exactly the rulings' 34 borders.

The borders below are the table of docs/rulings.md ("The board"), copied verbatim, so the map is
checked against the rules themselves and, separately, against the engine's ADJACENCY.
"""

import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from games import board_map

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


def inside_even_odd(loops: list[list[tuple[float, float]]], x: float, y: float) -> bool:
    crossings = 0
    for loop in loops:
        for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def cell_under(point: tuple[float, float]) -> tuple[int, int]:
    return (math.floor(point[1] / board_map.CELL), math.floor(point[0] / board_map.CELL))


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


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_region_path_is_closed_and_covers_exactly_its_cells(region):
    loops = parse_path(board_map.region_path(region))
    assert loops and all(len(loop) >= 4 for loop in loops)
    cells = board_map.region_cells()[region]
    rows = [row for row, _ in cells]
    columns = [column for _, column in cells]
    size = board_map.CELL
    for row in range(min(rows) - 2, max(rows) + 3):
        for column in range(min(columns) - 2, max(columns) + 3):
            centre = ((column + 0.5) * size, (row + 0.5) * size)
            assert inside_even_odd(loops, *centre) == ((row, column) in cells), (row, column)


def test_paths_are_outlines_not_one_shape_per_cell():
    for region, cells in board_map.region_cells().items():
        loops = parse_path(board_map.region_path(region))
        assert len(loops) == 1, region  # one piece without holes: one outline
        assert len(loops[0]) < 2 * len(cells), region


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_each_region_lies_at_its_city(region):
    city = board_map.city_point(region)
    nearest = min(
        math.dist(((column + 0.5) * board_map.CELL, (row + 0.5) * board_map.CELL), city)
        for row, column in board_map.region_cells()[region]
    )
    assert nearest <= board_map.CELL


@pytest.mark.parametrize("region", sorted(RULINGS_REGIONS))
def test_label_and_marker_points_fall_inside_their_region_apart_from_each_other(region):
    cells = board_map.region_cells()[region]
    label, marker = board_map.label_position(region), board_map.marker_position(region)
    assert cell_under(label) in cells
    assert cell_under(marker) in cells
    assert math.dist(label, marker) >= board_map.CELL
    assert math.dist(label, board_map.city_point(region)) <= 4 * board_map.CELL


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


def parsed_svg() -> ElementTree.Element:
    return ElementTree.fromstring(board_map.board_svg())


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
        assert cell_under(marker) in board_map.region_cells()[region]
        assert group.find(f"{SVG_NAMESPACE}path").attrib["d"] == board_map.region_path(region)
        assert group.find(f"{SVG_NAMESPACE}text").text == region


def test_the_committed_svg_file_is_the_generated_one():
    committed = (ROOT / "static" / "board" / "board.svg").read_text(encoding="utf-8")
    assert committed == board_map.board_svg(), "regenerate: python -m games.board_map > ..."
