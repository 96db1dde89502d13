"""A game's notices, heard once per Daphne process and handed to its sockets in memory.

The game's channel-layer group (`game-<id>`) carries its notices: `game.version` (with the
move's `change` when a move made the version) and `game.rematch` (games.services.notify,
games.lobby.tables). If every socket joined the group itself, channels-redis would list every
socket's channel in each notice, and each socket would wake up to receive it and apply its
`change` on its own: with a thousand spectators, a thousand of each for every move.

Here the first socket of a process to watch a game opens a `GameWatch`: a channel of the
process's own (`new_channel()`) joins the game's group, and one task receives on that channel
(channels-redis wants one receiver per process-local channel). Each notice is handled once: a
move's `change` builds the next table once (games.sockets.latest_tables), and each socket of the
process that watches the game is told what it now owes (`Wanted`), which it sends from its own
task, coalesced with what it owed already. The last socket to go discards the channel from the
group and stops the task.

The channel is per game rather than per process because a notice does not say which game it is
about: the group it came through is all that does.

Membership: the channel is added to the group before the first socket's first state, so that no
version slips in between, and again every `KEEP_SECONDS` (channels-redis forgets a member after
`group_expiry`, a day, and a Redis that restarted empty has forgotten every group).

A receiver is stopped by cancelling it until it ends (`stop`): on Python 3.11, asyncio.wait_for
returns the result of an awaitable that finished as the caller was cancelled, and so drops the
cancellation (fixed in 3.12); redis-py wraps each command's write in it, so a receiver cancelled
as it sends a command would otherwise go on receiving. Each receiver has a channel of its own,
so one that outlives its watch for a moment takes no notice meant for the next.

If receiving fails (Redis is gone), the game's notices are lost from then on: every socket of
the game is told (`notices_lost`) and closes, and its client reconnects, as a socket whose own
channel fails does (games/sockets/cleanup.py). The next socket to watch the game joins the group
again and starts a new receiver.

The watches live on the event loop that serves the sockets (one per Daphne process; one per test
in the tests), like the tables they share.
"""

import asyncio
import logging
import math
import time
import weakref
from dataclasses import dataclass
from typing import Protocol

from games.models import Game
from games.sockets.latest_tables import latest_tables

log = logging.getLogger(__name__)

# Seconds between two additions of a watched game's channel to its group (see top).
KEEP_SECONDS = 60
# Seconds between two cancellations of a task that has not ended yet (see top).
CANCEL_AGAIN_SECONDS = 1


@dataclass(frozen=True)
class Wanted:
    """The state a socket owes its client: version `at_least` or later, read after `read_after`
    (time.monotonic()) when the table changed without a new version (None: any read will do)."""

    at_least: int = 0
    read_after: float | None = None

    @classmethod
    def fresh(cls) -> "Wanted":
        return cls(0, time.monotonic())

    @classmethod
    def after_notice(cls, message: dict) -> "Wanted":
        """What a `game.version` notice, heard now, asks of every socket of the game."""
        return cls(message.get("version", 0), time.monotonic() if message.get("table") else None)

    def also(self, other: "Wanted") -> "Wanted":
        afters = [after for after in (self.read_after, other.read_after) if after is not None]
        return Wanted(max(self.at_least, other.at_least), max(afters) if afters else None)


class GameListener(Protocol):
    """A socket watching a game. Each call only records what it owes and returns at once: the
    socket sends from its own task."""

    def hear_version(self, wanted: Wanted) -> None: ...

    def hear_rematch(self) -> None: ...

    def notices_lost(self) -> None: ...


