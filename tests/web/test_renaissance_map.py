"""The Renaissance board picture agrees with board.json and can be read.

Everything is checked on the committed file, static/board/renaissance.svg (the one pages show),
against games/renaissance/data/board.json read here directly: every city, province and road is
drawn once under its exact name with its terrain, coast and port; every city stands on land in
its own province, near its real place; no name covers another name or a city; and the file is
what the generator writes today (docs/renaissance/map.md, "The picture").
"""

import functools
import json
import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from games.board import renaissance_map
from games.board_data import renaissance_shapes
from games.board_data.renaissance_places import CITY_COORDINATES

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
LAYERS = ["land", "provinces", "borders", "roads", "labels", "cities", "overlay"]
# How far (map units, about a kilometre each) a city may be drawn from its real place: crowded
# cities are pushed apart a little so that each spot has room for its pieces.
MOST_DISPLACEMENT = 25
# Two spots closer than this would leave no room between them for the pieces.
LEAST_SPOT_DISTANCE = 28
# The width of a name is renaissance_map.text_width: generous for the faces a page may use
# (measured in Chromium, names in DejaVu Sans semi-bold, the widest the table's CSS may pick,
# come out at most as wide as it; in the file's serif face a fifth narrower). The tests read
# where the SVG put each name and check those boxes, not the placing code's own.
# Province names keep the file's serif italic, a fifth narrower than that.
SERIF_WIDTH = 0.85
# The client draws a garrison over a spot as a disc of this radius: no other city's name goes
# under it.
PIECE_RADIUS = 11


@functools.cache
def board() -> dict:
    return json.loads((ROOT / "games/renaissance/data/board.json").read_text(encoding="utf-8"))


@functools.cache
def root() -> ElementTree.Element:
    return ElementTree.fromstring(renaissance_map.renaissance_svg())


def layer(name: str) -> ElementTree.Element:
    (found,) = [g for g in root().findall(f"{SVG}g") if g.get("data-layer") == name]
    return found


def has_class(element: ElementTree.Element, name: str) -> bool:
    return name in (element.get("class") or "").split()


def view_box() -> tuple[float, float, float, float]:
    return tuple(float(value) for value in root().get("viewBox").split())


def rings_of(d: str) -> list[list[tuple[float, float]]]:
    """The closed rings of a path written with M, L and Z only (as the generator writes)."""
    rings, current = [], []
    for command, numbers in re.findall(r"([MLZ])([^MLZ]*)", d):
        values = [float(value) for value in numbers.replace(",", " ").split()]
        if command == "M":
            if current:
                rings.append(current)
            current = [(values[0], values[1])]
        elif command == "L":
            current.append((values[0], values[1]))
        else:
            rings.append(current)
            current = []
    if current:
        rings.append(current)
    return rings


def inside(rings: list[list[tuple[float, float]]], point: tuple[float, float]) -> bool:
    """Even-odd over every ring of a path: what `fill-rule: evenodd` paints."""
    x, y = point
    crossings = 0
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def city_groups() -> dict[str, ElementTree.Element]:
    groups = [g for g in layer("cities").iter(f"{SVG}g") if has_class(g, "rn-city")]
    names = [g.get("data-city") for g in groups]
    assert len(names) == len(set(names)), "a city is drawn twice"
    return dict(zip(names, groups, strict=True))


def province_groups() -> dict[str, ElementTree.Element]:
    groups = [g for g in layer("provinces").iter(f"{SVG}g") if has_class(g, "rn-province")]
    names = [g.get("data-province") for g in groups]
    assert len(names) == len(set(names)), "a province is drawn twice"
    return dict(zip(names, groups, strict=True))


def spot(name: str) -> tuple[float, float, float]:
    (circle,) = [c for c in city_groups()[name] if has_class(c, "rn-city__spot")]
    return float(circle.get("cx")), float(circle.get("cy")), float(circle.get("r"))


def province_rings(name: str) -> list[list[tuple[float, float]]]:
    paths = province_groups()[name].findall(f"{SVG}path")
    return [ring for path in paths for ring in rings_of(path.get("d"))]


def land_rings() -> list[list[tuple[float, float]]]:
    (land,) = [p for p in layer("land").findall(f"{SVG}path") if has_class(p, "rn-land")]
    return rings_of(land.get("d"))


def text_box(
    text: ElementTree.Element, content: str, narrowing: float = 1.0
) -> tuple[float, float, float, float]:
    """The box a one-line name covers: centred vertically on y, anchored at x."""
    size = float(text.get("font-size"))
    width = renaissance_map.text_width(content, size) * narrowing
    x, y = float(text.get("x")), float(text.get("y"))
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor")]
    return (left, y - size / 2, left + width, y + size / 2)


