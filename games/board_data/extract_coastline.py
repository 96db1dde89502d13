"""Cut the board's land out of Natural Earth, once, into games/board_data/coastline.json.

Not run by the tests nor by the site: run by hand when the source or the map's frame changes.
Its input is `countries-10m.json` of the npm package world-atlas 2.0.2 (Natural Earth 4.1.0,
Admin 0 countries at 1:10m, as TopoJSON), fetched with the npm client, not installed:

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz   # scratch, in the repo's root
    .venv/bin/python -m games.board_data.extract_coastline package/countries-10m.json \
        > games/board_data/coastline.json
    rm -r package world-atlas-2.0.2.tgz

Standard library only. TopoJSON stores each border once as an "arc" shared by the countries on
either side, so each arc is simplified once, endpoints fixed, and neighbours still meet exactly.
Everything is then cut to the map's frame plus a small margin and written as longitude and
latitude (three decimals, about 100 m): games/board/map.py projects it.
"""

import json
import sys

from games.board import map as board_map
from games.board_data import geometry

ITALY = "Italy"
# Countries whose land shows inside the frame. San Marino and the Vatican are holes in Italy's
# mainland, filled by the regions drawn over it, so they are left out.
NEIGHBOURS = ("France", "Switzerland", "Austria", "Slovenia", "Croatia", "Monaco")
# Simplification tolerance in SVG units (a unit is about 1.1 km): below what the eye sees.
TOLERANCE = 0.3
# How far past the frame the land is kept, in SVG units, so cut edges fall off the picture.
MARGIN = 4.3


def decoded_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """Every arc as (longitude, latitude) points: TopoJSON stores quantized deltas."""
    (scale_x, scale_y), (shift_x, shift_y) = (
        topology["transform"]["scale"],
        topology["transform"]["translate"],
    )
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * scale_x + shift_x, y * scale_y + shift_y))
        arcs.append(points)
    return arcs


def projected(point: tuple[float, float]) -> tuple[float, float]:
    longitude, latitude = point
    return board_map.project(latitude, longitude)


def simplified_arcs(arcs: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """Each arc simplified in map units (so the tolerance means the same everywhere)."""
    result = []
    for arc in arcs:
        kept = geometry.simplify([projected(point) for point in arc], TOLERANCE)
        lookup = {projected(point): point for point in arc}
        result.append([lookup[point] for point in kept])
    return result


def ring_points(arc_indices: list[int], arcs: list[list[tuple[float, float]]]) -> list:
    """A ring from its arcs: a negative index ~i means arc i walked backwards; consecutive arcs
    share their joining point, kept once."""
    points: list[tuple[float, float]] = []
    for index in arc_indices:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        points.extend(arc if not points else arc[1:])
    return points[:-1]  # the ring closes on its first point


def polygons_of(geometry_object: dict) -> list[list[list[int]]]:
    if geometry_object["type"] == "Polygon":
        return [geometry_object["arcs"]]
    if geometry_object["type"] == "MultiPolygon":
        return geometry_object["arcs"]
    return []


def frame() -> tuple[float, float, float, float]:
    """The map's frame widened by MARGIN, as (west, south, east, north) in degrees."""
    width, height = board_map.frame_size()
    west, north = board_map.unproject((-MARGIN, -MARGIN))
    east, south = board_map.unproject((width + MARGIN, height + MARGIN))
    return west, south, east, north


def rounded(ring: list[tuple[float, float]]) -> list[list[float]]:
    points = []
    for longitude, latitude in ring:
        point = [round(longitude, 3), round(latitude, 3)]
        if not points or points[-1] != point:
            points.append(point)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return points


def area(ring: list[tuple[float, float]]) -> float:
    return abs(geometry.signed_area([projected(point) for point in ring]))


def extract(topology: dict) -> dict:
    arcs = simplified_arcs(decoded_arcs(topology))
    box = frame()
    by_name = {g["properties"]["name"]: g for g in topology["objects"]["countries"]["geometries"]}
    italy_rings, other_land = [], []
    for name in (ITALY, *NEIGHBOURS):
        for polygon in polygons_of(by_name[name]):
            outer = geometry.clip_to_box(ring_points(polygon[0], arcs), box)
            if len(outer) < 3 or area(outer) < 0.5:
                continue
            (italy_rings if name == ITALY else other_land).append(outer)
    italy_rings.sort(key=area, reverse=True)
    mainland, islands = italy_rings[0], italy_rings[1:]
    return {
        "source": "Natural Earth 4.1.0, Admin 0 countries 1:10m (public domain), "
        "via world-atlas 2.0.2 countries-10m.json; see games/board_data/README.md",
        "frame": [round(value, 4) for value in box],
        "italy_mainland": rounded(mainland),
        "other_land": [rounded(ring) for ring in islands + other_land],
    }


def main(path: str) -> None:
    with open(path, encoding="utf-8") as source:
        data = extract(json.load(source))
    sys.stdout.write(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
