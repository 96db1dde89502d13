"""What every websocket frame from a client must get through before a consumer looks at it.

Both sockets (games/sockets/game.py, games/sockets/lobby.py) read their frames here: a flood guard
per socket, then `decode_frame`, which turns whatever arrived (binary, too big, not JSON, nested
too deep, NaN) into either a JSON value or a `FrameRefused` carrying the error code and message
the client is sent. Nothing a client sends may raise anything else: a frame the socket cannot
read is answered, never a crash (docs/protocol.md, "Limits").

The numbers are settings, read when a socket opens (so a test may raise them).
"""

import json
import time
from collections import deque

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from games.limits.client_address import address_group

# A flood: the socket is told `rate_limited`, then closed with this code.
CLOSE_RATE_LIMITED = 4008
# Too many sockets open for this account or this address: told `too_many_sockets`, then closed.
CLOSE_TOO_MANY_SOCKETS = 4029
TOO_MANY_SOCKETS = _("Too many connections are open for this account or this address: close some.")
TOO_MANY_FRAMES = _("Too many messages: the connection is closed.")
TOO_MANY_CONNECTS = _("Too many connections opened from this address: wait a minute.")


class FrameRefused(ValueError):
    """A frame the socket will not act on; `code` and `message` go into the error frame."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


class FloodGuard:
    """Counts frames in a sliding window: more than `limit` within `window` seconds is a flood."""

    def __init__(self, limit: int, window: float):
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    def allow(self, now: float) -> bool:
        self.times.append(now)
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
        return len(self.times) <= self.limit


async def too_many_connects(address: str | None) -> bool:
    """Whether `address` opened more than SOCKET_CONNECTS_PER_MINUTE sockets this minute.

    The flood guard counts one socket's frames, so a client that reconnects after each close
    would start afresh every time; and each connect costs the server more than a frame (the
    session, the first full state or table list, a presence row). So connects are counted per
    address (IPv6: per /64) across every process, in the cache, in fixed one-minute windows. A
    socket of no known address (a Unix socket with no proxy) is not counted here."""
    limit = settings.SOCKET_CONNECTS_PER_MINUTE
    if not limit or address is None:
        return False
    minute = int(time.time() // 60)
    prefix = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")  # the tests' per-test prefix
    key = f"{prefix}socket-connects:{address_group(address)}:{minute}"
    if await cache.aadd(key, 1, timeout=120):
        return False
    return await cache.aincr(key) > limit


def game_flood_guard() -> FloodGuard:
    return FloodGuard(settings.SOCKET_FLOOD_FRAMES, settings.SOCKET_FLOOD_SECONDS)


def lobby_flood_guard() -> FloodGuard:
    return FloodGuard(settings.LOBBY_FLOOD_FRAMES, settings.LOBBY_FLOOD_SECONDS)


def _refuse_constant(name: str):
    # NaN and Infinity are not JSON, though Python's json module reads them; echoing one back
    # (a ping's id) would send the client something its own JSON parser rejects.
    raise FrameRefused("malformed", _("The frame is not JSON."))


def utf8_size_over(text: str, limit: int) -> bool:
    """Whether `text` takes more than `limit` bytes in UTF-8, without encoding short texts."""
    if len(text) > limit:  # every character takes at least one byte
        return True
    if len(text) * 4 <= limit:  # and at most four
        return False
    # "surrogatepass": a lone surrogate (no valid UTF-8 exists for it) still has a size.
    return len(text.encode("utf-8", "surrogatepass")) > limit


def nesting_depth_over(value, limit: int) -> bool:
    """Whether objects and lists nest more than `limit` deep (iterative: no recursion to blow)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def decode_frame(text_data: str | None, bytes_data: bytes | None):
    """The frame's JSON value, or FrameRefused saying why there is none."""
    limit = settings.SOCKET_FRAME_MAX_BYTES
    too_large = (
        utf8_size_over(text_data, limit)
        if text_data is not None
        else len(bytes_data or b"") > limit
    )
    if too_large:
        raise FrameRefused(
            "too_large",
            _("The frame is larger than %(limit)d bytes.") % {"limit": limit},
        )
    if text_data is None:
        raise FrameRefused("malformed", _("Binary frames are not accepted: send JSON as text."))
    try:
        value = json.loads(text_data, parse_constant=_refuse_constant)
    except RecursionError:  # brackets nested deeper than the parser's own stack allows
        raise FrameRefused("malformed", _("The frame is nested too deeply.")) from None
    except ValueError:  # not JSON, or a number of more digits than Python converts
        raise FrameRefused("malformed", _("The frame is not JSON.")) from None
    if nesting_depth_over(value, settings.SOCKET_FRAME_MAX_DEPTH):
        raise FrameRefused("malformed", _("The frame is nested too deeply."))
    return value
