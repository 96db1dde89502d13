"""The lobby socket (`ws/lobby/`): the list of tables, sent on connect and after every change.

The frame is rendered from the database each time (`{"type": "tables", "tables": [...]}`): the
socket message that triggers it (`lobby.changed`) is only a hint, so a lost hint costs nothing but
a late refresh. Nothing secret is in it: which game each table plays (`ruleset`), who sits
where, the rules, the status.
"""

import asyncio
import time
import weakref

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.accounts.sockets import EndsWithAccount
from games.chat.models import Room
from games.chat.sockets import CHAT_FRAMES, ChatSocket, check_chat_frame
from games.limits.database_refusals import DATABASE_BUSY, database_refused
from games.lobby.tables import WATCHABLE_GAMES, option_keys
from games.models import Game
from games.services.notify import LOBBY_GROUP, remember_socket_loop
from games.services.table_talk import is_row_id
from games.sockets import presence
from games.sockets.cleanup import ReleasesOnAnyExit, answered_on_failure
from games.sockets.database_threads import in_database_thread
from games.sockets.language import language_of
from games.sockets.limits import (
    CLOSE_RATE_LIMITED,
    CLOSE_TOO_MANY_SOCKETS,
    TOO_MANY_CONNECTS,
    TOO_MANY_FRAMES,
    TOO_MANY_SOCKETS,
    FrameRefused,
    decode_frame,
    lobby_flood_guard,
    too_many_connects,
)
from games.sockets.slots import SocketSlot, client_address


def epoch_ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def game_url(game_id: int) -> str:
    return reverse("game", args=[game_id])


def seat_entry(seat, user_id) -> dict:
    if seat.user_id:
        kind, name = "human", seat.user.public_name
    elif seat.bot_level:
        # The condottiere's name alone (a proper name, the same in every language): each reader's
        # page adds the level in its own language, as the game page's "Colleoni (hard bot)".
        kind, name = "bot", seat.condottiere
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
        "bot_account": bool(seat.user_id) and seat.user.is_bot_account,
    }


def table_entry(game: Game, user_id) -> dict:
    seats = [seat_entry(seat, user_id) for seat in game.seats.all()]
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "players": game.players,
        "options": option_keys(game.ruleset, game.options),
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


RELATED = ("seats__user__bot_account", "seats__reserved_for")


def listed_open_tables(user_id=None) -> tuple[list[Game], int]:
    """The open tables the lobby lists, and how many more are open but left out.

    The list is bounded (LOBBY_OPEN_TABLES_LISTED) so that many open tables cannot make every
    lobby frame huge: first the user's own (seated or invited), then the others that have waited
    longest, the ones "Play now" also fills first."""
    open_tables = (
        Game.objects.filter(status=Game.Status.OPEN)
        .select_related("created_by")
        .prefetch_related(*RELATED)
        .order_by("created_at", "pk")
    )
    own = []
    if user_id:
        mine = Q(seats__user_id=user_id) | Q(seats__reserved_for_id=user_id)
        own = list(open_tables.filter(pk__in=Game.objects.filter(mine).values("pk")))
    others = open_tables.exclude(pk__in=[game.pk for game in own])
    listed = list(others[: settings.LOBBY_OPEN_TABLES_LISTED])
    more = others.count() - len(listed) if len(listed) == settings.LOBBY_OPEN_TABLES_LISTED else 0
    return [*own, *listed], more


def playing_tables(user_id=None) -> list[Game]:
    """Games in progress: the newest, and the user's own (newest first)."""
    newest_ids = list(
        Game.objects.filter(status=Game.Status.PLAYING)
        .order_by("-started_at", "-pk")
        .values_list("pk", flat=True)[:WATCHABLE_GAMES]
    )
    in_progress = Q(pk__in=newest_ids)
    if user_id:
        in_progress |= Q(seats__user_id=user_id)
    return list(
        Game.objects.filter(in_progress, status=Game.Status.PLAYING)
        .distinct()
        .select_related("created_by")
        .prefetch_related(*RELATED)
        .order_by("-started_at", "-pk")
    )


