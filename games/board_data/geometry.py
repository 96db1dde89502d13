"""Plane geometry for the board map, standard library only: simplify, smooth, clip, measure.

Points are (x, y) tuples; a ring is a list of points, closed implicitly (last joins first).
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Ring = list[Point]


def signed_area(ring: Sequence[Point]) -> float:
    """Shoelace area: positive when the ring turns clockwise on screen (y pointing down)."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        total += x1 * y2 - x2 * y1
    return total / 2


def simplify(points: Sequence[Point], tolerance: float) -> list[Point]:
    """Douglas-Peucker: drop points closer than tolerance to the line kept; ends stay.

    A closed arc (first point equals last) is split at its farthest point first.
    """
    if len(points) < 3:
        return list(points)
    if points[0] == points[-1]:
        far = max(range(len(points)), key=lambda i: math.dist(points[0], points[i]))
        return simplify(points[: far + 1], tolerance)[:-1] + simplify(points[far:], tolerance)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        farthest, distance = None, tolerance
        for index in range(first + 1, last):
            gap = distance_to_segment(points[index], points[first], points[last])
            if gap > distance:
                farthest, distance = index, gap
        if farthest is not None:
            keep[farthest] = True
            stack += [(first, farthest), (farthest, last)]
    return [point for point, kept in zip(points, keep, strict=True) if kept]


def distance_to_segment(point: Point, start: Point, end: Point) -> float:
    (px, py), (ax, ay), (bx, by) = point, start, end
    dx, dy = bx - ax, by - ay
    length_squared = dx * dx + dy * dy
    if length_squared == 0:
        return math.dist(point, start)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length_squared))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def chaikin(points: Sequence[Point], rounds: int) -> list[Point]:
    """Corner cutting with both ends fixed: each round replaces every segment by its points at
    one quarter and three quarters. The curve stays within the polyline's convex hull."""
    result = list(points)
    for _ in range(rounds):
        if len(result) < 3:
            return result
        cut = [result[0]]
        for (x1, y1), (x2, y2) in zip(result, result[1:], strict=False):
            cut.append((0.75 * x1 + 0.25 * x2, 0.75 * y1 + 0.25 * y2))
            cut.append((0.25 * x1 + 0.75 * x2, 0.25 * y1 + 0.75 * y2))
        cut[1], cut[-1] = cut[0], result[-1]  # the ends stay put
        result = [cut[0], *cut[2:-1], cut[-1]]
    return result


def clip_to_box(ring: Sequence[Point], box: tuple[float, float, float, float]) -> Ring:
    """Sutherland-Hodgman against the rectangle (min x, min y, max x, max y)."""
    low_x, low_y, high_x, high_y = box
    sides = (
        (lambda p: p[0] >= low_x, lambda p, q: _at_x(p, q, low_x)),
        (lambda p: p[0] <= high_x, lambda p, q: _at_x(p, q, high_x)),
        (lambda p: p[1] >= low_y, lambda p, q: _at_y(p, q, low_y)),
        (lambda p: p[1] <= high_y, lambda p, q: _at_y(p, q, high_y)),
    )
    result = list(ring)
    for inside, crossing in sides:
        if not result:
            break
        source, result = result, []
        for index, here in enumerate(source):
            before = source[index - 1]
            if inside(here):
                if not inside(before):
                    result.append(crossing(before, here))
                result.append(here)
            elif inside(before):
                result.append(crossing(before, here))
    return result


def _at_x(p: Point, q: Point, x: float) -> Point:
    return (x, p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0]))


def _at_y(p: Point, q: Point, y: float) -> Point:
    return (p[0] + (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1]), y)


