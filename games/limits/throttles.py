"""Throttles: a slot is taken before the work, atomically, by every process alike.

`take(...)` asks for one slot in each of several counters at once; either every counter has room
and a slot is taken in each, or none is taken and a `Refusal` says how long to wait. The check and
the take are one step (a Lua script in Redis in production; a lock in the embedded profile's one
process), so N requests arriving together get exactly the limit's slots and the rest are refused
before any work: no password hash, no mail, no search. Counting after the work let several
requests pass the check before any of them was counted.

Each counter is a sliding window: at most `limit` slots in any `seconds` (the times of the slots
taken, kept as a Redis sorted set). A fixed window lets twice the limit through across its end.
A refused request takes no slot. Work that turns out not to be what the limit counts gives its
slots back (`Taken.give_back`): a log-in that succeeds is not a guess, a sign-up form with an
error made no account.

The log-in (`ThrottledModelBackend`, every log-in form, the admin's too) is throttled so that a
guesser cannot lock the owner out: failures are counted per client address
(LOGIN_FAILURES_PER_IP) and per username from one address (LOGIN_FAILURES_PER_USERNAME_AND_IP).
Per username from everywhere there is only a much higher ceiling (LOGIN_FAILURES_PER_USERNAME),
and a device the owner logged in from before is not held to it: a successful log-in (or sign-up,
or password reset) leaves a signed "known device" cookie naming the account. Sign-ups are counted
per address (SIGNUPS_PER_IP). A limit of 0 is no limit.
"""

import hashlib
import math
import secrets
import threading
import time
from dataclasses import dataclass, field

import redis
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.utils.translation import ngettext

from games.limits.client_address import address_group, client_ip

# --- Refusals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """An attempt refused by a throttle, and how long until a slot frees up."""

    seconds_left: int

    @property
    def minutes_left(self) -> int:
        return max(1, math.ceil(self.seconds_left / 60))

    @property
    def message(self) -> str:
        return ngettext(
            "Too many attempts, try again in %(minutes)d minute.",
            "Too many attempts, try again in %(minutes)d minutes.",
            self.minutes_left,
        ) % {"minutes": self.minutes_left}


# --- Counters ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """One counter to take a slot in: at most `limit` slots in any `seconds`."""

    group: str
    value: str
    limit: int
    seconds: float

    @property
    def key(self) -> str:
        # The tests' per-test prefix keeps one test's counts from another's; the value is
        # hashed, so a huge username makes no huge key.
        prefix = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")
        digest = hashlib.sha256(self.value.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"condottiere:throttle:{prefix}{self.group}:{digest}"


@dataclass(frozen=True)
class Counter:
    """A throttle whose limit and window (in minutes) are settings."""

    group: str
    limit_setting: str
    window_setting: str

    def of(self, value: str) -> Count:
        """The counter for `value` (a limit of 0, no limit, is no counter to `take`)."""
        limit = getattr(settings, self.limit_setting)
        return Count(self.group, value, limit, getattr(settings, self.window_setting) * 60)


# Takes a slot in every counter or in none. KEYS: the counters; ARGV: now, the slot's name, then
# limit and seconds per counter. Returns {0, ""} when taken, else {index of the full counter,
# seconds until its oldest slot lapses}.
TAKE_SCRIPT = """
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local limit, seconds = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - seconds)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return {i, tostring(tonumber(oldest[2]) + seconds - now)}
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[2 + 2 * i])) + 1)
end
return {0, ''}
"""


class RedisSlots:
    """The production counters, shared by every process through Redis."""

    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url)
        self.script = self.client.register_script(TAKE_SCRIPT)

    def take(self, counts: list[Count], name: str, now: float) -> float | None:
        args = [now, name]
        for count in counts:
            args += [count.limit, count.seconds]
        full, seconds = self.script(keys=[count.key for count in counts], args=args)
        return float(seconds) if full else None

    def give_back(self, keys: list[str], name: str) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, name)
            pipe.execute()


class MemorySlots:
    """The embedded profile's counters, in its one process: {key: {slot name: time taken}}."""

    # Every this many takes, counters whose slots all lapsed are dropped: Redis expires its keys,
    # and here a flood of made-up usernames must not leave a counter each behind for good.
    SWEEP_EVERY = 1000

    def __init__(self):
        self.lock = threading.Lock()
        self.slots: dict[str, dict[str, float]] = {}
        self.windows: dict[str, float] = {}
        self.takes = 0

    def take(self, counts: list[Count], name: str, now: float) -> float | None:
        with self.lock:
            self.takes += 1
            if self.takes % self.SWEEP_EVERY == 0:
                self._sweep(now)
            for count in counts:
                held = self.slots.setdefault(count.key, {})
                self.windows[count.key] = count.seconds
                self._drop_lapsed(held, now - count.seconds)
                if len(held) >= count.limit:
                    return min(held.values()) + count.seconds - now
            for count in counts:
                self.slots[count.key][name] = now
            return None

    @staticmethod
    def _drop_lapsed(held: dict[str, float], since: float) -> None:
        for lapsed in [slot for slot, taken in held.items() if taken <= since]:
            del held[lapsed]

    def _sweep(self, now: float) -> None:
        for key in list(self.slots):
            self._drop_lapsed(self.slots[key], now - self.windows[key])
            if not self.slots[key]:
                del self.slots[key], self.windows[key]

    def give_back(self, keys: list[str], name: str) -> None:
        with self.lock:
            for key in keys:
                self.slots.get(key, {}).pop(name, None)