def lobby_tables(user_id=None) -> list[dict]:
    """The listed open tables (see listed_open_tables), then games in progress."""
    return table_entries(user_id)[0]


def table_entries(user_id=None) -> tuple[list[dict], int]:
    """lobby_tables, and how many open tables were left out of the list."""
    open_tables, more = listed_open_tables(user_id)
    entries = [table_entry(game, user_id) for game in [*open_tables, *playing_tables(user_id)]]
    return entries, more


def tables_frame(user_id=None) -> dict:
    entries, more = table_entries(user_id)
    return {
        "type": "tables",
        "now": epoch_ms(timezone.now()),
        "tables": entries,
        "more_open_tables": more,
    }


class LobbyConsumer(ReleasesOnAnyExit, EndsWithAccount, ChatSocket, AsyncJsonWebsocketConsumer):
    """Anyone may watch the lobby; a logged-in user's own seats are marked in their frames.

    A client may send `{"type": "sync"}`. Each one costs a read of every listed table, so the
    lobby's flood limit is tighter than a game socket's. A table's page also talks in the
    table's chat room: `{"type": "chat_join", "table": id}`, then the chat frames (games/chat/
    sockets.py). Anything else is answered with an error frame (docs/protocol.md, section 12)."""

    heartbeat: asyncio.Task | None = (
        None  # set once the socket is recorded (games.sockets.presence)
    )
    slot: SocketSlot | None = None  # this socket's place under the caps on open sockets
    cut_off = False  # refused or flooding: frames are no longer read

    async def connect(self):
        # The in-memory layer (embedded profile) must be reached from other threads via this loop.
        remember_socket_loop(asyncio.get_running_loop())
        translation.activate(language_of(self.scope))  # error frames in the page's language
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.guard = lobby_flood_guard()
        # Join before the first frame, so no change can fall between the two.
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        if await too_many_connects(client_address(self.scope)):
            await self.refuse("rate_limited", TOO_MANY_CONNECTS, CLOSE_RATE_LIMITED)
            return
        self.slot = SocketSlot(self.channel_name, self.user_id, client_address(self.scope))
        if await self.slot.claim() is not None:
            await self.refuse("too_many_sockets", TOO_MANY_SOCKETS, CLOSE_TOO_MANY_SOCKETS)
            return
        # A revoked token, a password change, a deletion closes the socket from now on.
        if not await self.join_account_groups():
            return
        self.heartbeat = await presence.socket_opened(self.channel_name, user, None)
        await self.send_tables()

    async def disconnect(self, code):
        # The Presence row goes even if a release before it fails (a Redis blip): left behind, it
        # would count this closed socket as connected until the sweep purges it.
        try:
            await self.leave_account_groups()
            await self.leave_chat()
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
            if self.slot is not None:
                await self.slot.release()
        finally:
            if self.heartbeat is not None:
                await presence.socket_closed(self.channel_name, self.heartbeat)

    async def websocket_receive(self, message):
        # A message with neither text nor bytes is refused like any bad frame (see GameConsumer).
        await self.receive(text_data=message.get("text"), bytes_data=message.get("bytes"))

    async def receive(self, text_data=None, bytes_data=None):
        if self.cut_off:
            return
        if not self.guard.allow(time.monotonic()):
            await self.refuse("rate_limited", TOO_MANY_FRAMES, CLOSE_RATE_LIMITED)
            return
        try:
            content = decode_frame(text_data, bytes_data)
        except FrameRefused as error:
            await self.send_error(error.code, error.message)
            return
        kind = content.get("type") if isinstance(content, dict) else None
        async with answered_on_failure(self, str(kind)):
            await self.on_frame(kind, content)

    async def on_frame(self, kind, content):
        # "Send me the list again" (after a wake-up, say), or a table page's chat.
        if kind == "sync":
            await self.send_tables_or_say_busy()
        elif kind == "chat_join":
            await self.on_chat_join(content)
        elif kind in CHAT_FRAMES:
            await self.on_chat_frame(content)
        else:
            await self.send_error(
                "malformed", _('The lobby answers "sync", "chat_join" and the chat frames.')
            )

    async def on_chat_join(self, content):
        table = content.get("table")
        if not is_row_id(table) or not await in_database_thread(table_exists)(table):
            await self.send_error("chat_no_room", _("There is no such table."))
            return
        await self.join_chat(table, Room.TABLE)

    async def on_chat_frame(self, content):
        try:
            check_chat_frame(content)
        except FrameRefused as error:
            await self.send_error(error.code, error.message)
            return
        await getattr(self, "on_" + content["type"])(content)

    async def send_tables_or_say_busy(self):
        try:
            await self.send_tables()
        except Exception as error:
            if not database_refused(error):
                raise
            await self.send_error("unavailable", str(DATABASE_BUSY))

    async def refuse(self, code: str, message, close_code: int):
        self.cut_off = True
        await self.send_error(code, message)
        await self.close(code=close_code)

    async def send_error(self, code: str, message):
        # The game socket's error shape; the lobby has no version to report.
        await self.send_json(
            {"type": "error", "code": code, "message": str(message), "version": None}
        )

    async def lobby_changed(self, event):
        visitors_tables().changed(event.get("id"))
        if not self.cut_off:
            await self.send_tables()

    async def send_tables(self):
        if self.user_id is None:
            entries, more = await visitors_tables().read()
            frame = {"type": "tables", "now": epoch_ms(timezone.now()), "tables": entries}
            await self.send_json({**frame, "more_open_tables": more})
            return
        await self.send_json(await in_database_thread(tables_frame)(self.user_id))


