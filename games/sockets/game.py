"""The game websocket (protocol version 1, docs/protocol.md).

Each socket knows its user's seat (or that it is a spectator) and only ever receives that seat's own
`view_for(state, seat)`, inside a `state` frame built from the database. Version notices from the
game's group are hints: the consumer answers them by reading the database and sending the latest
state, once, however many notices arrived meanwhile (versions may jump; the client syncs). The
notices reach the sockets of a process through one watch of the game per process
(games.sockets.fanout), not through each socket's own channel.
"""

import asyncio
import contextvars
import logging
import time

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from games.accounts.sockets import EndsWithAccount
from games.chat.sockets import CHAT_FRAMES, ChatSocket, check_chat_frame
from games.jobs.sweep import resume_stalled_bot_turn
from games.limits.database_refusals import database_refused
from games.lobby.rematch import rematch_offer
from games.models import Game
from games.services import (
    ServiceError,
    hand_to_bot,
    seat_of,
    submit_action,
    take_back_seat,
)
from games.services.errors import NotSeated
from games.services.notify import remember_socket_loop
from games.services.table_talk import room_for, submit_show
from games.sockets import presence
from games.sockets.cleanup import CLOSE_INTERNAL_ERROR, ReleasesOnAnyExit, answered_on_failure
from games.sockets.database_threads import in_database_thread
from games.sockets.fanout import GameWatch, Wanted, game_fanout
from games.sockets.language import language_of
from games.sockets.latest_tables import latest_tables
from games.sockets.limits import (
    CLOSE_RATE_LIMITED,
    CLOSE_TOO_MANY_SOCKETS,
    TOO_MANY_CONNECTS,
    TOO_MANY_FRAMES,
    TOO_MANY_SOCKETS,
    FrameRefused,
    decode_frame,
    game_flood_guard,
    too_many_connects,
)
from games.sockets.slots import SocketSlot, client_address

log = logging.getLogger(__name__)

CLOSE_NO_SUCH_GAME = 4004
CLOSE_NOT_STARTED = 4009
# Errors after which the client's picture is likely out of date: a fresh state follows.
RESYNC_AFTER = {"stale", "illegal", "not_your_turn", "not_playing"}


class MalformedFrame(FrameRefused):
    def __init__(self, message):
        super().__init__("malformed", message)


