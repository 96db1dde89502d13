"""Table talk through the one way in: showing cards (a change to the game) and chat (not one).

Showing cards is game knowledge, so it goes like an action: one transaction that locks the game,
checks the version, applies `show_cards` through the engine, logs the show (its public record
says how many cards and to whom; `Action.action`, never sent, which ones), saves the snapshot and
bumps the version. Any seat may show at any time, so whose turn it is does not change and
neither does the turn's deadline; after the commit the sockets are told. A show is no decision
(decisions.py): a move against the version before it is still accepted, so the bot's turn and
the person's timer announced for the decision awaited stand, and nothing is announced again.

Chat changes no game state: a message is stored (`games.chat`), then sent to its room's group
after the commit. Rooms: a table waiting in the lobby has one room; a game has the players' room
(seats only) and the spectators' room (everyone else). Limits: a signed-in author, not silenced
by staff, at most MAX_LENGTH characters, at most CHAT_BURST messages per CHAT_WINDOW seconds per
person across all their sockets. Staff may delete a message; anyone may mute anyone (for
themselves). Bots say nothing but "Good game" when a game they played with people ends
(good_game.py).
"""

import unicodedata

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.chat.models import MAX_LENGTH, ChatMessage, ChatMute, ChatSilence, Phrase, Room
from games.limits.throttles import Count, take
from games.models import Action, Game
from games.rules_api import ruleset_of

from .actions import guarded_update, locked_playing_game, with_sqlite_retries
from .errors import IllegalMove, ServiceError
from .followups import NextTurn, after_change
from .frames import move_change
from .good_game import announce, message_entry, room_group
from .notify import after_commit, group_send_now

CHAT_BURST, CHAT_WINDOW = 5, 10  # messages per person, seconds
HISTORY_LENGTH = 100
# The largest id a row can have (a 64-bit signed key): a larger number names no row, and a
# query with it fails in the database instead of finding nothing.
LARGEST_ID = 2**63 - 1
# Characters no message may hold: control characters (PostgreSQL refuses NUL in text) and lone
# surrogates (no UTF-8 encoding exists for them). Whitespace controls are folded first.
UNWRITABLE_CATEGORIES = {"Cc", "Cs"}


class ChatRefused(ServiceError):
    code = "chat_refused"
    default_message = gettext_lazy("The message was not sent.")

    def __init__(self, code: str, message):
        super().__init__(message)
        self.code = code


# --- Showing cards ---------------------------------------------------------------------------


def show_message(error) -> str:
    """The engine's refusal of a show, in the player's language."""
    messages = {
        "over": _("The game is over: there is nothing left to show."),
        "self": _("Choose another player to show your cards to."),
        "target": _("There is no such player at this table."),
        "not_in_hand": _("You can show only cards you hold."),
    }
    return messages.get(error.code, _("Choose one or more cards of your hand to show."))


def submit_show(game_id: int, seat: int, to, cards, expected_version: int) -> int:
    """Seat `seat` shows `cards` to seat `to` (None: every other seat) if the game is still at
    `expected_version`; the new version. StaleVersion, IllegalMove or GameNotPlaying, changing
    nothing."""
    return with_sqlite_retries(lambda: _show_once(game_id, seat, to, cards, expected_version))


def _show_once(game_id, seat, to, cards, expected_version) -> int:
    action = {"type": "show", "to": to, "cards": cards}
    with transaction.atomic():
        game, seats, state = locked_playing_game(game_id, expected_version)
        rules = ruleset_of(game)
        if rules.apply_show is None:
            raise IllegalMove(_("Cards are not shown in this game."), version=game.version)
        try:
            new_state = rules.apply_show(state, seat, action)
        except rules.illegal_show as error:
            raise IllegalMove(show_message(error), version=game.version) from None
        version = expected_version + 1
        fields = {
            "version": version,
            "snapshot": rules.to_json(new_state),
            "turn_deadline": game.turn_deadline,  # a show is not a move: the clock runs on
            # nor a sign of life of the decision awaited: the sweep still finds a lost bot turn
            "updated_at": game.updated_at,
        }
        guarded_update(game_id, expected_version, **fields)
        public = rules.public_record(action, seat, state, new_state)
        Action.objects.create(
            game_id=game_id,
            seq=version,
            seat=seat,
            action=action,
            public=public,
            actor=Action.Actor.HUMAN,
        )
        change = move_change(seat, version, fields, public, seats)
        # The decision awaited is unchanged (decisions.py): the bot's turn and the turn timer
        # announced for it stand, so nothing is announced again.
        after_commit(after_change, game_id, version, False, NextTurn(None), change)
    return version


# --- Chat --------------------------------------------------------------------------------------


def room_for(status: str, seat: int | None) -> str:
    """The room a socket talks in: the table's while it waits, else players' or spectators'."""
    if status == Game.Status.OPEN:
        return Room.TABLE
    return Room.SPECTATORS if seat is None else Room.PLAYERS


def localized(entry: dict) -> dict:
    """The entry with a phrase's text in the active language."""
    if entry.get("phrase"):
        return {**entry, "text": str(Phrase(entry["phrase"]).label)}
    return entry


