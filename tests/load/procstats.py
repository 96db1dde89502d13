"""CPU and memory of the server processes, per kind, read from /proc (Linux only).

CPU of a kind is the sum, over its live processes, of user + system time including reaped
children (utime + stime + cutime + cstime): a child that exits (a PostgreSQL backend, a recycled
prefork worker) moves its time into its parent's cutime, so the difference between two readings
counts it exactly once as long as its parent is of the same kind. Memory is the proportional set
size (PSS, /proc/PID/smaps_rollup: shared pages divided among their sharers), summed per kind and
sampled every few seconds; the peak of those sums is reported.
"""

import asyncio
import contextlib
import os
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("daphne", "celery worker", "beat", "postgres", "redis-server")


def read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir(PROC) if name.isdigit()]


def stat_fields(pid: int) -> list[str] | None:
    text = read(PROC / str(pid) / "stat")
    if not text:
        return None
    # The command may hold spaces and parentheses: split after the last ')'.
    return text[text.rindex(")") + 2 :].split()


def cpu_seconds(pid: int) -> float:
    fields = stat_fields(pid)
    if fields is None:
        return 0.0
    # Fields 14-17 of stat (utime stime cutime cstime) are 11-14 after the command.
    return sum(int(value) for value in fields[11:15]) / TICKS


def parent(pid: int) -> int | None:
    fields = stat_fields(pid)
    return int(fields[1]) if fields else None


def pss_bytes(pid: int) -> int:
    for line in read(PROC / str(pid) / "smaps_rollup").splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    for line in read(PROC / str(pid) / "status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def command(pid: int) -> list[str]:
    return [part for part in read(PROC / str(pid) / "cmdline").split("\0") if part]


def process_name(pid: int) -> str:
    return read(PROC / str(pid) / "comm").strip()


def with_descendants(roots: list[int]) -> list[int]:
    parents = {pid: parent(pid) for pid in all_pids()}
    found, frontier = set(roots), list(roots)
    while frontier:
        current = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == current and pid not in found:
                found.add(pid)
                frontier.append(pid)
    return [pid for pid in found if pid in parents]


def by_name(name: str) -> list[int]:
    return [pid for pid in all_pids() if process_name(pid) == name]


def external_kinds(ports: list[int]) -> dict[str, list[int]]:
    """Best effort for `--url`: Daphne processes serving these ports, and any Celery processes."""
    kinds: dict[str, list[int]] = {"daphne": [], "celery worker": [], "beat": []}
    for pid in all_pids():
        argv = command(pid)
        names = [os.path.basename(part) for part in argv[:3]]
        if "daphne" in names and any(str(port) in argv for port in ports):
            kinds["daphne"].append(pid)
        elif "celery" in names and "beat" in argv:
            kinds["beat"].append(pid)
        elif "celery" in names and "worker" in argv:
            kinds["celery worker"].append(pid)
    return kinds


@dataclass
class Usage:
    cpu_start: dict[str, float] = field(default_factory=dict)
    cpu_end: dict[str, float] = field(default_factory=dict)
    peak_memory: dict[str, int] = field(default_factory=dict)
    processes: dict[str, int] = field(default_factory=dict)
    started: float = 0.0
    ended: float = 0.0
    harness_start: float = 0.0
    harness_end: float = 0.0

    def rows(self):
        """(kind, cpu seconds, % of one core, peak memory MiB, processes) over the window."""
        seconds = max(1e-9, self.ended - self.started)
        for kind in (*KINDS, "harness"):
            if kind == "harness":
                cpu = self.harness_end - self.harness_start
                memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
                count = 1
            elif kind in self.cpu_start:
                cpu = self.cpu_end.get(kind, 0.0) - self.cpu_start[kind]
                memory, count = self.peak_memory.get(kind, 0), self.processes.get(kind, 0)
            else:
                continue
            yield kind, cpu, 100 * cpu / seconds, memory / 2**20, count


class Monitor:
    """Samples the kinds' processes: CPU at the window's edges, memory every `every` s."""

    def __init__(self, fixed: dict[str, list[int]], every: float = 2.0):
        self.fixed = fixed  # kind -> root pids (started here, or found for --url)
        self.every = every
        self.usage = Usage()
        self.task: asyncio.Task | None = None

    def members(self) -> dict[str, list[int]]:
        kinds = {kind: with_descendants(pids) for kind, pids in self.fixed.items() if pids}
        kinds["postgres"] = by_name("postgres")
        kinds["redis-server"] = by_name("redis-server")
        return kinds

    def cpu(self) -> dict[str, float]:
        return {kind: sum(map(cpu_seconds, pids)) for kind, pids in self.members().items()}

    def sample_memory(self) -> None:
        for kind, pids in self.members().items():
            total = sum(map(pss_bytes, pids))
            self.usage.peak_memory[kind] = max(self.usage.peak_memory.get(kind, 0), total)
            self.usage.processes[kind] = max(self.usage.processes.get(kind, 0), len(pids))

    async def sampling(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.sample_memory()

    def start(self) -> None:
        self.usage.started = time.monotonic()
        self.usage.cpu_start = self.cpu()
        self.usage.harness_start = own_cpu()
        self.sample_memory()
        self.task = asyncio.ensure_future(self.sampling())

    async def stop(self) -> Usage:
        self.usage.ended = time.monotonic()
        self.usage.cpu_end = self.cpu()
        self.usage.harness_end = own_cpu()
        self.sample_memory()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        return self.usage


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
