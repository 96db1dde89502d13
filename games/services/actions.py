"""The one way in: every change to a game's state goes through `submit_action` (or `start_game`).

In one transaction: lock the game row and check its version (a version that only shows came
after will do: a show is no decision, decisions.py), apply the action through the engine,
append it to the log (seq = the new version, with its public record), save the snapshot, bump the
version, finish the game if it is over. PostgreSQL serialises writers on the row lock
(`select_for_update`); SQLite ignores row locks, so the write itself is also a guarded
`UPDATE ... WHERE id = ? AND version = ?` whose row count must be 1. Only after the commit is anyone
told (`transaction.on_commit`): the game's group hears "version N", and the next seat is
scheduled if a bot plays it, or its turn timer starts.
"""

import logging
import random
import time

from django.db import OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import (
    IllegalAction,
    Options,
    apply_action,
    current_player,
    final_result,
    is_terminal,
    new_game,
    view_for,
)
from games.illegal_messages import player_message
from games.models import Action, Game, Seat
from games.public_log import public_record

from .decisions import still_deciding
from .errors import (
    GameNotPlaying,
    IllegalMove,
    NotBotTurn,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from .followups import NextTurn, after_change, bot_acts_next, deadline_for
from .frames import load_state, move_change
from .good_game import say_good_game
from .notify import after_commit, notify_lobby_now

log = logging.getLogger(__name__)

# SQLite has one writer at a time and may refuse a second one outright; try again a few times.
SQLITE_RETRIES = 5


class TableNotReady(ServiceError):
    code = "not_ready"
    default_message = _("Every seat must be taken before the game starts.")


class AlreadyStarted(ServiceError):
    code = "already_started"
    default_message = _("This game has already started.")


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotPlaying(_("There is no such game.")) from None


BOT_ACTORS = (Action.Actor.BOT, Action.Actor.STANDIN)


def bot_actor(seat: Seat, version: int) -> str:
    """ "bot" or "standin", whichever plays the seat now; NotBotTurn if a person does."""
    if not seat.plays_as_bot:
        raise NotBotTurn(version=version)
    return Action.Actor.BOT if seat.is_bot else Action.Actor.STANDIN


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).order_by("index"))


def guarded_update(game_id: int, expected_version: int, **fields) -> None:
    """Write the new game row only if nobody else moved in between (the SQLite guard)."""
    fields.setdefault("updated_at", timezone.now())
    changed = Game.objects.filter(pk=game_id, version=expected_version).update(**fields)
    if changed != 1:
        current = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        raise StaleVersion(version=current)


def submit_action(
    game_id: int,
    seat: int,
    action: dict,
    expected_version: int,
    *,
    actor: str = "human",
    latency_ms: int | None = None,
) -> int:
    """Apply `action` for `seat` if the game is still at `expected_version`; return the new
    version. Raises StaleVersion, NotYourTurn, IllegalMove or GameNotPlaying, changing nothing.
    With actor "bot" or "standin" (a bot's move), also NotBotTurn if no bot plays the seat now;
    the actor logged is then whichever of the two plays it."""
    return with_sqlite_retries(
        lambda: _submit_once(game_id, seat, action, expected_version, actor, latency_ms)
    )


def with_sqlite_retries(attempt):
    """`attempt()`, tried again a few times while SQLite says its file is busy (the embedded
    profile's one writer at a time); PostgreSQL's row locks queue instead, so it runs once."""
    for tries in range(SQLITE_RETRIES):
        try:
            return attempt()
        except OperationalError:
            if connection.vendor != "sqlite" or tries == SQLITE_RETRIES - 1:
                raise
            time.sleep(0.05 * (tries + 1))
    raise AssertionError("unreachable")


