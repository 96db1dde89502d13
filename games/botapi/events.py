"""The bot's event stream: challenges, games started, games finished, as NDJSON lines.

What the stream says is read from the database, by comparing what the bot's account has now
(tables kept for it, games it plays) with what the stream last told it. Reads are woken by the
channel layer, so that they work across Daphne processes with Redis:

- the account's own group (`botapi-user-<id>`), nudged by this app when it changes something
  for the bot (a challenge made or declined);
- the lobby's group, which hears every table that opens, starts, finishes or closes (the lobby
  and the services send that notice already);
- and every KEEPALIVE seconds, when a bare newline also goes out, in case a notice was lost.

Hints carry no data: a lost or repeated one changes nothing but when the next read happens.

While it waits, a stream holds no database connection: each read borrows one from the pool in a
thread and gives it back at once (games/sockets/database_threads.py), so streams cannot starve pages
of connections. A stream also listens on its token's and its account's groups
(games/accounts/sockets.py): a revoked token, a password change, a log-out everywhere or a
deleted account ends it at once with a last `streamEnd` line; each keepalive also checks that the
token is still active, in case that notice was lost. Its place under the stream caps
(stream_slots.py) is given back however it ends.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.db import transaction

from games.accounts.sockets import (
    REVOKED_TOKEN,
    account_group,
    reason_message,
    token_active,
    token_group,
)
from games.models import Game, Seat
from games.services.notify import LOBBY_GROUP, group_send_now, remember_socket_loop
from games.sockets.database_threads import in_database_thread

from .models import AccessToken
from .stream_slots import StreamSlot

KEEPALIVE = 10.0
# Lobby notices come with every table's change: read at most this often for them.
MIN_READ_INTERVAL = 0.3


def user_group(user_id: int) -> str:
    return f"botapi-user-{user_id}"


def nudge(user_id: int) -> None:
    """After the commit, tell the account's event streams to read again."""
    transaction.on_commit(
        lambda: group_send_now(user_group(user_id), {"type": "botapi.nudge"}), robust=True
    )


def line(event: dict) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


# --- What the bot has, and what changed ----------------------------------------------------------


def invitations_for(bot) -> list[Game]:
    """Open tables where a seat is kept for this bot account, oldest first."""
    return list(
        Game.objects.filter(
            status=Game.Status.OPEN,
            seats__reserved_for=bot,
            seats__user__isnull=True,
        )
        .select_related("created_by")
        .prefetch_related("seats__user", "seats__reserved_for")
        .order_by("created_at", "pk")
        .distinct()
    )


@dataclass
class Told:
    """What a stream has told its bot so far: tables kept for it, games it plays (id -> seat)."""

    invitations: set[int] = field(default_factory=set)
    playing: dict[int, int] = field(default_factory=dict)


def person(user) -> dict | None:
    if user is None:
        return None
    return {"username": user.username, "name": user.public_name}


def seat_entries(game: Game) -> list[dict]:
    entries = []
    for seat in sorted(game.seats.all(), key=lambda seat: seat.index):
        kind = "human" if seat.user_id else "bot" if seat.bot_level else "open"
        entries.append(
            {
                "index": seat.index,
                "kind": kind,
                "name": seat.occupant_name() if kind != "open" else None,
                "level": seat.bot_level or None,
                "reserved_for": seat.reserved_for.username if seat.reserved_for_id else None,
            }
        )
    return entries


def challenge_event(game: Game) -> dict:
    return {
        "type": "challenge",
        "challenge": {
            "id": game.pk,
            "challenger": person(game.created_by),
            "players": game.players,
            "options": game.options,
            "turn_seconds": game.turn_seconds,
            "seats": seat_entries(game),
        },
    }


def game_start_event(game_id: int, seat: int, players: int) -> dict:
    return {
        "type": "gameStart",
        "game": {
            "id": game_id,
            "seat": seat,
            "players": players,
            "socket": f"/ws/games/{game_id}/",
            "state": f"/api/bot/game/{game_id}/state",
            "move": f"/api/bot/game/{game_id}/move",
        },
    }


def game_finish_event(game: Game, seat: int) -> dict:
    return {
        "type": "gameFinish",
        "game": {"id": game.pk, "seat": seat, "status": game.status, "result": game.result},
    }


def changes(user, told: Told) -> list[dict]:
    """The events since `told` (which this updates), oldest kind first: challenges, starts,
    finishes."""
    events = []
    invited = {game.pk: game for game in invitations_for(user)}
    for game_id in sorted(invited.keys() - told.invitations):
        events.append(challenge_event(invited[game_id]))
    for game_id in sorted(told.invitations - invited.keys()):
        events.append({"type": "challengeGone", "challenge": {"id": game_id}})
    told.invitations = set(invited)
    rows = Seat.objects.filter(user=user, game__status=Game.Status.PLAYING).values_list(
        "game_id", "index", "game__players"
    )
    playing = {game_id: (index, players) for game_id, index, players in rows}
    for game_id in sorted(playing.keys() - told.playing.keys()):
        index, players = playing[game_id]
        events.append(game_start_event(game_id, index, players))
    for game in Game.objects.filter(pk__in=told.playing.keys() - playing.keys()).order_by("pk"):
        events.append(game_finish_event(game, told.playing[game.pk]))
    told.playing = {game_id: index for game_id, (index, _players) in playing.items()}
    return events


def end_line(reason: str) -> bytes:
    """The stream's last line: why it ends (the token revoked, the account signed out)."""
    return line({"type": "streamEnd", "reason": reason, "message": reason_message(reason)})


async def event_lines(token: AccessToken, slot: StreamSlot):
    """The stream's lines for the token's account, until the client goes away (Django cancels
    us then) or the token's credentials go (then a last `streamEnd` line)."""
    user = token.user
    remember_socket_loop(asyncio.get_running_loop())
    layer = get_channel_layer()
    channel = await layer.new_channel()
    groups = (user_group(user.pk), LOBBY_GROUP, account_group(user.pk), token_group(token.pk))
    read = in_database_thread(changes)
    still_active = in_database_thread(token_active)
    told = Told()
    async with slot.held():
        try:
            for group in groups:
                await layer.group_add(group, channel)
            # Joined before this check: a revocation from now on is heard.
            if not await still_active(token.pk):
                yield end_line(REVOKED_TOKEN)
                return
            for event in await read(user, told):
                yield line(event)
            yield b"\n"  # headers and a first byte at once, even with nothing to say
            last_read = time.monotonic()
            while True:
                try:
                    message = await asyncio.wait_for(layer.receive(channel), KEEPALIVE)
                except asyncio.TimeoutError:
                    if not await still_active(token.pk):  # in case the notice was lost
                        yield end_line(REVOKED_TOKEN)
                        return
                    message = None
                    yield b"\n"
                if message is not None and message["type"] == "account.end":
                    yield end_line(message.get("reason", REVOKED_TOKEN))
                    return
                pause = MIN_READ_INTERVAL - (time.monotonic() - last_read)
                if pause > 0:
                    await asyncio.sleep(pause)
                last_read = time.monotonic()
                for event in await read(user, told):
                    yield line(event)
        finally:
            for group in groups:
                await layer.group_discard(group, channel)
