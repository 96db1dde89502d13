"""Rematch: a finished game's players offered a new table of the same seats and settings.

The one who asks takes their old seat; each bot comes back at its seat and level; each other
person is invited to their old seat and answers on the finished game's page, live: Accept takes
the seat (games.lobby.tables.join_table), Decline frees it for anyone. The answers are read from
the rematch table's seats (`rematch_offer`), so a page loaded later shows the same; every change
tells the finished game's sockets (games.lobby.tables.notify_rematch_watchers).
"""

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat

from .tables import (
    LobbyError,
    SeatPlan,
    create_table,
    join_table,
    notify_lobby,
    notify_rematch_watchers,
)

# Each seat of the finished game, as its rematch stands: a person took their seat again, is still
# asked, or declined (or their seat went to someone else); a bot is back; a seat whose account is
# gone is open to anyone.
ACCEPTED, WAITING, DECLINED, BOT, OPEN = "accepted", "waiting", "declined", "bot", "open"


def rematch(game_id: int, user) -> Game:
    """The rematch of a finished game: a new table with the same seats and settings.

    `user` must have played the game. A game has one rematch: whoever asks next, or asks again,
    is given the same table, and a person asked to it who asks too has accepted it."""
    table = _offer(game_id, user)
    if table.status == Game.Status.OPEN and _is_asked(table, user):
        join_table(table.pk, user)
        table.refresh_from_db()
    return table


def _offer(game_id: int, user) -> Game:
    try:
        with transaction.atomic():
            finished = Game.objects.select_for_update().get(pk=game_id)
            if finished.status != Game.Status.FINISHED:
                raise LobbyError("not_finished", _("This game is not over yet."))
            seats = list(finished.seats.order_by("index"))
            if not any(seat.user_id == user.pk for seat in seats):
                raise LobbyError(
                    "not_seated", _("Only the players of this game can ask for a rematch.")
                )
            existing = Game.objects.filter(rematch_of=finished).first()
            if existing is not None:
                return existing
            table = create_table(
                user,
                finished.players,
                [_rematch_plan(seat, user) for seat in seats],
                options=finished.options,
                turn_seconds=finished.turn_seconds,
                rematch_of=finished,
                game=finished.ruleset,
            )
            notify_rematch_watchers(table)
            return table
    except IntegrityError:
        # Two players asked at the same moment (SQLite ignores the row lock): the other won.
        return Game.objects.get(rematch_of_id=game_id)


def _rematch_plan(seat: Seat, user) -> SeatPlan:
    if seat.user_id == user.pk:
        return SeatPlan("me")
    if seat.user_id:  # a person, even if a stand-in bot finished the game for them
        return SeatPlan("invite", user=seat.user)
    if seat.bot_level:
        return SeatPlan("bot", level=seat.bot_level)
    return SeatPlan("open")  # a person whose account is gone


def _is_asked(table: Game, user) -> bool:
    return table.seats.filter(reserved_for=user, user__isnull=True).exists()


def decline_rematch(game_id: int, user) -> Game:
    """`user`, asked to the rematch of the finished game `game_id`, says no: the seat kept for
    them is open to anyone from now on, and the players who asked hear it. LobbyError, changing
    nothing, if there is no rematch, it has started, or it asks nothing of `user`."""
    with transaction.atomic():
        table = Game.objects.select_for_update().filter(rematch_of_id=game_id).first()
        if table is None:
            raise LobbyError("no_rematch", _("Nobody asked for a rematch of this game."))
        if table.status != Game.Status.OPEN:
            raise LobbyError("started", _("This table is no longer open."))
        freed = Seat.objects.filter(game=table, reserved_for=user, user__isnull=True).update(
            reserved_for=None
        )
        if freed == 0:
            raise LobbyError("not_asked", _("This rematch does not wait for you."))
        notify_lobby()
        notify_rematch_watchers(table)
    return table


def rematch_offer(game_id: int) -> dict | None:
    """The `rematch` frame of the finished game `game_id` (docs/protocol.md, section 6), or None
    while nobody asked for one: the table, who asked, and each seat's answer."""
    table = Game.objects.filter(rematch_of_id=game_id).select_related("created_by").first()
    if table is None:
        return None
    old = {seat.index: seat for seat in Seat.objects.filter(game_id=game_id)}
    new = {seat.index: seat for seat in table.seats.all()}
    asker = next((i for i, seat in old.items() if seat.user_id == table.created_by_id), None)
    started = table.status in (Game.Status.PLAYING, Game.Status.FINISHED)
    return {
        "type": "rematch",
        "table": table.pk,
        "status": table.status,
        "url": reverse("game" if started else "table_detail", args=[table.pk]),
        "join_url": reverse("table_join", args=[table.pk]),
        "decline_url": reverse("rematch_decline", args=[game_id]),
        "offered_by": asker,
        "seats": [
            {"index": index, "answer": _answer(old[index], new.get(index))} for index in sorted(old)
        ],
    }


def _answer(before: Seat, now: Seat | None) -> str:
    if before.user_id is None:
        return BOT if before.bot_level else OPEN
    if now is not None and now.user_id == before.user_id:
        return ACCEPTED
    if now is not None and now.reserved_for_id == before.user_id and now.user_id is None:
        return WAITING
    return DECLINED
