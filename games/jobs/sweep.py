"""One sweep over what is due: turn deadlines long past, bot turns that stalled, tables whose wait
for players is over, matches whose next game is overdue.

Each of these is announced as a job when it becomes due (games.jobs). A job can be lost with the
broker or a restart; the game would then wait for ever. The sweep runs every few seconds (Celery
beat, or a timer thread in the embedded profile) and announces again what is overdue. Before it
does, it claims the game with a conditional UPDATE (`Game.due_claimed_until`): of two sweepers,
or a sweeper and a socket that wakes a stalled game, only the one whose UPDATE changed the row
acts, and nobody acts again on that game until the claim runs out. The jobs themselves re-check
everything, so a late duplicate changes nothing.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import jobs
from games.actors.choosing import acting_seats_at
from games.jobs import pending_bot_turns
from games.matches.services import NEXT_GAME_JOB, overdue_game_ids
from games.models import Game, Seat
from games.rules_api import ruleset_of

log = logging.getLogger(__name__)

# A turn timer fires at its deadline; one still waiting this long after it was lost.
TIMER_GRACE = timedelta(seconds=2)
# The autofill job runs half a second after the table's wait; past this it was lost.
AUTOFILL_GRACE = timedelta(seconds=2)
# Seconds beyond a bot's move delay and thinking time after which its turn counts as lost. With
# the default delay and think time (0.8 + 1.5 s) and a sweep every 5 s, a bot turn lost with a
# worker is played again within 10 s of its move being due, so within 10 s of a worker being back.
# A turn merely slow (a long queue) announced again costs one duplicate job, which finds the
# version gone; the claim keeps it to one per CLAIM.
STALLED_AFTER = 2.5
# How long a claim keeps other sweepers off a game: the announced job's time to run.
CLAIM = timedelta(seconds=15)


def claim(game: Game, now) -> bool:
    """Claim `game`'s due work at its version and status; True for the one caller that wins."""
    unclaimed = Q(due_claimed_until__isnull=True) | Q(due_claimed_until__lte=now)
    won = Game.objects.filter(
        unclaimed, pk=game.pk, version=game.version, status=game.status
    ).update(due_claimed_until=now + CLAIM)
    return won == 1


def claim_and_announce(due, now, announce) -> list[int]:
    """`announce(game)` for every game of `due` that this sweeper claims; their ids."""
    sent = []
    for game in due.only("pk", "version", "status"):
        if claim(game, now):
            announce(game)
            sent.append(game.pk)
    return sent


def overdue_turns(now) -> list[int]:
    """Announce the expiry of every person's turn whose deadline passed and was not acted on."""
    overdue = Game.objects.filter(status=Game.Status.PLAYING, turn_deadline__lt=now - TIMER_GRACE)
    sent = claim_and_announce(
        overdue, now, lambda game: jobs.later("turn_expiry", game.pk, game.version)
    )
    if sent:
        log.warning("turn timers lost and expired now in games %s", sent)
    return sent


def bot_patience() -> float:
    """Seconds a bot may keep a game waiting before its turn counts as lost."""
    return settings.BOT_MOVE_DELAY + settings.BOT_THINK_SECONDS + STALLED_AFTER


def resume_if_stalled(game: Game, now=None) -> bool:
    """Announce again the turn of a bot that has kept `game` waiting far longer than a move
    takes. Returns whether it was announced."""
    now = now or timezone.now()
    if (now - game.updated_at).total_seconds() < bot_patience():
        return False
    if not waiting_on_bots(game) or not claim(game, now):
        return False
    log.warning("game %s waited on a bot at v%s: sending its turn again", game.pk, game.version)
    # Sent even if a message of the game is marked as waiting: that one was lost. It serves
    # every bot still asked, however long ago its decision began.
    pending_bot_turns.announce(game.pk, game.version, force=True)
    jobs.later("bot_turn", game.pk, game.version)
    return True


def waiting_on_bots(game: Game) -> bool:
    """Whether a bot is asked a move now, or owes an answer to an offer of diplomacy (a person
    who offered may be the one acting, waiting for it)."""
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    found = acting_seats_at(game, game.version, seats)
    if found is None:
        return False
    state, asked = found
    if any(seat.plays_as_bot for seat in asked):
        return True
    awaits_answer = ruleset_of(game).awaits_answer
    return any(seat.plays_as_bot and awaits_answer(state, seat.index) for seat in seats)


def resume_stalled_bot_turn(game_id: int) -> bool:
    """`resume_if_stalled` by id: the game consumer calls it when a socket connects or asks to
    sync, so anyone opening a game wakes it at once."""
    # The snapshot is read only if the game has waited long enough to be worth a look.
    game = Game.objects.filter(pk=game_id).defer("snapshot").first()
    return game is not None and resume_if_stalled(game)


def stalled_bot_turns(now) -> list[int]:
    """Announce again every lost bot turn, in games nobody watches too."""
    waiting_since = now - timedelta(seconds=bot_patience())
    # Only games a bot plays in: a people-only game where someone thinks long is no candidate,
    # and each candidate costs a state load.
    may_have_bots = Q(seats__bot_level__gt="") | Q(seats__standin=True)
    candidates = (
        Game.objects.filter(status=Game.Status.PLAYING, updated_at__lt=waiting_since)
        .filter(may_have_bots)
        .distinct()
    )
    return [game.pk for game in candidates if resume_if_stalled(game, now)]


def due_autofills(now) -> list[int]:
    """Announce the autofill of every table whose wait for players ended and was not acted on."""
    due = Game.objects.filter(
        status=Game.Status.OPEN, autofill_level__gt="", autofill_at__lt=now - AUTOFILL_GRACE
    )
    return claim_and_announce(due, now, lambda game: jobs.later("autofill", game.pk))


def sweep(now=None) -> dict[str, list[int]]:
    """The job "sweep": announce whatever is overdue. Returns the games of each kind."""
    now = now or timezone.now()
    return {
        "turn_expiry": overdue_turns(now),
        "bot_turn": stalled_bot_turns(now),
        "autofill": due_autofills(now),
    }


def due_match_games(now=None) -> list[int]:
    """Announce again the job of every match whose next game is overdue or whose finished game
    went unscored (the job "sweep" runs it beside `sweep`). No claim: the job is cheap and,
    once run, leaves nothing due."""
    due = overdue_game_ids(now or timezone.now())
    for game_id in due:
        jobs.later(NEXT_GAME_JOB, game_id)
    return due
