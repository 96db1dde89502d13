"""The latest read of each game's table, shared by the sockets of this process.

When a game moves, every socket watching it is told "version N" and must send its seat's frame
of version N or later. Read alone, a thousand spectators would be a thousand reads of the same
rows. Here the first socket to ask starts one read (on a database thread); the others wait for
that same read and use it if it is recent enough for them:

- after a version notice, any read of version N or later will do (the log is append-only and a
  read at version N shows everything up to N); a notice that carries the move's change builds
  version N from a kept N-1 with no read at all (`advance`);
- after a notice that the table changed without a new version (a stand-in, a rating, an abort),
  or when a socket connects or asks to sync, only a read that began after that moment.

Reads and waiters live on the event loop that serves the sockets (one per Daphne process; one per
test in the tests), so the cache is kept per loop.
"""

import asyncio
import time
import weakref
from collections import OrderedDict

from games.services.frames import Table, read_table
from games.sockets.database_threads import in_database_thread

# Games whose latest read is kept; the oldest is forgotten first (a read is only a cache).
CAPACITY = 2000


class LatestTables:
    def __init__(self, read=read_table, capacity: int = CAPACITY):
        self._read = in_database_thread(read)
        self._capacity = capacity
        self._latest: OrderedDict[int, Table] = OrderedDict()
        # game id -> (the read in flight, when it began)
        self._reading: dict[int, tuple[asyncio.Future, float]] = {}

    async def get(
        self, game_id: int, *, at_least: int = 0, read_after: float | None = None
    ) -> Table | None:
        """A read of the game at version `at_least` or later that began after `read_after`
        (time.monotonic(); None: any time), or None if the game has no table."""
        while True:
            table = self._latest.get(game_id)
            if table is not None and fresh_enough(table, at_least, read_after):
                self._latest.move_to_end(game_id)
                return table
            read, began = self._reading.get(game_id, (None, 0.0))
            if read is None or (read_after is not None and began < read_after):
                read = self._start_read(game_id)
            table = await asyncio.shield(read)
            if table is None:
                return None
            if fresh_enough(table, at_least, read_after):
                return table

    def _start_read(self, game_id: int) -> asyncio.Future:
        began = time.monotonic()
        read = asyncio.ensure_future(self._read_and_keep(game_id))
        self._reading[game_id] = (read, began)
        return read

    async def _read_and_keep(self, game_id: int) -> Table | None:
        try:
            # The last read's log is extended with the newer entries, not read again.
            table = await self._read(game_id, self._latest.get(game_id))
        finally:
            if self._reading.get(game_id, (None,))[0] is asyncio.current_task():
                del self._reading[game_id]
        if table is not None:
            self._keep(game_id, table)
        return table

    def advance(self, game_id: int, version: int, change: dict) -> bool:
        """Build version `version` from the kept table of the version before and a move's
        change, without reading; False if there is no such table to build on."""
        kept = self._latest.get(game_id)
        table = None if kept is None else kept.advanced(version, change)
        if table is None:
            return False
        self._keep(game_id, table)
        return True

    def _keep(self, game_id: int, table: Table) -> None:
        """Keep the newest version; of two of the same version, the later read."""
        kept = self._latest.get(game_id)
        if kept is None or (table.version, table.read_at) >= (kept.version, kept.read_at):
            self._latest[game_id] = table
            self._latest.move_to_end(game_id)
            while len(self._latest) > self._capacity:
                self._latest.popitem(last=False)


def fresh_enough(table: Table, at_least: int, read_after: float | None) -> bool:
    return table.version >= at_least and (read_after is None or table.read_at >= read_after)


_per_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def latest_tables() -> LatestTables:
    """The cache of the running event loop."""
    loop = asyncio.get_running_loop()
    tables = _per_loop.get(loop)
    if tables is None:
        tables = _per_loop[loop] = LatestTables()
    return tables
