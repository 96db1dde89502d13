"""Who is connected: one Presence row per open websocket, for the staff dashboard.

The consumers call `connected` when a socket is accepted and `disconnected` when it closes (both
through `database_sync_to_async`). A server that crashes cannot delete its rows, so readers count
only rows seen within `PRESENCE_MAX_AGE` and `purge_stale` deletes the older ones.
"""

from datetime import timedelta

from django.utils import timezone

from games.models import Presence

# A row older than this is taken for the leftover of a crashed server, not a live socket.
PRESENCE_MAX_AGE = timedelta(hours=6)


def connected(channel_name: str, user, game_id: int | None) -> None:
    """Record an open socket: `user` may be anonymous, `game_id` None for the lobby."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"user_id": user_id, "game_id": game_id}
    )


def disconnected(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def fresh_since(now=None):
    return (now or timezone.now()) - PRESENCE_MAX_AGE


def purge_stale(now=None) -> int:
    """Delete rows too old to be live sockets; returns how many went."""
    deleted, _ = Presence.objects.filter(seen_at__lt=fresh_since(now)).delete()
    return deleted


def live_presences(now=None):
    return Presence.objects.filter(seen_at__gte=fresh_since(now))
