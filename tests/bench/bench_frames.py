"""Renaissance state frames: `.venv/bin/python -m tests.bench.bench_frames` (about 30 s).

A state frame (docs/protocol.md, `state`) carries the seat's whole view and the last 100 public
log entries, and a six-player Renaissance game is long: its frames are the largest the site
sends. For whole six-player games of heuristic bots (tests/bench/renaissance_frames.py), with
and without random diplomacy beside them, this prints, at each point of the game (set-up, a vote,
a battle, the last turn, and the whole game), the version whose largest frame is the largest of
that point:

- the bytes of the JSON text the spectators' sockets and each seat's socket receive;
- the time to build one seat's frame (`Table.frame_for` and its JSON text, on a fresh state as a
  socket process builds it from a move's snapshot: no legal list cached yet), and every frame
  of that version (the six seats and the spectators), as a process serving them all does;
- the time to rebuild the state from its snapshot, which that process does first.

Times are CPU milliseconds of this process (`time.process_time`), the median of repeated builds,
so that other loads on a shared machine do not distort them. The frame-size bound the tests hold
is in tests/web/test_renaissance_frame_size.py; the figures are in docs/operations.md.
"""

import os
import statistics
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")
django.setup()

from games.rules_api import RENAISSANCE  # noqa: E402 (after django.setup)
from tests.bench import renaissance_frames as frames  # noqa: E402

GAMES = (
    ("1454, bots only", {}, False),
    ("1454, bots and random diplomacy", {}, True),
    ("1515, powers, bots and random diplomacy", {"scenario": "1515", "powers": True}, True),
)
SEED = 1
ONE_SEAT_REPEATS, ALL_SEATS_REPEATS = 15, 7


def largest_versions(played) -> dict:
    """Per point of the game, (largest frame's bytes, version, every audience's bytes)."""
    found = {}
    for version in range(played.last_version + 1):
        sizes = frames.frame_sizes(played, version)
        for point in frames.points_of(played, version):
            if point not in found or max(sizes.values()) > found[point][0]:
                found[point] = (max(sizes.values()), version, sizes)
    return found


def median_ms(build, repeats: int) -> float:
    """The median CPU time of `build(table)`, each on a fresh table (made outside the timing)."""
    times = []
    for _ in range(repeats):
        table = build.table()
        started = time.process_time()
        build(table)
        times.append(time.process_time() - started)
    return 1000 * statistics.median(times)


class Build:
    """Building a version's frames on fresh tables: `table()` makes one, calling it builds."""

    def __init__(self, played, version: int, audience: list):
        self.played, self.version, self.audience = played, version, audience

    def table(self):
        return frames.table_at(self.played, self.version)

    def __call__(self, table) -> None:
        for seat in self.audience:
            table.text_for(seat)


def snapshot_ms(played, version: int, repeats: int = ONE_SEAT_REPEATS) -> float:
    snapshot = RENAISSANCE.to_json(played.states[version])
    times = []
    for _ in range(repeats):
        started = time.process_time()
        RENAISSANCE.from_json(snapshot)
        times.append(time.process_time() - started)
    return 1000 * statistics.median(times)


def report(name: str, options: dict, diplomacy: bool) -> None:
    played = frames.play(options, SEED, diplomacy)
    print(f"\n{name} (seed {SEED}): {played.last_version} versions")
    print(
        f"{'point':<11}{'version':>8}  {'phase':<14}{'spectator':>10}{'seats min-max':>17}"
        f"{'one seat ms':>13}{'all 7 ms':>10}{'snapshot ms':>13}"
    )
    largest = largest_versions(played)
    for point in frames.POINTS:
        if point not in largest:
            continue
        _, version, sizes = largest[point]
        seats = [sizes[seat] for seat in range(frames.PLAYERS)]
        biggest = max(range(frames.PLAYERS), key=lambda seat: sizes[seat])
        one = median_ms(Build(played, version, [biggest]), ONE_SEAT_REPEATS)
        every = median_ms(Build(played, version, frames.audience()), ALL_SEATS_REPEATS)
        phase = RENAISSANCE.view_for(played.states[version], None)["phase"]
        print(
            f"{point:<11}{version:>8}  {phase:<14}{sizes[None]:>10,}"
            f"{f'{min(seats):,}-{max(seats):,}':>17}{one:>13.1f}{every:>10.1f}"
            f"{snapshot_ms(played, version):>13.1f}"
        )


def main() -> None:
    print("Renaissance state frames, six players: bytes of the JSON text a socket receives,")
    print("CPU ms to build them (one seat: the largest frame; all 7: six seats and spectators)")
    for name, options, diplomacy in GAMES:
        report(name, options, diplomacy)


if __name__ == "__main__":
    main()