def parse_frame(text: str | None, data: bytes | None = None) -> dict:
    """The client's frame as a dict with a known type and the fields it needs; FrameRefused
    (its code and message for the client) for anything else."""
    frame = decode_frame(text, data)
    if not isinstance(frame, dict):
        raise MalformedFrame(_("A frame must be a JSON object."))
    kind = frame.get("type")
    if kind == "action":
        if not isinstance(frame.get("action"), dict):
            raise MalformedFrame(_("An action frame needs an 'action' object."))
        version = frame.get("expected_version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise MalformedFrame(_("An action frame needs 'expected_version', a whole number."))
    elif kind == "standin":
        if not isinstance(frame.get("on"), bool):
            raise MalformedFrame(_("A standin frame needs 'on': true or false."))
    elif kind == "show":
        check_show_frame(frame)
    elif kind in CHAT_FRAMES:
        check_chat_frame(frame)
    elif not isinstance(kind, str) or kind not in ("sync", "ping", "chat_join"):
        raise MalformedFrame(_("Unknown frame type."))
    return frame


def check_show_frame(frame: dict) -> None:
    """A show frame's shape (the engine judges the cards): `to` a seat number or null, `cards`
    a list, `expected_version` a whole number."""
    to = frame.get("to", "missing")
    if not (to is None or (isinstance(to, int) and not isinstance(to, bool))):
        raise MalformedFrame(_("A show frame needs 'to': a seat number, or null for everyone."))
    if not isinstance(frame.get("cards"), list):
        raise MalformedFrame(_("A show frame needs 'cards', a list of card codes."))
    version = frame.get("expected_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise MalformedFrame(_("A show frame needs 'expected_version', a whole number."))


class GameConsumer(ReleasesOnAnyExit, EndsWithAccount, ChatSocket, AsyncJsonWebsocketConsumer):
    game_id: int
    seat: int | None = None
    slot: SocketSlot | None = None  # this socket's place under the caps on open sockets
    # What disconnect() releases, as they stand before connect() takes anything (a socket whose
    # handler fails anywhere is released too: games/sockets/cleanup.py).
    refresh_task: asyncio.Task | None = None
    rematch_task: asyncio.Task | None = None
    heartbeat: asyncio.Task | None = None
    watch: GameWatch | None = None  # the process's watch of the game, once joined
    # Notices heard before the first state are answered after it, as Channels would have
    # dispatched them after connect() (see `hear_version`).
    hearing = False

    async def __call__(self, scope, receive, send):
        try:
            return await super().__call__(scope, receive, send)
        finally:
            # However the socket ended (an application cancelled by the server sees no
            # disconnect), the game's notices stop reaching it.
            self.stop_hearing()

    async def connect(self):
        remember_socket_loop(asyncio.get_running_loop())
        # This socket's task keeps the page's language: error frames are in it (and the service
        # calls run with it, as sync_to_async copies the context).
        translation.activate(language_of(self.scope))
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.guard = game_flood_guard()
        self.state_lock = asyncio.Lock()
        self.wanted: Wanted | None = None
        self.rematch_wanted = False
        self.cut_off = False
        await self.accept()
        if await too_many_connects(client_address(self.scope)):
            await self.refuse("rate_limited", TOO_MANY_CONNECTS, CLOSE_RATE_LIMITED)
            return
        if not await self.claim_slot():
            return
        # A revoked token, a password change, a deletion closes the socket from now on.
        if not await self.join_account_groups():
            return
        status, self.seat = await in_database_thread(status_and_seat)(
            self.game_id, self.scope.get("user")
        )
        if status is None:
            await self.close(code=CLOSE_NO_SUCH_GAME)
            return
        if status == Game.Status.OPEN:
            await self.close(code=CLOSE_NOT_STARTED)
            return
        # Join before the first state: no version can slip between the two.
        self.watch = await game_fanout(self.channel_layer).watch(self.game_id, self)
        user = self.scope.get("user")
        self.heartbeat = await presence.socket_opened(self.channel_name, user, self.game_id)
        # Table talk: seats hear the players' room, everyone else the spectators' room, from
        # before the first state (the page then reads the room's history over HTTP, or the
        # client asks for it with chat_join).
        self.talk_room = room_for(status, self.seat)
        await self.enter_chat(self.game_id, self.talk_room, self.seat)
        await self.send_state()
        if status == Game.Status.FINISHED:
            await self.send_rematch()
        self.start_hearing()
        await self.wake_if_stalled()

    async def wake_if_stalled(self):
        """Announce again a bot turn that stalled. Best effort: the sweep does the same within
        seconds, so a database with no connection to lend right now must not cost the socket
        (a connect that raises is torn down) nor answer a sync that was served."""
        try:
            await in_database_thread(resume_stalled_bot_turn)(self.game_id)
        except Exception as error:
            if not database_refused(error):
                raise
            log.warning("game %s: no database connection to check for a stalled bot", self.game_id)

    async def claim_slot(self) -> bool:
        """Hold a place under the caps on open sockets, or refuse this one (closing it)."""
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        self.slot = SocketSlot(self.channel_name, user_id, client_address(self.scope))
        if await self.slot.claim() is None:
            return True
        await self.refuse("too_many_sockets", TOO_MANY_SOCKETS, CLOSE_TOO_MANY_SOCKETS)
        return False

    async def disconnect(self, code):
        self.stop_hearing()  # whatever fails below
        # The Presence row goes even if a release before it fails (a Redis blip): left behind, it
        # would count this closed socket as connected until the sweep purges it.
        try:
            if self.slot is not None:
                await self.slot.release()
            await self.leave_account_groups()
            await self.leave_chat()
            if self.watch is not None:
                await self.watch.leave(self)
        finally:
            if self.heartbeat is not None:
                await presence.socket_closed(self.channel_name, self.heartbeat)

    # --- Client -> server ---------------------------------------------------------------------

    async def websocket_receive(self, message):
        # Channels reads message["bytes"] when there is no text: a message with neither (no
        # server sends one, but nothing stops it) must be refused like any bad frame.
        await self.receive(text_data=message.get("text"), bytes_data=message.get("bytes"))

    async def receive(self, text_data=None, bytes_data=None):
        if self.cut_off:
            return
        if not self.guard.allow(time.monotonic()):
            await self.refuse("rate_limited", TOO_MANY_FRAMES, CLOSE_RATE_LIMITED)
            return
        try:
            frame = parse_frame(text_data, bytes_data)
        except FrameRefused as error:
            await self.send_error(error.code, str(error.message))
            return
        async with answered_on_failure(self, frame["type"]):
            await getattr(self, "on_" + frame["type"])(frame)

    async def on_action(self, frame):
        if self.seat is None:
            await self.send_error(NotSeated.code, str(NotSeated.default_message))
            return
        try:
            await in_database_thread(submit_action)(
                self.game_id, self.seat, frame["action"], frame["expected_version"]
            )
        except ServiceError as error:
            await self.send_service_error(error)
        # On success the group's notice brings the new state to every socket, this one too.

    async def on_show(self, frame):
        """Show cards of this seat's hand to one seat (`to`) or to every other seat (null)."""
        if self.seat is None:
            await self.send_error(NotSeated.code, str(NotSeated.default_message))
            return
        try:
            await in_database_thread(submit_show)(
                self.game_id, self.seat, frame["to"], frame["cards"], frame["expected_version"]
            )
        except ServiceError as error:
            await self.send_service_error(error)

    async def on_chat_join(self, frame):
        await self.join_chat(self.game_id, self.talk_room, self.seat)

    async def on_sync(self, frame):
        await self.send_state()
        await self.wake_if_stalled()

    async def on_ping(self, frame):
        await self.send_json({"type": "pong", "id": frame.get("id")})

    async def on_standin(self, frame):
        if self.seat is None:  # a spectator, signed in or not, has no seat to hand over
            await self.send_error(NotSeated.code, str(NotSeated.default_message))
            return
        user = self.scope.get("user")
        change = hand_to_bot if frame["on"] else take_back_seat
        try:
            await in_database_thread(change)(self.game_id, user)
        except ServiceError as error:
            await self.send_service_error(error)

    # --- Server -> client ---------------------------------------------------------------------

    def stop_hearing(self) -> None:
        """No notice of the game reaches this socket from now on, and none is being answered."""
        if self.watch is not None:
            self.watch.forget(self)
        for task in (self.refresh_task, self.rematch_task):
            if task is not None:
                task.cancel()

    def hear_version(self, wanted: Wanted) -> None:
        """A version notice of the game, handed over by the process's watch of it
        (games.sockets.fanout). Coalesced: while a state is being built, further notices only
        add to what the next build must show, and that build reads whatever is latest."""
        self.wanted = wanted if self.wanted is None else self.wanted.also(wanted)
        self.answer_notices()

    def hear_rematch(self) -> None:
        """A rematch notice: the finished game's rematch table changed (games.lobby.rematch)."""
        self.rematch_wanted = True
        self.answer_notices()

    def notices_lost(self) -> None:
        """The process can hear no more of the game's notices (the channel layer failed): close,
        so that the client reconnects and reads the game again, as when a socket's own channel
        fails (games/sockets/cleanup.py)."""
        if self.cut_off:
            return
        self.cut_off = True
        self.closing = self.in_own_context(self.close(code=CLOSE_INTERNAL_ERROR))

    def start_hearing(self) -> None:
        """From the first state on, notices are answered as they come (and those heard since
        joining, now). Their answers run in this socket's context, its language with it."""
        self.context = contextvars.copy_context()
        self.hearing = True
        self.answer_notices()

    def answer_notices(self) -> None:
        if not self.hearing or self.cut_off:
            return
        if self.wanted is not None and (self.refresh_task is None or self.refresh_task.done()):
            self.refresh_task = self.in_own_context(self.refresh())
        if self.rematch_wanted and (self.rematch_task is None or self.rematch_task.done()):
            self.rematch_task = self.in_own_context(self.refresh_rematch())

    def in_own_context(self, coroutine) -> asyncio.Task:
        """A task of this socket's, as if started by its own handler (the watch's receiver,
        which starts it, is no socket's)."""
        context = getattr(self, "context", None) or contextvars.copy_context()
        return asyncio.get_running_loop().create_task(coroutine, context=context.copy())

    async def refresh_rematch(self):
        """Send the rematch offer once for however many rematch notices came meanwhile. A
        failure closes the socket, as a failed handler does; the client reconnects and reads
        the offer again."""
        try:
            while self.rematch_wanted:
                self.rematch_wanted = False
                await self.send_rematch()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not send the rematch offer of game %s", self.game_id)
            self.cut_off = True
            await self.close(code=CLOSE_INTERNAL_ERROR)

    async def send_rematch(self):
        """The rematch offered after this game, as it stands (none asked: nothing is sent)."""
        offer = await in_database_thread(rematch_offer)(self.game_id)
        if offer is not None:
            await self.send_json(offer)

    async def refresh(self):
        try:
            while self.wanted is not None:
                wanted, self.wanted = self.wanted, None
                await self.send_state(wanted)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away mid-send; the client resyncs on reconnect
            log.exception("could not refresh game %s", self.game_id)

    async def send_state(self, wanted: Wanted | None = None):
        """This seat's frame of the game's table, read once for all the sockets of this process
        that want the same (games.sockets.latest_tables). With nothing named: a read from now."""
        wanted = wanted or Wanted.fresh()
        # One state at a time, each read after the previous one was sent: versions never go back.
        async with self.state_lock:
            table = await latest_tables().get(
                self.game_id, at_least=wanted.at_least, read_after=wanted.read_after
            )
            if table is not None:
                await self.send(text_data=table.text_for(self.seat))

    async def refuse(self, code: str, message, close_code: int):
        """Tell the client why, then close: no frame of this socket is read after it."""
        self.cut_off = True
        await self.send_error(code, str(message))
        await self.close(code=close_code)

    async def send_error(self, code: str, message: str, version: int | None = None):
        await self.send_json(
            {"type": "error", "code": code, "message": message, "version": version}
        )

    async def send_service_error(self, error: ServiceError):
        await self.send_error(error.code, error.message, error.version)
        if error.code in RESYNC_AFTER:
            await self.send_state()


def status_and_seat(game_id: int, user) -> tuple[str | None, int | None]:
    """The game's status (None: no such game) and the user's seat in it (None: a spectator)."""
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
    if status is None or status == Game.Status.OPEN:
        return status, None
    return status, seat_of(Game(pk=game_id), user)