def contains(ring: Sequence[Point], point: Point) -> bool:
    """Even-odd point in polygon."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def distance_to_ring(ring: Sequence[Point], point: Point) -> float:
    return min(
        distance_to_segment(point, a, b) for a, b in zip(ring, [*ring[1:], ring[0]], strict=True)
    )


def segment_crosses_box(start: Point, end: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether any part of the segment lies inside the rectangle (Liang-Barsky)."""
    low_x, low_y, high_x, high_y = box
    (x, y), dx, dy = start, end[0] - start[0], end[1] - start[1]
    enter, leave = 0.0, 1.0
    for step, gap in ((-dx, x - low_x), (dx, high_x - x), (-dy, y - low_y), (dy, high_y - y)):
        if step == 0:
            if gap < 0:
                return False
            continue
        t = gap / step
        if step < 0:
            enter = max(enter, t)
        else:
            leave = min(leave, t)
        if enter > leave:
            return False
    return True


def box_inside(ring: Sequence[Point], box: tuple[float, float, float, float]) -> bool:
    """Whether the rectangle lies wholly inside the ring."""
    low_x, low_y, high_x, high_y = box
    if not contains(ring, ((low_x + high_x) / 2, (low_y + high_y) / 2)):
        return False
    for a, b in zip(ring, [*ring[1:], ring[0]], strict=True):
        if max(a[0], b[0]) < low_x or min(a[0], b[0]) > high_x:
            continue
        if max(a[1], b[1]) < low_y or min(a[1], b[1]) > high_y:
            continue
        if segment_crosses_box(a, b, box):
            return False
    return True


# ---- Intersection of two simple polygons (Greiner-Hormann) ----------------------------------


class _Node:
    __slots__ = ("point", "next", "previous", "neighbour", "entry", "visited", "is_crossing")

    def __init__(self, point: Point, is_crossing: bool = False):
        self.point = point
        self.is_crossing = is_crossing
        self.next = self.previous = self.neighbour = None
        self.entry = False
        self.visited = False


def _crossing(a: Point, b: Point, c: Point, d: Point) -> tuple[float, float, Point] | None:
    """Where segment ab properly crosses segment cd: (t along ab, u along cd, point).

    The point is computed from the segments in a fixed order, so the same two segments give
    the same point whichever way either is walked: shared borders stay shared after clipping.
    """
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    denominator = rx * sy - ry * sx
    if denominator == 0:
        return None
    t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / denominator
    u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / denominator
    if not (0 < t < 1 and 0 < u < 1):
        if 0 <= t <= 1 and 0 <= u <= 1:
            raise ValueError(f"degenerate crossing near {a}: a vertex lies on the other outline")
        return None
    (p, q), (r, s) = sorted((a, b)), sorted((c, d))
    px, py, qx, qy = q[0] - p[0], q[1] - p[1], s[0] - r[0], s[1] - r[1]
    shared = ((r[0] - p[0]) * qy - (r[1] - p[1]) * qx) / (px * qy - py * qx)
    return t, u, (p[0] + shared * px, p[1] + shared * py)


class SegmentIndex:
    """The clip ring's segments bucketed by square tiles, to find crossings quickly."""

    def __init__(self, ring: Sequence[Point], tile: float = 10.0):
        self.tile = tile
        self.buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.ring = ring
        for index, (a, b) in enumerate(zip(ring, [*ring[1:], ring[0]], strict=True)):
            for key in self._tiles(a, b):
                self.buckets[key].append(index)

    def _tiles(self, a: Point, b: Point) -> Iterable[tuple[int, int]]:
        tile = self.tile
        for column in range(
            math.floor(min(a[0], b[0]) / tile), math.floor(max(a[0], b[0]) / tile) + 1
        ):
            for row in range(
                math.floor(min(a[1], b[1]) / tile), math.floor(max(a[1], b[1]) / tile) + 1
            ):
                yield (column, row)

    def near(self, a: Point, b: Point) -> set[int]:
        found: set[int] = set()
        for key in self._tiles(a, b):
            found.update(self.buckets.get(key, ()))
        return found


def _linked(points: Sequence[Point]) -> list[_Node]:
    nodes = [_Node(point) for point in points]
    for index, node in enumerate(nodes):
        node.next = nodes[(index + 1) % len(nodes)]
        node.previous = nodes[index - 1]
    return nodes