_stores: dict[str | None, RedisSlots | MemorySlots] = {}


def store() -> RedisSlots | MemorySlots:
    url = settings.REDIS_URL
    if url not in _stores:
        _stores[url] = RedisSlots(url) if url else MemorySlots()
    return _stores[url]


@dataclass
class Taken:
    """The outcome of `take`: a refusal, or slots held that the work may give back."""

    refusal: Refusal | None = None
    keys: list[str] = field(default_factory=list)
    name: str = ""

    def give_back(self) -> None:
        if self.keys:
            store().give_back(self.keys, self.name)
            self.keys = []


def take(*counts: Count | None) -> Taken:
    """A slot in every counter given, or a refusal and none. A counter whose limit is 0 (the
    settings' "no limit"), or None, is no counter: callers pass their setting as it is."""
    wanted = [count for count in counts if count is not None and count.limit]
    if not wanted:
        return Taken()
    name = secrets.token_hex(8)
    wait = store().take(wanted, name, time.time())
    if wait is not None:
        return Taken(refusal=Refusal(max(1, math.ceil(wait))))
    return Taken(keys=[count.key for count in wanted], name=name)


# --- Log-in and sign-up -----------------------------------------------------------------------

LOGIN_FAILURES_BY_ADDRESS = Counter(
    "login-failures-address", "LOGIN_FAILURES_PER_IP", "LOGIN_FAILURE_WINDOW_MINUTES"
)
LOGIN_FAILURES_BY_USERNAME_AND_ADDRESS = Counter(
    "login-failures-username-address",
    "LOGIN_FAILURES_PER_USERNAME_AND_IP",
    "LOGIN_FAILURE_WINDOW_MINUTES",
)
LOGIN_FAILURES_BY_USERNAME = Counter(
    "login-failures-username", "LOGIN_FAILURES_PER_USERNAME", "LOGIN_FAILURE_WINDOW_MINUTES"
)
SIGNUPS_BY_ADDRESS = Counter("signups-address", "SIGNUPS_PER_IP", "SIGNUP_WINDOW_MINUTES")

KNOWN_DEVICE_COOKIE = "known_device"
KNOWN_DEVICE_SALT = "games.limits.throttles.known_device"
KNOWN_DEVICE_DAYS = 180


def address_key(request_or_scope) -> str:
    """The client's address, or its /64 network for IPv6 (an HttpRequest or an ASGI scope)."""
    return address_group(client_ip(request_or_scope))


def username_key(username) -> str:
    # Case-folded, so that "Alice" and "ALICE" share the count whatever the user model makes of
    # case.
    return str(username).casefold()


def known_device(request, username) -> bool:
    """Whether this browser logged in as `username` before (a signed cookie says so)."""
    named = request.get_signed_cookie(
        KNOWN_DEVICE_COOKIE,
        default=None,
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_DAYS * 86400,
    )
    return named is not None and named == username_key(username)


def remember_device(response, user) -> None:
    """Mark the browser as the owner's: it is then not held to the per-username ceiling."""
    response.set_signed_cookie(
        KNOWN_DEVICE_COOKIE,
        username_key(user.get_username()),
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_DAYS * 86400,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def take_login_slot(request, username) -> Taken:
    """A slot for one log-in attempt (one password hash), taken before the hash."""
    address, name = address_key(request), username_key(username)
    ceiling = None if known_device(request, username) else LOGIN_FAILURES_BY_USERNAME.of(name)
    return take(
        LOGIN_FAILURES_BY_ADDRESS.of(address),
        LOGIN_FAILURES_BY_USERNAME_AND_ADDRESS.of(f"{name}\n{address}"),
        ceiling,
    )


def take_signup_slot(request) -> Taken:
    return take(SIGNUPS_BY_ADDRESS.of(address_key(request)))


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend behind the log-in throttle, for every log-in form (the admin's too).

    Every attempt takes a slot before its hash; a refused attempt raises PermissionDenied, which
    makes django.contrib.auth.authenticate stop before any hash, and the refusal is left on the
    request for the page to explain. A successful attempt gives its slot back: the counts are of
    failures (a success leaves earlier failures counted)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None or password is None:
            # No request (a shell, Client.login in tests): nothing to throttle by.
            return super().authenticate(request, username, password, **kwargs)
        taken = take_login_slot(request, username)
        if taken.refusal:
            request.login_refusal = taken.refusal
            raise PermissionDenied(taken.refusal.message)
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            taken.give_back()
        return user