def locked_game_and_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row, locked, and its seats in order, in one query (the lock is on the game's
    row only: `FOR UPDATE OF`)."""
    seats = list(
        Seat.objects.select_related("game")
        .select_for_update(of=("game",))
        .filter(game_id=game_id)
        .order_by("index")
    )
    if not seats:  # no seat, no game worth playing: say which
        return locked_game(game_id), []
    return seats[0].game, seats


def locked_playing_game(game_id: int, expected_version: int, *, shows_pass: bool = False):
    """Inside a transaction: the game locked, its seats and its state, if it is played and still
    at `expected_version`; else GameNotPlaying or StaleVersion. With `shows_pass` (a decision),
    an older `expected_version` that only shows came after will do too (decisions.py)."""
    game, seats = locked_game_and_seats(game_id)
    if game.status != Game.Status.PLAYING:
        raise GameNotPlaying(version=game.version)
    current = (
        still_deciding(game, expected_version) if shows_pass else game.version == expected_version
    )
    if not current:
        raise StaleVersion(version=game.version)
    return game, seats, load_state(game)


def _submit_once(game_id, seat, action, expected_version, actor, latency_ms) -> int:
    with transaction.atomic():
        game, seats, state = locked_playing_game(game_id, expected_version, shows_pass=True)
        # The version the move follows: the one sent, or a newer one made by shows only.
        expected_version = game.version
        if current_player(state) != seat:
            raise NotYourTurn(version=game.version)
        try:
            new_state = apply_action(state, action)
        except IllegalAction as error:
            # The engine speaks English; the player reads the refusal in their language.
            raise IllegalMove(player_message(str(error)), version=game.version) from None
        public_after = view_for(new_state, None)
        version = expected_version + 1
        if actor in BOT_ACTORS:
            actor = bot_actor(seats[seat], game.version)
        fields = {"version": version, "snapshot": new_state.to_json()}
        finished = is_terminal(new_state)
        if finished:
            fields.update(
                status=Game.Status.FINISHED,
                finished_at=timezone.now(),
                result=final_result(new_state),
                turn_deadline=None,
            )
        else:
            fields["turn_deadline"] = deadline_for(game, new_state, seats)
        guarded_update(game_id, expected_version, **fields)
        public = public_record(action, seat, view_for(state, None), public_after)
        Action.objects.create(
            game_id=game_id,
            seq=version,
            seat=seat,
            action=action,
            public=public,
            actor=actor,
            latency_ms=latency_ms,
        )
        # A finished game's sockets read it afresh (its result and ratings).
        change = None if finished else move_change(seat, version, fields, public, seats)
        next_turn = NextTurn(
            None if finished else bot_acts_next(new_state, seats),
            fields["turn_deadline"],
            game.seed,
            fields["snapshot"],
        )
        after_commit(after_change, game_id, version, finished, next_turn, change)
        if finished:  # the bots at a table of people say "Good game" (table talk)
            after_commit(say_good_game, game_id)
    return version


def first_token_holder(game: Game) -> int:
    """The seat that starts with the Condottiere token, drawn from the game's seed."""
    return random.Random(game.seed).randrange(game.players)


def start_game(game_id: int) -> None:
    """Start a table whose seats are all taken: deal from the seed, version 0, status playing.
    Safe inside the caller's transaction (the lobby starts a table in the one that fills it)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise AlreadyStarted(version=game.version)
        seats = seats_of(game)
        if len(seats) != game.players or any(seat.is_open for seat in seats):
            raise TableNotReady()
        state = new_game(
            game.players,
            seed=game.seed,
            options=Options.from_dict(game.options or {}),
            first=first_token_holder(game),
        )
        deadline = deadline_for(game, state, seats)
        now = timezone.now()
        Game.objects.filter(pk=game_id).update(
            status=Game.Status.PLAYING,
            started_at=now,
            updated_at=now,
            version=0,
            snapshot=state.to_json(),
            turn_deadline=deadline,
        )
        next_turn = NextTurn(bot_acts_next(state, seats), deadline, game.seed, state.to_json())
        after_commit(after_change, game_id, 0, False, next_turn)
        transaction.on_commit(notify_lobby_now, robust=True)
