"""Caps on open websockets: per account (SOCKETS_PER_ACCOUNT) and per client address
(SOCKETS_PER_ADDRESS), counted across every Daphne process.

Each open socket holds a slot in one counter per account and per address: in production a Redis
sorted set (member: the socket's channel name, score: when the slot lapses), checked and taken in
one Lua script so two processes can never both take the last slot. A slot lapses
SOCKET_SLOT_SECONDS after it was last renewed; an open socket renews it three times as often. A
process that crashes cannot release its slots, but they lapse within SOCKET_SLOT_SECONDS instead
of locking the account out (the Presence rows of games/sockets/presence.py outlive a crash by
minutes, and counting them would cost a query per socket opened). The embedded profile is one
process: the same counters live in its memory.

A cap of 0 is no cap. A socket with no account (anonymous) counts only for its address; a socket
with no known address (a Unix socket, a test communicator) only for its account.
"""

import asyncio
import logging
import threading
import time
import weakref

import redis.asyncio
from django.conf import settings
from django.db import connection

from games.limits.client_address import UNKNOWN, client_ip

log = logging.getLogger(__name__)

ACCOUNT, ADDRESS = "account", "address"

# Returns 0 when every slot is taken, else the 1-based index of the first full counter.
CLAIM_SCRIPT = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local lapse = now + tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZSCORE', key, ARGV[1]) == false
     and redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, lapse, ARGV[1])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[2])) + 1)
end
return 0
"""
# Renews the slot only where it is still held (XX): a lapsed slot is not silently re-taken.
RENEW_SCRIPT = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[2])) + 1)
end
return 0
"""


def client_address(scope) -> str | None:
    """The client's address (games/limits/client_address.py: X-Forwarded-For only behind
    TRUSTED_PROXY_COUNT proxies of ours), or None when the server knows no peer. Unknown peers
    are not lumped into one counter: behind a proxy on a Unix socket that would cap the whole
    site at SOCKETS_PER_ADDRESS sockets."""
    address = client_ip(scope)
    return None if address == UNKNOWN else address


def counters(user_id, address) -> list[tuple[str, str, int]]:
    """(kind, key, cap) for each capped counter this socket counts in."""
    # Keys name the database: two sites (or two test runs) sharing a Redis never mix accounts.
    site = connection.settings_dict.get("NAME")
    wanted = [
        (ACCOUNT, user_id, settings.SOCKETS_PER_ACCOUNT),
        (ADDRESS, address, settings.SOCKETS_PER_ADDRESS),
    ]
    return [
        (kind, f"condottiere:{site}:sockets:{kind}:{who}", cap)
        for kind, who, cap in wanted
        if who is not None and cap > 0
    ]


class MemorySlots:
    """The embedded profile's counters: {key: {channel name: lapse time}}, in this process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.held: dict[str, dict[str, float]] = {}

    async def claim(self, member, keyed, seconds) -> int:
        now = time.monotonic()
        with self.lock:
            for index, (key, cap) in enumerate(keyed, start=1):
                held = self.held.setdefault(key, {})
                for lapsed in [name for name, lapse in held.items() if lapse <= now]:
                    del held[lapsed]
                if member not in held and len(held) >= cap:
                    return index
            for key, _ in keyed:
                self.held[key][member] = now + seconds
            return 0

    async def renew(self, member, keys, seconds) -> None:
        with self.lock:
            for key in keys:
                if member in self.held.get(key, {}):
                    self.held[key][member] = time.monotonic() + seconds

    async def release(self, member, keys) -> None:
        with self.lock:
            for key in keys:
                self.held.get(key, {}).pop(member, None)


class RedisSlots:
    """The production counters, shared by every process through Redis."""

    def __init__(self, url: str):
        self.url = url
        # redis.asyncio clients belong to one event loop (Daphne has one; tests make many).
        self.clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def client(self):
        loop = asyncio.get_running_loop()
        if loop not in self.clients:
            client = redis.asyncio.Redis.from_url(self.url)
            self.clients[loop] = (
                client,
                client.register_script(CLAIM_SCRIPT),
                client.register_script(RENEW_SCRIPT),
            )
        return self.clients[loop]

    async def claim(self, member, keyed, seconds) -> int:
        _, claim, _ = self.client()
        keys = [key for key, _ in keyed]
        return int(await claim(keys=keys, args=[member, seconds, *[cap for _, cap in keyed]]))

    async def renew(self, member, keys, seconds) -> None:
        _, _, renew = self.client()
        await renew(keys=keys, args=[member, seconds])

    async def release(self, member, keys) -> None:
        client, _, _ = self.client()
        async with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            await pipe.execute()


_stores: dict[str | None, object] = {}


def store():
    """The counters of this profile: Redis when REDIS_URL is set, else this process's memory."""
    url = settings.REDIS_URL
    if url not in _stores:
        _stores[url] = RedisSlots(url) if url else MemorySlots()
    return _stores[url]


class Slot:
    """The places of `member` in each of `counters` ((kind, key, cap)): `take` them, then `keep`
    them renewed while held. Sockets and the bot API's event streams count this way."""

    # What the log says when a renewal fails, with the member.
    renewal_failure = "could not renew the slot of %s"

    def __init__(self, member: str, counters: list[tuple[str, str, int]]):
        self.member = member
        self.counters = counters
        self.keys = [key for _, key, _ in counters]

    async def take(self) -> str | None:
        """None when every counter had room (the places are now held), else the kind of the
        first counter that is full."""
        if not self.counters:
            return None
        keyed = [(key, cap) for _, key, cap in self.counters]
        full = await store().claim(self.member, keyed, settings.SOCKET_SLOT_SECONDS)
        return self.counters[full - 1][0] if full else None

    async def keep(self) -> None:
        seconds = settings.SOCKET_SLOT_SECONDS
        while True:
            await asyncio.sleep(seconds / 3)
            try:
                await store().renew(self.member, self.keys, seconds)
            except Exception:  # Redis away for a moment: the next renewal may still succeed
                log.warning(self.renewal_failure, self.member, exc_info=True)


class SocketSlot(Slot):
    """One socket's slots: `claim` at connect, `release` at disconnect (renewed meanwhile)."""

    renewal_failure = "could not renew the socket slot of %s"

    def __init__(self, channel_name: str, user_id, address: str | None):
        super().__init__(channel_name, counters(user_id, address))
        self.renewal: asyncio.Task | None = None

    async def claim(self) -> str | None:
        """None when the socket may stay open, else which cap it is over: ACCOUNT or ADDRESS."""
        if not self.counters:
            return None
        over = await self.take()
        if over is None:
            self.renewal = asyncio.ensure_future(self.keep())
        return over

    async def release(self) -> None:
        if self.renewal is None:  # never claimed (refused, or no cap applies)
            return
        self.renewal.cancel()
        await store().release(self.member, self.keys)