def muted_ids(user) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def history(game_id: int, room: str, user=None) -> list[dict]:
    """The room's last messages, oldest first, without deleted ones or those of people `user`
    muted."""
    muted = muted_ids(user)
    rows = (
        ChatMessage.objects.filter(game_id=game_id, room=room, deleted=False)
        .exclude(user_id__in=muted)
        .select_related("user")
        .order_by("-created_at", "-pk")[:HISTORY_LENGTH]
    )
    return [localized(message_entry(message)) for message in reversed(list(rows))]


def may_post(user) -> bool:
    """Signed in and not silenced by staff."""
    if user is None or not user.is_authenticated:
        return False
    return not silenced(user)


def silenced(user) -> bool:
    """Whether staff silenced this account or the person behind it. Silence covers what a person
    owns: a silenced person's bot accounts are silent too (else the person would post through
    their bot's socket), and so are the other bots of a silenced bot's owner (else the owner
    would carry on through a sibling, or a new bot). A silenced bot leaves its owner's own voice
    alone: staff silence the owner to silence them all. One query."""
    return ChatSilence.objects.filter(
        Q(user_id=user.pk)  # this account
        | Q(user__owned_bots__user_id=user.pk)  # the owner of this bot
        | Q(user__bot_account__owner__owned_bots__user_id=user.pk)  # a bot of the same owner
    ).exists()


def clean_text(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ChatRefused("chat_empty", _("Write something first."))
    text = " ".join(text.split())  # one line: no layout tricks with runs of spaces or newlines
    if any(unicodedata.category(char) in UNWRITABLE_CATEGORIES for char in text):
        raise ChatRefused(
            "chat_bad_text", _("A message may hold only printable characters, no control codes.")
        )
    if len(text) > MAX_LENGTH:
        raise ChatRefused(
            "chat_too_long",
            _("A message has at most %(limit)s characters.") % {"limit": MAX_LENGTH},
        )
    return text


def allow_rate(user_id: int) -> bool:
    """At most CHAT_BURST messages in any CHAT_WINDOW seconds per person, across every socket and
    process: a slot taken in one step before the message is stored (games/limits/throttles.py), so
    messages sent at the same instant from many sockets get exactly CHAT_BURST slots."""
    return not take(Count("chat", str(user_id), CHAT_BURST, CHAT_WINDOW)).refusal


def post_message(game_id: int, user, seat: int | None, room: str, text) -> dict:
    """Store a person's message and send it to its room after the commit; the entry.
    ChatRefused (nothing stored) when it may not be posted."""
    if user is None or not user.is_authenticated:
        raise ChatRefused("chat_login", _("Log in to chat."))
    if not account_open(user.pk):
        raise ChatRefused("chat_account_closed", _("This account is deleted or disabled."))
    text = clean_text(text)
    if silenced(user):
        raise ChatRefused("chat_silenced", _("You may not chat: the staff have silenced you."))
    if not allow_rate(user.pk):
        raise ChatRefused("chat_rate_limited", _("Too many messages: wait a few seconds."))
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game_id=game_id, room=room, user=user, seat=seat, text=text
        )
        entry = message_entry(message)
        after_commit(announce, game_id, room, entry)
    return entry


def account_open(user_id: int) -> bool:
    """Read afresh: a socket's user was read when it connected, perhaps before the account was
    deleted or disabled."""
    accounts = get_user_model().objects
    return accounts.filter(pk=user_id, is_active=True, deleted_at__isnull=True).exists()


def delete_message(user, message_id) -> None:
    """Staff hide a message everywhere (kept, marked deleted, for the record of moderation)."""
    if user is None or not user.is_authenticated or not user.is_staff:
        raise ChatRefused("chat_not_staff", _("Only staff may delete messages."))
    message = ChatMessage.objects.filter(pk=message_id).first() if is_row_id(message_id) else None
    if message is None:
        raise ChatRefused("chat_no_message", _("There is no such message."))
    hide_messages([message])


def hide_messages(messages) -> None:
    """Mark messages deleted and tell their rooms (the admin's action uses it too)."""
    with transaction.atomic():
        for message in messages:
            ChatMessage.objects.filter(pk=message.pk).update(deleted=True)
            group = room_group(message.game_id, message.room)
            after_commit(group_send_now, group, {"type": "chat.deleted", "id": message.pk})


def silence(user, by=None, reason: str = "") -> None:
    """Staff silence `user` site-wide (they may still read)."""
    ChatSilence.objects.get_or_create(user=user, defaults={"created_by": by, "reason": reason})


def set_mute(user, muted_id, on: bool) -> None:
    if user is None or not user.is_authenticated:
        raise ChatRefused("chat_login", _("Log in to chat."))
    if not is_row_id(muted_id) or muted_id == user.pk or not _user_exists(muted_id):
        raise ChatRefused("chat_no_user", _("There is no such person to mute."))
    if on:
        ChatMute.objects.get_or_create(user=user, muted_id=muted_id)
    else:
        ChatMute.objects.filter(user=user, muted_id=muted_id).delete()


def is_row_id(value) -> bool:
    """Whether a client's number can be a row's id (a key of 1 to LARGEST_ID)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= LARGEST_ID


def _user_exists(user_id: int) -> bool:
    return get_user_model().objects.filter(pk=user_id).exists()
