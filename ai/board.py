"""What a region is worth to a seat: progress toward the win targets on the board.

Pure functions over region names and the board's adjacency, shared by the heuristic bot (which
reads them from a view) and the search's cut-off evaluation.
"""

from functools import lru_cache

from games.engine import ADJACENCY, REGIONS


def win_targets(players: int, bigger_kingdoms: bool) -> tuple[int, int]:
    """[rules] (total regions, connected regions) that win: 6/4 with 2–3 players, else 5/3;
    Bigger Kingdoms raises the connected target by one."""
    total, connected = (6, 4) if players <= 3 else (5, 3)
    return total, connected + (1 if bigger_kingdoms else 0)


def largest_group(regions: frozenset) -> int:
    """Size of the largest connected group among `regions`."""
    return _largest_group(frozenset(regions))


@lru_cache(maxsize=1 << 16)
def _largest_group(regions: frozenset) -> int:
    best, seen = 0, set()
    for start in regions:
        if start in seen:
            continue
        size, stack = 0, [start]
        seen.add(start)
        while stack:
            here = stack.pop()
            size += 1
            for there in ADJACENCY[here]:
                if there in regions and there not in seen:
                    seen.add(there)
                    stack.append(there)
        best = max(best, size)
    return best


def progress(regions: frozenset, targets: tuple[int, int]) -> float:
    """How close a set of regions is to winning, 1.0 = won.

    The nearer of the two routes counts, and a group that borders free regions is worth a
    little more than a dead end (it can still grow)."""
    total, connected = targets
    if not regions:
        return 0.0
    return min(1.0, max(len(regions) / total, largest_group(regions) / connected))


# Cached like _largest_group: a search's heuristic opponents ask about the same few region sets
# hundreds of thousands of times per decision.
@lru_cache(maxsize=1 << 16)
def region_gain(owned: frozenset, region: str, targets: tuple[int, int]) -> float:
    """Progress gained by adding `region`; winning outright counts double, so the bot
    fights hardest for the battle that ends the game."""
    after = owned | {region}
    gain = progress(after, targets) - progress(owned, targets)
    if progress(after, targets) >= 1.0:
        gain += 1.0
    return gain


@lru_cache(maxsize=1 << 16)
def region_loss(owned: frozenset, region: str, targets: tuple[int, int]) -> float:
    """Progress lost by giving up `region` (Capturing Regions)."""
    if region not in owned:
        return 0.0
    return progress(owned, targets) - progress(owned - {region}, targets)


def owned_by_seat(owners: dict, players: int) -> list[frozenset]:
    """The owners map {region: seat} as one frozenset of regions per seat."""
    per_seat = [set() for _ in range(players)]
    for region, seat in owners.items():
        per_seat[int(seat)].add(region)
    return [frozenset(s) for s in per_seat]


ALL_REGIONS = tuple(REGIONS)
