"""The lobby socket (`ws/lobby/`): the list of tables, sent on connect and after every change.

The frame is rendered from the database each time (`{"type": "tables", "tables": [...]}`): the
socket message that triggers it (`lobby.changed`) is only a hint, so a lost hint costs nothing but
a late refresh. Nothing secret is in it: who sits where, the rules, the status.
"""

import asyncio
import json

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.database_threads import in_database_thread
from games.lobby import WATCHABLE_GAMES
from games.models import Game
from games.services.notify import LOBBY_GROUP, remember_socket_loop


def epoch_ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def game_url(game_id: int) -> str:
    return reverse("game", args=[game_id])


def seat_entry(seat, user_id) -> dict:
    if seat.user_id:
        kind, name = "human", seat.user.public_name
    elif seat.bot_level:
        kind, name = "bot", ""
    elif seat.reserved_for_id:
        kind, name = "reserved", seat.reserved_for.public_name
    else:
        kind, name = "open", ""
    return {
        "index": seat.index,
        "colour": seat.colour,
        "kind": kind,
        "name": name,
        "level": seat.bot_level,
        "you": bool(user_id) and seat.user_id == user_id,
        "yours": bool(user_id) and seat.reserved_for_id == user_id and not seat.user_id,
    }


def table_entry(game: Game, user_id) -> dict:
    seats = [seat_entry(seat, user_id) for seat in game.seats.all()]
    return {
        "id": game.pk,
        "status": game.status,
        "players": game.players,
        "options": sorted(name for name, on in game.options.items() if on),
        "turn_seconds": game.turn_seconds,
        "seats": seats,
        "taken": sum(seat["kind"] in {"human", "bot"} for seat in seats),
        "creator": game.created_by.public_name if game.created_by else "",
        "created_at": epoch_ms(game.created_at),
        "started_at": epoch_ms(game.started_at),
        "autofill_at": epoch_ms(game.autofill_at) if game.status == Game.Status.OPEN else None,
        "you": any(seat["you"] for seat in seats),
        "url": reverse("table_detail", args=[game.pk])
        if game.status == Game.Status.OPEN
        else game_url(game.pk),
    }


def lobby_tables(user_id=None) -> list[dict]:
    """Every open table (oldest first), then games in progress: the newest and the user's own."""
    related = ("seats__user", "seats__reserved_for")
    open_tables = (
        Game.objects.filter(status=Game.Status.OPEN)
        .select_related("created_by")
        .prefetch_related(*related)
        .order_by("created_at", "pk")
    )
    newest_ids = list(
        Game.objects.filter(status=Game.Status.PLAYING)
        .order_by("-started_at", "-pk")
        .values_list("pk", flat=True)[:WATCHABLE_GAMES]
    )
    in_progress = Q(pk__in=newest_ids)
    if user_id:
        in_progress |= Q(seats__user_id=user_id)
    playing = (
        Game.objects.filter(in_progress, status=Game.Status.PLAYING)
        .distinct()
        .select_related("created_by")
        .prefetch_related(*related)
        .order_by("-started_at", "-pk")
    )
    return [table_entry(game, user_id) for game in [*open_tables, *playing]]


def tables_frame(user_id=None) -> dict:
    return {"type": "tables", "now": epoch_ms(timezone.now()), "tables": lobby_tables(user_id)}


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """Anyone may watch the lobby; a logged-in user's own seats are marked in their frames."""

    heartbeat: asyncio.Task | None = None  # set once the socket is recorded (games.presence)

    async def connect(self):
        # The in-memory layer (embedded profile) must be reached from other threads via this loop.
        remember_socket_loop(asyncio.get_running_loop())
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        # Join before the first frame, so no change can fall between the two.
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        self.heartbeat = await presence.socket_opened(self.channel_name, user, None)
        await self.send_tables()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        await presence.socket_closed(self.channel_name, self.heartbeat)

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return json.loads(text_data)
        except ValueError:
            return None  # not JSON: ignored, like any other frame the lobby does not expect

    async def receive_json(self, content, **kwargs):
        # The only request a client makes: "send me the list again" (after a wake-up, say).
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.send_tables()

    async def lobby_changed(self, event):
        await self.send_tables()

    async def send_tables(self):
        await self.send_json(await in_database_thread(tables_frame)(self.user_id))