def _insert_after(node: _Node, new: _Node) -> None:
    new.previous, new.next = node, node.next
    node.next.previous = new
    node.next = new


def intersection(subject: Sequence[Point], clip: Sequence[Point], index=None) -> list[Ring]:
    """The parts of subject inside clip, both simple polygons with no vertex on the other's
    outline (raises ValueError on such a degenerate case)."""
    index = index or SegmentIndex(clip)
    subject_nodes, clip_nodes = _linked(subject), _linked(clip)
    on_subject: dict[int, list] = defaultdict(list)
    on_clip: dict[int, list] = defaultdict(list)
    for i, a in enumerate(subject):
        b = subject[(i + 1) % len(subject)]
        for j in index.near(a, b):
            c, d = clip[j], clip[(j + 1) % len(clip)]
            found = _crossing(a, b, c, d)
            if found:
                t, u, point = found
                first, second = _Node(point, True), _Node(point, True)
                first.neighbour, second.neighbour = second, first
                on_subject[i].append((t, first))
                on_clip[j].append((u, second))
    if not on_subject:
        if contains(clip, subject[0]):
            return [list(subject)]
        if contains(subject, clip[0]):
            return [list(clip)]
        return []
    for nodes, crossings in ((subject_nodes, on_subject), (clip_nodes, on_clip)):
        for position, found in crossings.items():
            after = nodes[position]
            for _, node in sorted(found, key=lambda item: item[0]):
                _insert_after(after, node)
                after = node
    _mark_entries(subject_nodes[0], clip)
    _mark_entries(clip_nodes[0], subject)
    return _trace(subject_nodes[0])


def _mark_entries(start: _Node, other: Sequence[Point]) -> None:
    inside = contains(other, start.point)
    node = start
    while True:
        if node.is_crossing:
            node.entry = not inside
            inside = not inside
        node = node.next
        if node is start:
            return


def _trace(start: _Node) -> list[Ring]:
    rings = []
    node = start
    while True:
        if node.is_crossing and not node.visited:
            rings.append(_trace_one(node))
        node = node.next
        if node is start:
            return rings


def _trace_one(start: _Node) -> Ring:
    ring = [start.point]
    node = start
    while True:
        node.visited = node.neighbour.visited = True
        forward = node.entry
        while True:
            node = node.next if forward else node.previous
            if node.is_crossing:
                break
            ring.append(node.point)
        node = node.neighbour
        if node.visited:
            return ring
        ring.append(node.point)


def chaikin_closed(points: Sequence[Point], rounds: int) -> list[Point]:
    """Corner cutting around a closed ring (no fixed point)."""
    result = list(points)
    for _ in range(rounds):
        cut = []
        for (x1, y1), (x2, y2) in zip(result, [*result[1:], result[0]], strict=True):
            cut.append((0.75 * x1 + 0.25 * x2, 0.75 * y1 + 0.25 * y2))
            cut.append((0.25 * x1 + 0.75 * x2, 0.25 * y1 + 0.75 * y2))
        result = cut
    return result


def relax(points: Sequence[Point], passes: int, closed: bool = False) -> list[Point]:
    """Each pass moves every point to a quarter-half-quarter average of itself and its two
    neighbours (a small Gaussian blur along the line); an open line's ends stay put."""
    result = list(points)
    if len(result) < 3:
        return result
    for _ in range(passes):
        if closed:
            count = len(result)
            result = [
                (
                    0.25 * result[i - 1][0]
                    + 0.5 * result[i][0]
                    + 0.25 * result[(i + 1) % count][0],
                    0.25 * result[i - 1][1]
                    + 0.5 * result[i][1]
                    + 0.25 * result[(i + 1) % count][1],
                )
                for i in range(count)
            ]
        else:
            result = [
                result[0],
                *(
                    (
                        0.25 * a[0] + 0.5 * b[0] + 0.25 * c[0],
                        0.25 * a[1] + 0.5 * b[1] + 0.25 * c[1],
                    )
                    for a, b, c in zip(result, result[1:], result[2:], strict=False)
                ),
                result[-1],
            ]
    return result
