"""The one thing bots say: "Good game", when a game they played with people ends; and the
chat's rooms and messages as frames carry them (shared with table_talk.py, which imports the
rest of the services: this module imports none, so `followups` may call it)."""

from django.db import transaction

from games.chat.models import ChatMessage, Phrase, Room
from games.models import Seat

from .notify import after_commit, group_send_now


def room_group(game_id: int, room: str) -> str:
    return f"chat-{game_id}-{room}"


def author_name(message: ChatMessage) -> str:
    return message.user.public_name if message.user_id else ""


def message_entry(message: ChatMessage) -> dict:
    """A message as the `chat` frame carries it. A phrase's text is left empty here: each
    reader's socket fills it in the reader's language (`table_talk.localized`)."""
    return {
        "id": message.pk,
        "room": message.room,
        "user": message.user_id,
        "name": author_name(message),
        "seat": message.seat,
        "text": message.text,
        "phrase": message.phrase or None,
        "at": int(message.created_at.timestamp() * 1000),
    }


def announce(game_id: int, room: str, entry: dict) -> None:
    group_send_now(room_group(game_id, room), {"type": "chat.message", "entry": entry})


def say_good_game(game_id: int) -> None:
    """When a game that people played ends, each bot at the table says "Good game" once (the
    one thing bots say), in the players' room."""
    seats = list(Seat.objects.filter(game_id=game_id).order_by("index"))
    if not any(seat.user_id for seat in seats):
        return
    with transaction.atomic():
        for seat in seats:
            if seat.user_id or not seat.bot_level:
                continue
            message = ChatMessage.objects.create(
                game_id=game_id, room=Room.PLAYERS, seat=seat.index, phrase=Phrase.GOOD_GAME
            )
            after_commit(announce, game_id, Room.PLAYERS, message_entry(message))