class GameWatch:
    """The sockets of this process that watch one game, and the channel that hears the game's
    group for them."""

    def __init__(self, fanout: "GameFanOut", game_id: int):
        self.fanout = fanout
        self.layer = fanout.layer
        self.game_id = game_id
        self.group = Game.group_name_of(game_id)
        self.sockets: set[GameListener] = set()
        self.channel: str | None = None
        self.receiver: asyncio.Task | None = None
        # Joins and leaves of this game, one at a time: a leave's discard never lands after the
        # add of a join that came later.
        self.lock = asyncio.Lock()
        self.busy = 0  # joins and leaves under way: the watch is kept while any is

    async def join(self, socket: GameListener) -> None:
        """Hand `socket` the game's notices from now on: once this returns, the channel is in
        the group (a state read after it misses no version)."""
        self.busy += 1
        try:
            async with self.lock:
                self.sockets.add(socket)
                try:
                    if self.receiver is None:
                        await self._listen()
                except BaseException:
                    self.sockets.discard(socket)
                    raise
        finally:
            self.busy -= 1
            self.fanout.forget_if_idle(self)

    async def _listen(self) -> None:
        """A new channel in the group, and its receiver (the lock is held)."""
        if self.channel is not None:  # a stopped receiver's, still in the group
            await self.layer.group_discard(self.group, self.channel)
            self.channel = None
        channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, channel)
        self.channel = channel
        self.receiver = asyncio.ensure_future(self._receive(channel))

    def forget(self, socket: GameListener) -> None:
        """No notice reaches `socket` from now on (in memory, so that it holds whatever fails
        afterwards); the last socket to go stops the receiver. `leave` then leaves the group."""
        self.sockets.discard(socket)
        if not self.sockets and self.receiver is not None:
            stop(self.receiver)
            self.receiver = None
        self.fanout.forget_if_idle(self)

    async def leave(self, socket: GameListener) -> None:
        """`forget`, then, if no socket of this process watches the game any more, take the
        channel out of the group."""
        self.forget(socket)
        self.busy += 1
        try:
            async with self.lock:
                if not self.sockets and self.channel is not None:
                    channel, self.channel = self.channel, None
                    await self.layer.group_discard(self.group, channel)
        finally:
            self.busy -= 1
            self.fanout.forget_if_idle(self)

    async def renew(self) -> None:
        """Add the channel to the group again, so that the group keeps it (see top)."""
        async with self.lock:
            if self.receiver is not None:
                await self.layer.group_add(self.group, self.channel)

    async def _receive(self, channel: str) -> None:
        try:
            while True:
                message = await self.layer.receive(channel)
                if self.receiver is not asyncio.current_task():
                    return  # stopped, though its cancellation was lost (see top)
                self.hand_out(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "game %s: its notices can no longer be received; closing its %d socket(s)",
                self.game_id,
                len(self.sockets),
            )
            self._lose_notices()

    def _lose_notices(self) -> None:
        """The receiver failed: every socket of the game closes (see top), and the next one to
        join adds the channel to the group again, with a new receiver."""
        self.receiver = None
        for socket in list(self.sockets):
            tell(socket.notices_lost)

    def hand_out(self, message: dict) -> None:
        """A notice of the game's group, handled once for every socket of the process."""
        kind = message.get("type")
        if kind == "game.version":
            tables = latest_tables()
            # A bot chain's earlier moves first, oldest first, then the notice's own.
            for move in [*message.get("earlier", ()), message]:
                if move.get("change") is not None:
                    tables.advance(self.game_id, move["version"], move["change"])
            wanted = Wanted.after_notice(message)
            for socket in list(self.sockets):
                tell(socket.hear_version, wanted)
        elif kind == "game.rematch":
            for socket in list(self.sockets):
                tell(socket.hear_rematch)
        else:
            log.warning("game %s: a notice of unknown type %r ignored", self.game_id, kind)

    @property
    def idle(self) -> bool:
        return not self.sockets and not self.busy and self.receiver is None


def stop(task: asyncio.Task) -> None:
    """Cancel `task`, and again until it has ended (see top)."""
    if not task.done():
        task.cancel()
        asyncio.get_running_loop().call_later(CANCEL_AGAIN_SECONDS, stop, task)


def tell(call, *args) -> None:
    """One socket's share of a notice: a failure there is that socket's, not the others'."""
    try:
        call(*args)
    except Exception:
        log.exception("a game notice could not be handed to a socket")


class GameFanOut:
    """This event loop's game watches, and the task that keeps their channels in their groups."""

    def __init__(self, layer):
        self.layer = layer
        self.watches: dict[int, GameWatch] = {}
        self.keeper: asyncio.Task | None = None
        expiry = getattr(layer, "group_expiry", math.inf)
        self.keep_seconds = min(KEEP_SECONDS, expiry / 2)

    async def watch(self, game_id: int, socket: GameListener) -> GameWatch:
        """Join `socket` to the game's watch (see GameWatch.join); the socket leaves through the
        watch returned."""
        watch = self.watches.get(game_id)
        if watch is None:
            watch = self.watches[game_id] = GameWatch(self, game_id)
        if self.keeper is None:
            self.keeper = asyncio.ensure_future(self._keep_memberships())
        await watch.join(socket)
        return watch

    def forget_if_idle(self, watch: GameWatch) -> None:
        if watch.idle and self.watches.get(watch.game_id) is watch:
            del self.watches[watch.game_id]
            if not self.watches and self.keeper is not None:
                stop(self.keeper)
                self.keeper = None

    async def _keep_memberships(self) -> None:
        while True:
            await asyncio.sleep(self.keep_seconds)
            for watch in list(self.watches.values()):
                try:
                    await watch.renew()
                except Exception:  # the receiver tells the sockets if Redis is really gone
                    log.warning("game %s: could not renew its group membership", watch.game_id)


_per_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def game_fanout(layer) -> GameFanOut:
    """The watches of the running event loop on `layer` (a new layer, as each test has, starts
    afresh)."""
    loop = asyncio.get_running_loop()
    fanout = _per_loop.get(loop)
    if fanout is None or fanout.layer is not layer:
        fanout = _per_loop[loop] = GameFanOut(layer)
    return fanout
