"""Who is connected: one Presence row per open websocket, for the staff dashboard.

The consumers call `socket_opened` when a socket is accepted (the row, and a `keep_fresh` task)
and `socket_closed` when it closes (the task stopped, the row deleted). A server that crashes
cannot delete its rows, so readers count only rows seen within `PRESENCE_MAX_AGE` and
`purge_stale` (run by the periodic sweep job) deletes the older ones; `keep_fresh` touches a
live socket's row every HEARTBEAT_SECONDS, well within that age, so a tab left open all day still
counts.
"""

import asyncio
from datetime import timedelta

from django.utils import timezone

from games.models import Presence
from games.sockets.database_threads import in_database_thread

# How often an open socket's row is touched. A crashed server's rows stop being touched, and
# count as gone after PRESENCE_MAX_AGE: the shorter the beat, the sooner the dashboard is right.
HEARTBEAT_SECONDS = 60.0
# A row not touched for this long is the leftover of a crashed server, not a live socket: three
# beats, so that one late touch (a busy database thread) never makes a live socket look stale.
PRESENCE_MAX_AGE = timedelta(seconds=3 * HEARTBEAT_SECONDS)


def connected(channel_name: str, user, game_id: int | None) -> None:
    """Record an open socket: `user` may be anonymous, `game_id` None for the lobby."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"user_id": user_id, "game_id": game_id}
    )


def disconnected(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def touch(channel_name: str) -> None:
    """Mark a socket's row as seen now (never re-creates a row its socket has deleted)."""
    Presence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


async def socket_opened(channel_name: str, user, game_id: int | None) -> asyncio.Task:
    """Record the socket and start its heartbeat; give the task to `socket_closed`."""
    await in_database_thread(connected)(channel_name, user, game_id)
    return asyncio.ensure_future(keep_fresh(channel_name))


async def socket_closed(channel_name: str, heartbeat: asyncio.Task | None) -> None:
    if heartbeat is not None:
        heartbeat.cancel()
    await in_database_thread(disconnected)(channel_name)


async def keep_fresh(channel_name: str) -> None:
    """Touch the socket's row every HEARTBEAT_SECONDS until cancelled (when the socket closes)."""
    touch_row = in_database_thread(touch)
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        await touch_row(channel_name)


def fresh_since(now=None):
    """The one definition of "seen recently": a row touched since this moment is a live socket."""
    return (now or timezone.now()) - PRESENCE_MAX_AGE


def purge_stale(now=None) -> int:
    """Delete rows too old to be live sockets; returns how many went. The periodic sweep job
    calls it, so crashed servers' rows go even when nobody opens the dashboard."""
    deleted, _ = Presence.objects.filter(seen_at__lt=fresh_since(now)).delete()
    return deleted


def live_presences(now=None):
    """The rows of live sockets (seen recently); count sockets per user or address from these."""
    return Presence.objects.filter(seen_at__gte=fresh_since(now))
