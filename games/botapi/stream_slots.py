"""Caps on open event streams: per token (BOT_API_STREAMS_PER_TOKEN) and per account
(BOT_API_STREAMS_PER_ACCOUNT), counted across every Daphne process.

The counters are the socket caps' (games/sockets/slots.py): a Redis sorted set per token and per
account in production, checked and taken in one Lua script, so two streams opened at the same
moment in two processes cannot both take the last place; this process's memory in the embedded
profile. A stream claims its place before it is answered (over the cap: 429), renews it while it
runs and gives it back when it ends. A server that stops (Daphne on SIGTERM) cancels the
request's handler but not the stream it left running, whose own clean-up then never runs: the
places still held are given back as the process exits. A place whose stream never started, or
whose process crashed, lapses after SOCKET_SLOT_SECONDS.

A cap of 0 is no cap.
"""

import asyncio
import atexit
import contextlib
import logging
import uuid

import redis
from django.conf import settings
from django.db import connection

from games.sockets.slots import Slot, store

log = logging.getLogger(__name__)

TOKEN, ACCOUNT = "token", "account"

# The places this process's running streams hold: {member: keys}.
_held: dict[str, list[str]] = {}


@atexit.register
def _give_back_at_exit() -> None:
    if not _held or not settings.REDIS_URL:  # the embedded profile's places die with it
        return
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        with client.pipeline(transaction=False) as pipe:
            for member, keys in _held.items():
                for key in keys:
                    pipe.zrem(key, member)
            pipe.execute()
    except redis.RedisError:  # they lapse instead
        log.warning("could not give back %d stream places at exit", len(_held), exc_info=True)


def stream_counters(token) -> list[tuple[str, str, int]]:
    """(kind, key, cap) for each capped counter a stream of this token counts in."""
    site = connection.settings_dict.get("NAME")  # two sites sharing a Redis never mix
    wanted = [
        (TOKEN, token.pk, settings.BOT_API_STREAMS_PER_TOKEN),
        (ACCOUNT, token.user_id, settings.BOT_API_STREAMS_PER_ACCOUNT),
    ]
    return [
        (kind, f"condottiere:{site}:streams:{kind}:{who}", cap)
        for kind, who, cap in wanted
        if cap > 0
    ]


class StreamSlot(Slot):
    """One stream's places: `claim` before answering, then `held()` around the streaming."""

    renewal_failure = "could not renew the stream slot %s"

    def __init__(self, token):
        super().__init__(f"stream-{uuid.uuid4().hex}", stream_counters(token))

    async def claim(self) -> str | None:
        """None when the stream may open, else which cap it is over: TOKEN or ACCOUNT."""
        return await self.take()

    @contextlib.asynccontextmanager
    async def held(self):
        """Renewed while the block runs, given back when it ends (however it ends)."""
        if not self.counters:
            yield
            return
        renewal = asyncio.ensure_future(self.keep())
        _held[self.member] = self.keys
        try:
            yield
        finally:
            renewal.cancel()
            await store().release(self.member, self.keys)
            _held.pop(self.member, None)