def city_label_boxes() -> dict[str, tuple[float, float, float, float]]:
    boxes = {}
    for name, group in city_groups().items():
        (text,) = [t for t in group.findall(f"{SVG}text") if has_class(t, "rn-city__name")]
        boxes[name] = text_box(text, text.text)
    return boxes


def boxes_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def box_touches_circle(box, x: float, y: float, r: float) -> bool:
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(x - nearest_x, y - nearest_y) < r


# ---- the file ---------------------------------------------------------------------------------


def test_the_committed_svg_file_is_the_generated_one():
    committed = (ROOT / "static/board/renaissance.svg").read_text(encoding="utf-8")
    assert renaissance_map.render_renaissance_svg() == committed, (
        "regenerate: .venv/bin/python -m games.board.renaissance_map > static/board/renaissance.svg"
    )
    assert renaissance_map.renaissance_svg() == committed


def test_the_root_is_a_labelled_image_that_scales_to_its_container():
    svg = root()
    assert has_class(svg, "rn-map")
    assert svg.get("role") == "img"
    assert svg.get("width") is None and svg.get("height") is None
    label_id = svg.get("aria-labelledby")
    assert [e for e in svg.iter() if e.get("id") == label_id], "aria-labelledby names nothing"
    assert view_box()[:2] == (0.0, 0.0)


def test_the_layers_come_in_the_contracts_order_and_the_overlay_is_empty():
    top_groups = [g.get("data-layer") for g in root().findall(f"{SVG}g")]
    assert top_groups == LAYERS
    assert len(layer("overlay")) == 0


# ---- what is drawn agrees with board.json -----------------------------------------------------


def test_every_city_is_drawn_once_with_its_exact_name_terrain_coast_and_port():
    groups = city_groups()
    assert set(groups) == set(board()["cities"])
    for name, city in board()["cities"].items():
        group = groups[name]
        assert group.get("data-terrain") == city["terrain"], name
        assert group.get("data-coastal") == str(int(city["coastal"])), name
        assert group.get("data-port") == str(int(city["port"])), name
        x, y, _ = spot(name)
        assert (float(group.get("data-x")), float(group.get("data-y"))) == (x, y), name
        names = [t.text for t in group.findall(f"{SVG}text") if has_class(t, "rn-city__name")]
        assert names == [name]
        pieces = [g for g in group.findall(f"{SVG}g") if has_class(g, "rn-city__pieces")]
        assert len(pieces) == 1 and len(pieces[0]) == 0, name


def test_terrain_and_port_marks_follow_the_data():
    for name, city in board()["cities"].items():
        group = city_groups()[name]
        terrain = [p for p in group.findall(f"{SVG}path") if has_class(p, "rn-city__terrain")]
        port = [p for p in group.findall(f"{SVG}path") if has_class(p, "rn-city__port")]
        assert len(terrain) == (0 if city["terrain"] == "plain" else 1), name
        assert len(port) == int(city["port"]), name
    mountain = next(n for n, c in board()["cities"].items() if c["terrain"] == "mountain")
    marsh = next(n for n, c in board()["cities"].items() if c["terrain"] == "marsh")
    shapes = {
        name: next(
            p.get("d") for p in city_groups()[name].iter() if has_class(p, "rn-city__terrain")
        )
        for name in (mountain, marsh)
    }
    assert shapes[mountain].count("M") == 1 and shapes[mountain].endswith("Z")  # a triangle
    assert shapes[marsh].count("M") > 3  # reed tufts, stroke by stroke


def test_every_province_is_drawn_once_with_its_exact_name_and_a_shape():
    groups = province_groups()
    assert set(groups) == set(board()["provinces"])
    for name, group in groups.items():
        assert group.findall(f"{SVG}path"), name
        assert group.get("data-sea") == str(int(board()["provinces"][name]["sea"]))


def test_every_province_is_named_once_in_the_labels_layer():
    texts = [t for t in layer("labels").iter(f"{SVG}text") if has_class(t, "rn-province-name")]
    named = {}
    for text in texts:
        words = " ".join(span.text for span in text.findall(f"{SVG}tspan"))
        named.setdefault(text.get("data-province"), []).append(words)
    assert named == {name: [name] for name in board()["provinces"]}


