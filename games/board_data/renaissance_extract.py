"""Cut the Renaissance board's land out of Natural Earth, once, into
games/board_data/renaissance_coastline.json.

Not run by the tests nor by the site: run by hand when the source or the map's frame changes.
Its input is `countries-10m.json` of the npm package world-atlas 2.0.2 (Natural Earth 4.1.0,
Admin 0 countries at 1:10m, as TopoJSON), fetched with the npm client, not installed:

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz   # scratch, in the repo's root
    .venv/bin/python -m games.board_data.renaissance_extract package/countries-10m.json \
        > games/board_data/renaissance_coastline.json
    rm -r package world-atlas-2.0.2.tgz

Standard library only. It writes two things, as longitude and latitude (three decimals):
- "land": the coast of every land mass in the frame, the countries merged (a border shared by
  two countries is dropped), so the map's land is drawn and cut with no seam at a border;
- "countries": each country's outline, simplified further, only to tell which country a point
  of land is in (games/board/renaissance_map.py gives land to provinces by country).
Each border of the source is simplified once (TopoJSON stores it once, as an "arc" shared by the
countries on either side), so neighbours still meet exactly.
"""

import json
import sys
from collections import defaultdict

from games.board_data import geometry
from games.board_data import renaissance_shapes as rn_map
from games.board_data.extract_coastline import decoded_arcs, polygons_of, ring_points, rounded

# Simplification tolerances in map units (a unit is about 1 km): the coast below what the eye
# sees, the countries (used only to look points up) coarser.
COAST_TOLERANCE = 0.35
COUNTRY_TOLERANCE = 1.0
# How far past the frame land is kept, in map units: further than the provinces' outlines reach
# (games/board/renaissance_map.py), so their cut never meets the land's own cut edge.
MARGIN = 40.0
SMALLEST_AREA = 0.5  # square map units: specks below this are dropped

Arc = list[tuple[float, float]]


def projected(point: tuple[float, float]) -> tuple[float, float]:
    longitude, latitude = point
    return rn_map.project(latitude, longitude)


def simplified(arcs: list[Arc], tolerance: float) -> list[Arc]:
    """Each arc simplified in map units, its ends kept (so arcs still join)."""
    result = []
    for arc in arcs:
        kept = geometry.simplify([projected(point) for point in arc], tolerance)
        lookup = {projected(point): point for point in arc}
        result.append([lookup[point] for point in kept])
    return result


def frame() -> tuple[float, float, float, float]:
    """The map's frame widened by MARGIN, as (west, south, east, north) in degrees."""
    west, north = rn_map.unproject((-MARGIN, -MARGIN))
    east, south = rn_map.unproject((rn_map.WIDTH + MARGIN, rn_map.HEIGHT + MARGIN))
    return west, south, east, north


def merged_rings(ring_arcs: list[list[int]], arcs: list[Arc]) -> list[Arc]:
    """The outline of the union of rings given as arc indices: an arc used by two of the rings
    is a border between them and is dropped; the others are chained end to start."""
    uses: dict[int, int] = defaultdict(int)
    for ring in ring_arcs:
        for index in ring:
            uses[index if index >= 0 else ~index] += 1
    starting: dict[tuple[float, float], list[int]] = defaultdict(list)
    for ring in ring_arcs:
        for index in ring:
            if uses[index if index >= 0 else ~index] == 1:
                arc = arcs[index] if index >= 0 else arcs[~index][::-1]
                starting[arc[0]].append(index)
    rings = []
    while starting:
        start = min(starting)
        chain: list[int] = []
        here = start
        while here in starting:
            index = starting[here].pop(0)
            if not starting[here]:
                del starting[here]
            chain.append(index)
            arc = arcs[index] if index >= 0 else arcs[~index][::-1]
            here = arc[-1]
            if here == start:
                break
        rings.append(ring_points(chain, arcs))
    return rings


def area(ring: Arc) -> float:
    return abs(geometry.signed_area([projected(point) for point in ring]))


def kept_in_frame(rings: list[Arc], box: tuple[float, float, float, float]) -> list[list]:
    result = []
    for ring in rings:
        cut = geometry.clip_to_box(ring, box)
        if len(cut) >= 3 and area(cut) >= SMALLEST_AREA:
            result.append(rounded(cut))
    return sorted(result, key=lambda ring: (-len(ring), ring[0]))


def touches(rings: list[list[int]], arcs: list[Arc], box) -> bool:
    west, south, east, north = box
    return any(
        west <= x <= east and south <= y <= north
        for ring in rings
        for index in ring
        for x, y in arcs[index if index >= 0 else ~index]
    )


def extract(topology: dict) -> dict:
    raw = decoded_arcs(topology)
    coast_arcs = simplified(raw, COAST_TOLERANCE)
    country_arcs = simplified(raw, COUNTRY_TOLERANCE)
    box = frame()
    all_rings: list[list[int]] = []
    countries = {}
    for country in topology["objects"]["countries"]["geometries"]:
        rings = [ring for polygon in polygons_of(country) for ring in polygon]
        if not rings or not touches(rings, raw, box):
            continue
        all_rings.extend(rings)
        outline = kept_in_frame([ring_points(ring, country_arcs) for ring in rings], box)
        if outline:
            countries[country["properties"]["name"]] = outline
    return {
        "source": "Natural Earth 4.1.0, Admin 0 countries 1:10m (public domain), "
        "via world-atlas 2.0.2 countries-10m.json; see games/board_data/README.md",
        "frame": [round(value, 4) for value in box],
        "land": kept_in_frame(merged_rings(all_rings, coast_arcs), box),
        "countries": dict(sorted(countries.items())),
    }


def main(path: str) -> None:
    with open(path, encoding="utf-8") as source:
        data = extract(json.load(source))
    sys.stdout.write(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
