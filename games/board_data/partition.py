"""Smooth outlines for a partition of grid cells into labelled pieces, standard library only.

The board's regions are painted on a grid of square cells (games/board/map.py). Drawing each
region's outline cell edge by cell edge reads as a pixel trace; smoothing each region on its
own would open gaps and overlaps between neighbours. So the outlines are smoothed border by
border: the cell edges between two labels are chained into one polyline from a junction (a
corner where three or more labels meet, or two touch at a corner only) to the next, and that
polyline is smoothed once, its ends fixed. Each region's outline is then its border polylines
end to end, so neighbours share exactly the same curve and junctions stay where the grid puts
them. Coordinates are in grid units: column x, row y, a cell's corner at integer values.
"""

import heapq
import math
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping

from games.board_data import geometry

Cell = tuple[int, int]  # (row, column)
Vertex = tuple[int, int]  # a cell corner, (x, y) = (column, row)
Point = tuple[float, float]

# Real borders meander: each border gets a gentle wave across it, its own (seeded by where it
# lies, so the map is the same on every run), fading out at its ends so junctions stay put.
MEANDER_AMPLITUDE = 1.0  # grid units, before the blur below damps it
MEANDER_WAVELENGTHS = (6.0, 2.8)  # grid units along the border
RELAX_PASSES = 4  # how far the blur along a border reaches: about two cells
SMOOTHING_ROUNDS = 2
SIMPLIFY_TOLERANCE = 0.02  # grid units: well under what the eye sees once smoothed


def nearest_fill(labels: Mapping[Cell, str], cells: Iterable[Cell]) -> dict[Cell, str]:
    """Label each of cells after the nearest labelled cell (centre to centre, straight-line
    distance), labelled cells keeping theirs, so that each label stays one 4-connected piece.

    The labels spread from cell to edge-sharing cell, nearest source first, so every cell
    reached is joined to its source. Ties go to the smaller cell: the result never depends on
    dictionary order. Two cells of one label touching only at a corner would pinch its outline
    into two loops, so each such corner is then filled in (see _fill_pinches).
    """
    wanted = set(cells) | set(labels)
    filled: dict[Cell, str] = {}
    queue = [(0, cell, cell) for cell in sorted(labels)]
    heapq.heapify(queue)
    while queue:
        _, cell, source = heapq.heappop(queue)
        if cell in filled:
            continue
        filled[cell] = labels[source]
        row, column = cell
        for near in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
            if near in wanted and near not in filled:
                gap = (near[0] - source[0]) ** 2 + (near[1] - source[1]) ** 2
                heapq.heappush(queue, (gap, near, source))
    return _fill_pinches(filled, frozenset(labels))


def _fill_pinches(filled: dict[Cell, str], fixed: frozenset[Cell]) -> dict[Cell, str]:
    """Where two cells of a label meet only at a corner, give it one of the other two cells of
    that 2x2 block (one that was filled, not given), until no such corner is left."""
    changed = True
    while changed:
        changed = False
        for row, column in sorted(filled):
            block = [(row, column), (row, column + 1), (row + 1, column + 1), (row + 1, column)]
            if not all(cell in filled for cell in block):
                continue
            for first in (0, 1):
                here, across = filled[block[first]], filled[block[first + 2]]
                sides = (block[first + 1], block[(first + 3) % 4])
                if here == across and all(filled[side] != here for side in sides):
                    free = [side for side in sides if side not in fixed]
                    if not free:
                        continue
                    filled[free[0]] = here
                    changed = True
    return filled


def _boundary_edges(labels: Mapping[Cell, str]) -> dict[Vertex, set[Vertex]]:
    """The undirected cell edges with a different label (or nothing) on either side."""
    graph: dict[Vertex, set[Vertex]] = defaultdict(set)
    for (row, column), label in labels.items():
        corners = ((column, row), (column + 1, row), (column + 1, row + 1), (column, row + 1))
        beyond = ((row - 1, column), (row, column + 1), (row + 1, column), (row, column - 1))
        for side, neighbour in enumerate(beyond):
            if labels.get(neighbour) != label:
                a, b = corners[side], corners[(side + 1) % 4]
                graph[a].add(b)
                graph[b].add(a)
    return graph


def _border_polylines(graph: dict[Vertex, set[Vertex]]) -> list[list[Vertex]]:
    """The boundary cut at junctions (vertices not of degree two) into polylines; borders
    with no junction at all come out as closed cycles (first vertex repeated last)."""
    junctions = sorted(vertex for vertex, ends in graph.items() if len(ends) != 2)
    used: set[frozenset[Vertex]] = set()
    polylines = []

    def walk(start: Vertex, following: Vertex) -> list[Vertex]:
        line = [start]
        previous, here = start, following
        used.add(frozenset((start, following)))
        while len(graph[here]) == 2 and here != start:
            line.append(here)
            (onward,) = graph[here] - {previous}
            used.add(frozenset((here, onward)))
            previous, here = here, onward
        line.append(here)
        return line

    for junction in junctions:
        for following in sorted(graph[junction]):
            if frozenset((junction, following)) not in used:
                polylines.append(walk(junction, following))
    for vertex in sorted(graph):
        for following in sorted(graph[vertex]):
            if frozenset((vertex, following)) not in used:
                polylines.append(walk(vertex, following))
    return polylines