def test_every_road_is_drawn_once_between_its_two_cities():
    lines = [line for line in layer("roads").iter(f"{SVG}line") if has_class(line, "rn-road")]
    drawn = [frozenset((line.get("data-a"), line.get("data-b"))) for line in lines]
    assert len(drawn) == len(set(drawn)) == len(board()["roads"])
    assert set(drawn) == {frozenset(pair) for pair in board()["roads"]}
    for line in lines:
        ends = {
            (float(line.get("x1")), float(line.get("y1"))),
            (float(line.get("x2")), float(line.get("y2"))),
        }
        assert ends == {spot(line.get("data-a"))[:2], spot(line.get("data-b"))[:2]}


def test_a_road_is_dashed_exactly_when_it_crosses_the_sea():
    rings = land_rings()

    def land_mass(name: str) -> int:
        x, y, _ = spot(name)
        return next(i for i, ring in enumerate(rings) if inside([ring], (x, y)))

    for line in layer("roads").iter(f"{SVG}line"):
        a, b = line.get("data-a"), line.get("data-b")
        by_sea = land_mass(a) != land_mass(b)
        assert has_class(line, "rn-road--sea") == by_sea, (a, b)
        assert (line.get("stroke-dasharray") is not None) == by_sea, (a, b)


# ---- where things are -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CITY_COORDINATES))
def test_each_city_stands_on_land_in_its_own_province_only(name):
    city = board()["cities"][name]
    x, y, _ = spot(name)
    assert inside(land_rings(), (x, y)), f"{name} is drawn at sea"
    assert inside(province_rings(city["province"]), (x, y)), f"{name} is outside its province"
    others = [p for p in board()["provinces"] if p != city["province"]]
    assert not [p for p in others if inside(province_rings(p), (x, y))]


def test_each_city_is_drawn_near_its_real_place():
    assert set(CITY_COORDINATES) == set(board()["cities"])
    for name, (latitude, longitude) in CITY_COORDINATES.items():
        real = renaissance_shapes.project(latitude, longitude)
        assert math.dist(real, spot(name)[:2]) <= MOST_DISPLACEMENT, name


def test_spots_leave_room_between_them():
    names = sorted(board()["cities"])
    for index, first in enumerate(names):
        for second in names[index + 1 :]:
            gap = math.dist(spot(first)[:2], spot(second)[:2])
            assert gap >= LEAST_SPOT_DISTANCE, (first, second, round(gap, 1))


def test_the_view_box_holds_every_city_and_every_name():
    _, _, width, height = view_box()
    for name in board()["cities"]:
        x, y, r = spot(name)
        assert r <= x <= width - r and r <= y <= height - r, name
        left, top, right, bottom = city_label_boxes()[name]
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, name


def test_no_two_city_names_overlap():
    boxes = city_label_boxes()
    names = sorted(boxes)
    for index, first in enumerate(names):
        for second in names[index + 1 :]:
            assert not boxes_overlap(boxes[first], boxes[second]), (first, second)


def test_no_city_name_covers_a_city_or_the_garrison_drawn_on_it():
    boxes = city_label_boxes()
    for name, box in boxes.items():
        for other in board()["cities"]:
            x, y, _ = spot(other)
            assert not box_touches_circle(box, x, y, PIECE_RADIUS), (name, other)


def test_no_province_name_covers_a_city_or_a_city_name():
    city_boxes = city_label_boxes()
    for text in layer("labels").iter(f"{SVG}text"):
        for span in text.findall(f"{SVG}tspan"):
            merged = {**text.attrib, **span.attrib}
            box = text_box(ElementTree.Element("text", merged), span.text, SERIF_WIDTH)
            for name in board()["cities"]:
                assert not box_touches_circle(box, *spot(name)), (span.text, name)
                assert not boxes_overlap(box, city_boxes[name]), (span.text, name)


def test_provinces_sharing_a_border_have_different_tints():
    tints = {
        name: next(c for c in group.get("class").split() if c.startswith("rn-province--tint-"))
        for name, group in province_groups().items()
    }
    for first, neighbours in renaissance_shapes.neighbouring_provinces().items():
        for second in neighbours:
            assert tints[first] != tints[second], (first, second)


def test_borders_are_drawn_on_land():
    paths = layer("borders").findall(f"{SVG}path")
    assert {p.get("class") for p in paths} == {"rn-border", "rn-border rn-border--edge"}
    land = land_rings()
    for path in paths:
        for line in re.findall(r"M[^M]+", path.get("d")):
            x1, y1, x2, y2 = [float(v) for v in re.sub(r"[MLZ]", " ", line).split()][:4]
            assert inside(land, ((x1 + x2) / 2, (y1 + y2) / 2)), line[:40]
