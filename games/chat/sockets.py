"""The chat's frames, shared by the game socket and the lobby socket (docs/protocol.md, "Chat").

A socket talks in one room at a time (`self.chat_room`, a game id and a room name) and hears it
through the room's channel-layer group. Frames from the client:

    {"type": "chat", "text": "..."}                     post to the room
    {"type": "chat_mute", "user": <id>, "on": true}      hide (or show again) a person's messages
    {"type": "chat_delete", "id": <message id>}          staff: delete a message everywhere

Frames to the client: `chat_history` (on joining a room, and after a mute), `chat` (one new
message), `chat_deleted` (a message removed by staff). A refused request gets an `error` frame
with a `chat_*` code. Messages are plain text: clients must show them as text, never as HTML.
"""

from django.utils.translation import gettext as _

from games.services.good_game import room_group
from games.services.table_talk import (
    ChatRefused,
    delete_message,
    history,
    localized,
    may_post,
    muted_ids,
    post_message,
    set_mute,
)
from games.sockets.database_threads import in_database_thread
from games.sockets.limits import FrameRefused

CHAT_FRAMES = ("chat", "chat_mute", "chat_delete")


def check_chat_frame(frame: dict) -> None:
    """FrameRefused (code `malformed`) unless a chat frame has the fields it needs."""
    kind = frame["type"]
    if kind == "chat" and not isinstance(frame.get("text"), str):
        raise FrameRefused("malformed", _("A chat frame needs 'text', a string."))
    if kind == "chat_mute" and not (
        _is_int(frame.get("user")) and isinstance(frame.get("on"), bool)
    ):
        raise FrameRefused(
            "malformed", _("A chat_mute frame needs 'user', a number, and 'on': true or false.")
        )
    if kind == "chat_delete" and not _is_int(frame.get("id")):
        raise FrameRefused("malformed", _("A chat_delete frame needs 'id', a number."))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ChatSocket:
    """Mixed into a consumer that has `send_json`, `send_error`, `channel_layer`, `scope`."""

    chat_room: tuple[int, str] | None = None
    chat_seat: int | None = None
    chat_muted: frozenset = frozenset()

    def chat_user(self):
        return self.scope.get("user")

    async def enter_chat(self, game_id: int, room: str, seat: int | None = None) -> None:
        """Hear the room (leaving any other), without its history: the game page reads that
        over HTTP (games/chat/views.py), so that a socket sends no frame nobody asked for."""
        await self.leave_chat()
        self.chat_room, self.chat_seat = (game_id, room), seat
        self.chat_muted = frozenset(await in_database_thread(muted_ids)(self.chat_user()))
        await self.channel_layer.group_add(room_group(game_id, room), self.channel_name)

    async def join_chat(self, game_id: int, room: str, seat: int | None = None) -> None:
        """Hear the room (leaving any other) and receive its history."""
        await self.enter_chat(game_id, room, seat)
        await self.send_chat_history()

    async def leave_chat(self) -> None:
        if self.chat_room is not None:
            await self.channel_layer.group_discard(room_group(*self.chat_room), self.channel_name)
            self.chat_room = None

    async def send_chat_history(self) -> None:
        game_id, room = self.chat_room
        user = self.chat_user()
        muted, messages, can_post = await in_database_thread(_history_and_mutes)(
            game_id, room, user
        )
        self.chat_muted = frozenset(muted)
        signed_in = user is not None and user.is_authenticated
        await self.send_json(
            {
                "type": "chat_history",
                "room": room,
                "messages": messages,
                "muted": sorted(muted),
                "you": user.pk if signed_in else None,
                "staff": signed_in and user.is_staff,
                "can_post": can_post,
            }
        )

    async def on_chat(self, frame):
        if self.chat_room is None:
            await self.send_error("chat_no_room", _("Open a table or a game to chat."))
            return
        game_id, room = self.chat_room
        user, seat = self.chat_user(), self.chat_seat
        await self.chat_request(post_message, game_id, user, seat, room, frame["text"])

    async def on_chat_mute(self, frame):
        done = await self.chat_request(set_mute, self.chat_user(), frame["user"], frame["on"])
        if done and self.chat_room is not None:
            await self.send_chat_history()

    async def on_chat_delete(self, frame):
        await self.chat_request(delete_message, self.chat_user(), frame["id"])

    async def chat_request(self, func, *args) -> bool:
        """Run a chat service call; a refusal becomes an error frame. Whether it was done."""
        try:
            await in_database_thread(func)(*args)
        except ChatRefused as error:
            await self.send_error(error.code, error.message)
            return False
        return True

    # --- Group events ---------------------------------------------------------------------------

    async def chat_message(self, event):
        entry = event["entry"]
        if entry.get("user") in self.chat_muted:
            return
        await self.send_json({"type": "chat", "message": localized(entry)})

    async def chat_deleted(self, event):
        await self.send_json({"type": "chat_deleted", "id": event["id"]})


def _history_and_mutes(game_id: int, room: str, user) -> tuple[set[int], list[dict], bool]:
    return muted_ids(user), history(game_id, room, user), may_post(user)