def _smoothed(line: list[Vertex]) -> list[Point]:
    """A staircase of cell edges made a curve: the edges' midpoints (so steps become slopes),
    then corner cutting; the ends stay fixed. A closed cycle is smoothed all round."""
    middles = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(line, line[1:], strict=False)]
    if line[0] == line[-1]:
        relaxed = geometry.relax(middles, RELAX_PASSES, closed=True)
        curve = geometry.chaikin_closed(relaxed, SMOOTHING_ROUNDS)
        return geometry.simplify([*curve, curve[0]], SIMPLIFY_TOLERANCE)
    control = [line[0], *middles, line[-1]] if len(line) > 2 else list(line)
    relaxed = geometry.relax(_meandering(control, zlib.crc32(repr(line).encode())), RELAX_PASSES)
    return geometry.simplify(geometry.chaikin(relaxed, SMOOTHING_ROUNDS), SIMPLIFY_TOLERANCE)


def _meandering(points: list[Point], seed: int) -> list[Point]:
    """The points pushed sideways along a smooth wave, the ends left where they are."""
    if len(points) < 4:
        return points
    along = [0.0]
    for a, b in zip(points, points[1:], strict=False):
        along.append(along[-1] + math.dist(a, b))
    length = along[-1]
    phases = [(seed >> shift) % 628 / 100 for shift in (0, 10)]
    moved = [points[0]]
    for index in range(1, len(points) - 1):
        before, after = points[index - 1], points[index + 1]
        tangent = (after[0] - before[0], after[1] - before[1])
        norm = math.hypot(*tangent) or 1.0
        fade = min(1.0, along[index] / 2, (length - along[index]) / 2)
        wave = sum(
            weight * math.sin(2 * math.pi * along[index] / wavelength + phase)
            for weight, wavelength, phase in zip(
                (0.65, 0.35), MEANDER_WAVELENGTHS, phases, strict=True
            )
        )
        push = MEANDER_AMPLITUDE * fade * wave
        x, y = points[index]
        moved.append((x - tangent[1] / norm * push, y + tangent[0] / norm * push))
    moved.append(points[-1])
    return moved


def _directed_loops(cells: frozenset[Cell]) -> list[list[Vertex]]:
    """The outline of a set of cells as closed loops of cell corners, clockwise on screen,
    every corner kept (no merging of straight runs)."""
    edges: dict[Vertex, list[Vertex]] = defaultdict(list)
    for row, column in cells:
        corners = ((column, row), (column + 1, row), (column + 1, row + 1), (column, row + 1))
        beyond = ((row - 1, column), (row, column + 1), (row + 1, column), (row, column - 1))
        for side, neighbour in enumerate(beyond):
            if neighbour not in cells:
                edges[corners[side]].append(corners[(side + 1) % 4])
    loops = []
    while edges:
        start = min(edges)
        loop, previous, here = [start], None, start
        while True:
            choices = edges[here]
            following = (
                choices[0] if len(choices) == 1 else _sharpest_right(previous, here, choices)
            )
            choices.remove(following)
            if not choices:
                del edges[here]
            previous, here = here, following
            if here == start:
                break
            loop.append(here)
        loops.append(loop)
    return loops


def _sharpest_right(previous: Vertex | None, here: Vertex, choices: list[Vertex]) -> Vertex:
    if previous is None:
        return min(choices)
    incoming = (here[0] - previous[0], here[1] - previous[1])

    def right_turn_first(point: Vertex) -> int:
        outgoing = (point[0] - here[0], point[1] - here[1])
        return -(incoming[0] * outgoing[1] - incoming[1] * outgoing[0])

    return min(choices, key=right_turn_first)


def smooth_outlines(labels: Mapping[Cell, str]) -> dict[str, list[Point]]:
    """Each label's outline as one smoothed ring (grid units), sharing every border curve with
    the neighbour across it. Raises ValueError when a label is not one piece without holes."""
    graph = _boundary_edges(labels)
    curves: dict[tuple[Vertex, ...], list[Point]] = {}
    for line in _border_polylines(graph):
        curve = _smoothed(line)
        curves[tuple(line)] = curve
        curves[tuple(reversed(line))] = curve[::-1]
    junctions = {vertex for vertex, ends in graph.items() if len(ends) != 2}
    cells_of: dict[str, set[Cell]] = defaultdict(set)
    for cell, label in labels.items():
        cells_of[label].add(cell)
    outlines = {}
    for label, cells in cells_of.items():
        loops = _directed_loops(frozenset(cells))
        if len(loops) != 1:
            raise ValueError(f"{label} is not one piece without holes ({len(loops)} outlines)")
        outlines[label] = _ring_from_curves(loops[0], junctions, curves)
    return outlines


def _ring_from_curves(
    loop: list[Vertex], junctions: set[Vertex], curves: dict[tuple[Vertex, ...], list[Point]]
) -> list[Point]:
    """A loop of cell corners rewritten as the smoothed border curves it is made of."""
    cut_at = [index for index, vertex in enumerate(loop) if vertex in junctions]
    if not cut_at:
        return _closed_curve(loop, curves)
    loop = loop[cut_at[0] :] + loop[: cut_at[0]] + [loop[cut_at[0]]]
    ring: list[Point] = []
    piece = [loop[0]]
    for vertex in loop[1:]:
        piece.append(vertex)
        if vertex in junctions:
            ring.extend(curves[tuple(piece)][:-1])
            piece = [vertex]
    return ring


def _closed_curve(loop: list[Vertex], curves: dict[tuple[Vertex, ...], list[Point]]) -> list:
    """A border with no junction: find the stored cycle, whichever vertex it started from."""
    size = len(loop)
    for key, curve in curves.items():
        if key[0] == key[-1] and len(key) == size + 1 and set(key) == set(loop):
            start = loop.index(key[0])
            same_way = loop[(start + 1) % size] == key[1]
            return curve[:-1] if same_way else curve[::-1][:-1]
    raise ValueError("a closed border was not found among the curves")