def table_exists(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exists()


class VisitorsTables:
    """The table list of visitors who are not signed in: the same for all of them, so every lobby
    socket of this process shares one read per lobby change instead of one read per socket and
    per `sync` (a visitor's flood of syncs, or a change seen by a thousand open lobbies, costs
    one query set). A read that started before a change is not kept: the change's notice may
    have overtaken it."""

    def __init__(self):
        self.generation = 0  # one more at every lobby change this process hears of
        self.last_change = None  # the id of that change's notice, heard by every lobby socket
        # The latest read: (generation it started in, when it started, the read under way or done).
        self.latest: tuple[int, float, asyncio.Future] | None = None

    def changed(self, change_id) -> None:
        if change_id is None or change_id != self.last_change:
            self.generation += 1
            self.last_change = change_id

    async def read(self) -> tuple[list[dict], int]:
        if not self.latest_is_usable():
            read = asyncio.ensure_future(in_database_thread(table_entries)(None))
            self.latest = (self.generation, time.monotonic(), read)
        return await asyncio.shield(self.latest[2])

    def latest_is_usable(self) -> bool:
        """Whether the latest read answers this generation: under way, or done without error
        and younger than VISITORS_TABLES_SECONDS (a process with no lobby socket hears no
        notice, so what it read may be old). A done read is used as it is, not only once its
        first waiter has kept it: another socket may ask in between."""
        if self.latest is None:
            return False
        generation, started, read = self.latest
        if generation != self.generation:
            return False
        if not read.done():
            return True
        fresh = time.monotonic() - started < VISITORS_TABLES_SECONDS
        return fresh and not read.cancelled() and read.exception() is None


VISITORS_TABLES_SECONDS = 2.0
_visitors_per_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def visitors_tables() -> VisitorsTables:
    """The shared list of the running event loop (one per Daphne process)."""
    loop = asyncio.get_running_loop()
    if loop not in _visitors_per_loop:
        _visitors_per_loop[loop] = VisitorsTables()
    return _visitors_per_loop[loop]
