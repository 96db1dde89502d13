"""Challenges and invitations of a bot account, on top of the lobby's tables (games.lobby.tables).

A challenge is a table: the challenger sits at seat 0, the bot's seat is reserved for it (the
lobby's invitation), the other seats hold the site's bots. Accepting is the lobby's `join_table`
(the table then starts); declining closes a challenge's table (the challenger leaves it, the
lobby's `leave_table`), or gives an ordinary invitation's seat back to the table as an open seat.
The bot hears of both through its event stream (games.botapi.events).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.lobby import tables as lobby
from games.lobby.tables import LobbyError, SeatPlan
from games.models import Game, Seat

from .accounts import is_bot_account
from .events import nudge
from .models import Challenge


def challenge_bot(person, bot, players: int = 2, level: str = lobby.DEFAULT_BOT_LEVEL) -> Game:
    """Open a table for `person` and the bot account `bot`, the other seats the site's bots."""
    if not is_bot_account(bot):
        raise LobbyError("not_a_bot", _("Only a bot account can be challenged."))
    if is_bot_account(person):
        raise LobbyError("not_a_person", _("A bot account cannot challenge through the site."))
    if person.pk == bot.pk:
        raise LobbyError("invalid", _("You cannot challenge yourself."))
    plans = [SeatPlan("me"), SeatPlan("invite", user=bot)]
    plans += [SeatPlan("bot", level=level)] * (players - 2)
    with transaction.atomic():
        game = lobby.create_table(person, players, plans)
        Challenge.objects.create(game=game, challenger=person, bot=bot)
        nudge(bot.pk)
    return game


def accept(bot, game_id: int) -> Seat:
    """Take the seat kept for the bot; the lobby starts the table if it is then full."""
    if not Seat.objects.filter(
        game_id=game_id, reserved_for=bot, user__isnull=True, game__status=Game.Status.OPEN
    ).exists():
        raise LobbyError("no_challenge", _("No challenge or invitation waits for you there."))
    with transaction.atomic():
        seat = lobby.join_table(game_id, bot)
        Challenge.objects.filter(game_id=game_id, bot=bot).update(
            status=Challenge.Status.ACCEPTED, answered_at=timezone.now()
        )
    return seat


def decline(bot, game_id: int) -> None:
    """Refuse: a challenge's table closes; an invitation's seat opens to anyone."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        kept = Seat.objects.filter(game_id=game_id, reserved_for=bot, user__isnull=True)
        if game is None or game.status != Game.Status.OPEN or not kept.exists():
            raise LobbyError("no_challenge", _("No challenge or invitation waits for you there."))
        kept.update(reserved_for=None)
        challenge = Challenge.objects.filter(game_id=game_id, bot=bot).first()
        if challenge is not None:
            challenge.status = Challenge.Status.DECLINED
            challenge.answered_at = timezone.now()
            challenge.save(update_fields=["status", "answered_at"])
            if challenge.challenger_id and game.seats.filter(user=challenge.challenger).exists():
                lobby.leave_table(game_id, challenge.challenger)
        lobby.notify_lobby()
        nudge(bot.pk)
