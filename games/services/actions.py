"""The one way in: every change to a game's state goes through `submit_action` (or `start_game`).

Check the game's version (a version that only shows came after will do: a show is no decision,
decisions.py), apply the action through the engine, append it to the log (seq = the new version,
with its public record), save the snapshot, bump the version, finish the game if it is over; the
game row and the Action row are written together or not at all.

On PostgreSQL, outside a caller's transaction, a move takes no lock: the game and its seats are
read in one statement, and the write (one statement too) lands only if no transaction has written
the game row since (its `xmin`; every change a move depends on writes that row). Otherwise, and
whenever that write finds the row changed, the move runs in one transaction under the game row's
lock (`select_for_update`), which serialises writers; SQLite ignores row locks, so that write is
also a guarded `UPDATE ... WHERE id = ? AND version = ?` whose row count must be 1. Only once the
rows are committed is anyone told (`transaction.on_commit`): the game's group hears "version N",
and the next seat is scheduled if a bot plays it, or its turn timer starts.
"""

import logging
import time
from dataclasses import dataclass

from django.db import OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Action, Game, Seat
from games.rules_api import ruleset_of
from games.words.refusals import player_message

from .decisions import next_seat_versions, still_deciding
from .errors import (
    GameNotPlaying,
    IllegalMove,
    NotBotTurn,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from .followups import (
    after_change,
    bots_due,
    decision_clocks,
    new_clock,
    next_turn_for,
)
from .frames import load_state, move_change
from .game_rows import (
    game_and_seats_unlocked,
    insert_action,
    locked_game_row,
    seats_of_game,
    update_game_and_insert_action,
    update_game_at,
)
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


def no_such_game() -> GameNotPlaying:
    return GameNotPlaying(_("There is no such game."))


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise no_such_game() from None


BOT_ACTORS = (Action.Actor.BOT, Action.Actor.STANDIN)


def bot_actor(seat: Seat, version: int) -> str:
    """ "bot" or "standin", whichever plays the seat now; NotBotTurn if a person does."""
    if not seat.plays_as_bot:
        raise NotBotTurn(version=version)
    return Action.Actor.BOT if seat.is_bot else Action.Actor.STANDIN


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).order_by("index"))


def guarded_update(game_id: int, expected_version: int, **fields) -> None:
    """Write the new game row only if nobody else moved in between (the SQLite guard), by a
    fixed statement (game_rows.py) unless a value needs the ORM (an expression)."""
    fields.setdefault("updated_at", timezone.now())
    changed = update_game_at(game_id, expected_version, fields)
    if changed is None:
        changed = Game.objects.filter(pk=game_id, version=expected_version).update(**fields)
    if changed != 1:
        raise StaleVersion(version=current_version(game_id))


def current_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def write_move(game_id: int, expected_version: int, fields: dict, action: dict) -> None:
    """The new game row (`guarded_update`) and the move's Action row, in one statement where
    the database allows (game_rows.py), else in turn: StaleVersion and nothing written if
    somebody else moved in between."""
    fields = {"updated_at": timezone.now(), **fields}
    written = update_game_and_insert_action(game_id, expected_version, fields, action)
    if written is None:
        guarded_update(game_id, expected_version, **fields)
        insert_action(**action)
    elif written != 1:
        raise StaleVersion(version=current_version(game_id))


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
    """The game row, locked, and its seats in order (each with the game as `seat.game`): the
    game row once, not once per seat, by fixed statements (game_rows.py)."""
    game = locked_game_row(game_id)
    if game is None:
        raise no_such_game()
    return game, seats_of_game(game)


def locked_playing_game(game_id: int, expected_version: int, *, seat: int | None = None):
    """Inside a transaction: the game locked, its seats and its state, if it is played and still
    at `expected_version`; else GameNotPlaying or StaleVersion. With a `seat` (its decision), an
    older `expected_version` will do too if that seat's decision is still the one it was asked
    there (decisions.py)."""
    game, seats = locked_game_and_seats(game_id)
    return game, seats, playing_state(game, expected_version, seat)


def playing_state(game: Game, expected_version: int, seat: int | None):
    """The game's state, if it is played and `expected_version` is current for `seat` (see
    `locked_playing_game`); else GameNotPlaying or StaleVersion."""
    if game.status != Game.Status.PLAYING:
        raise GameNotPlaying(version=game.version)
    current = (
        game.version == expected_version
        if seat is None
        else still_deciding(game, expected_version, seat)
    )
    if not current:
        raise StaleVersion(version=game.version)
    return load_state(game)


@dataclass
class PlannedMove:
    """A move's rows, worked out from the game as read, and what is told once they are in."""

    game_id: int
    previous: int  # the version the move follows
    version: int
    fields: dict  # the game row's new values
    logged: dict  # the Action row
    finished: bool
    change: dict | None
    next_turn: object


def _submit_once(game_id, seat, action, expected_version, actor, latency_ms) -> int:
    """Without a lock where the database allows (`_submit_unlocked`), else under the game row's
    lock; the same checks, rows and notices either way."""
    if unlocked_moves_allowed():
        version = _submit_unlocked(game_id, seat, action, expected_version, actor, latency_ms)
        if version is not None:
            return version
    return _submit_locked(game_id, seat, action, expected_version, actor, latency_ms)


def unlocked_moves_allowed() -> bool:
    """PostgreSQL, outside any transaction of the caller's (whose rows and locks the move must
    then share). An attribute, not `get_autocommit()`, which opens the connection on the way
    and checks it is not called from an event loop: 4% of the worker's CPU under load."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block


def _submit_locked(game_id, seat, action, expected_version, actor, latency_ms) -> int:
    with transaction.atomic():
        game, seats, state = locked_playing_game(game_id, expected_version, seat=seat)
        move = plan_move(game, seats, state, seat, action, actor, latency_ms)
        write_move(game_id, move.previous, move.fields, move.logged)
        announce_move(move)
    return move.version


def _submit_unlocked(game_id, seat, action, expected_version, actor, latency_ms) -> int | None:
    """The move in two statements and no transaction: the game and its seats read together,
    then the game row and the Action row written together only if no transaction has written
    the game row since the read (a move, a stand-in taken or given back, an abort: each writes
    it). Two round trips to PostgreSQL instead of five (BEGIN, the locked row, the seats, the
    write, COMMIT). The refusals are judged on the rows read, a consistent snapshot. None when
    the row changed meanwhile: the caller then moves under the lock, judging afresh."""
    found = game_and_seats_unlocked(game_id)
    if found is None:
        raise no_such_game()
    game, seats, stamp = found
    state = playing_state(game, expected_version, seat)
    move = plan_move(game, seats, state, seat, action, actor, latency_ms)
    written = update_game_and_insert_action(
        game_id, move.previous, move.fields, move.logged, unchanged_since=stamp
    )
    if written != 1:
        return None
    announce_move(move)  # no transaction: the hooks run now, after the write
    return move.version


def plan_move(game, seats, state, seat, action, actor, latency_ms) -> PlannedMove:
    """The move's rows and notices, from the game, seats and state as read; IllegalMove,
    NotYourTurn or NotBotTurn if it may not be played."""
    ruleset = ruleset_of(game)
    new_state = applied(ruleset, game, state, seat, action)
    # The version the action follows: the newest (any since the seat's decision will do).
    previous = game.version
    version = previous + 1
    if actor in BOT_ACTORS:
        actor = bot_actor(seats[seat], previous)
    versions = next_seat_versions(ruleset, game, state, new_state, seat, action, version)
    fields = {
        "updated_at": timezone.now(),
        "version": version,
        "snapshot": ruleset.to_json(new_state),
    }
    finished = ruleset.is_terminal(new_state)
    if finished:
        fields.update(
            status=Game.Status.FINISHED,
            finished_at=timezone.now(),
            result=ruleset.final_result(new_state),
            turn_deadline=None,
            seat_versions=versions,
            seat_deadlines=[],
        )
        due, deadline = (), None
    else:
        deadlines, fields["turn_deadline"] = decision_clocks(
            game, new_state, seats, versions, version
        )
        fields.update(seat_versions=versions, seat_deadlines=deadlines)
        due = bots_due(game, state, new_state, seats, versions, version, seat, action)
        deadline = new_clock(deadlines, versions, version)
    public = ruleset.public_record(action, seat, state, new_state)
    logged = {
        "game_id": game.pk,
        "seq": version,
        "seat": seat,
        "action": action,
        "public": public,
        "actor": actor,
        "latency_ms": latency_ms,
    }
    # A finished game's sockets read it afresh (its result and ratings).
    change = None if finished else move_change(seat, version, fields, public, seats)
    next_turn = next_turn_for(game, version, due, new_state, seats, deadline, fields["snapshot"])
    return PlannedMove(game.pk, previous, version, fields, logged, finished, change, next_turn)


def announce_move(move: PlannedMove) -> None:
    """Once the move's rows are committed: the sockets told, the next turn announced."""
    after_commit(
        after_change, move.game_id, move.version, move.finished, move.next_turn, move.change
    )
    if move.finished:  # the bots at a table of people say "Good game" (table talk)
        after_commit(say_good_game, move.game_id)


def offers_made(ruleset, game: Game, seat: int) -> int:
    """How many offers and gifts of diplomacy `seat` has made in this game."""
    logged = Action.objects.filter(game_id=game.pk, seat=seat)
    return logged.filter(action__type__in=sorted(ruleset.offer_types)).count()


def applied(ruleset, game: Game, state, seat: int, action):
    """The state after `seat`'s `action`, or the refusal: not its turn (unless any seat may take
    that action now), or an illegal action, in the player's language."""
    side = ruleset.is_side_action(action)
    if seat not in ruleset.acting_seats(state) and not side:
        raise NotYourTurn(version=game.version)
    kind = action.get("type") if isinstance(action, dict) else None
    offer = isinstance(kind, str) and kind in ruleset.offer_types
    if offer and offers_made(ruleset, game, seat) >= ruleset.side_actions_per_seat:
        raise IllegalMove(
            _("You have made as many offers and gifts as a seat may in one game."),
            version=game.version,
        )
    try:
        return ruleset.apply_action(state, seat, action)
    except ruleset.illegal as error:
        # The engine speaks English; the player reads the refusal in their language.
        raise IllegalMove(player_message(str(error)), version=game.version) from None


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
        ruleset = ruleset_of(game)
        state = ruleset.table_game(game.players, game.seed, game.options or {})
        snapshot = ruleset.to_json(state)
        versions = [0] * game.players
        deadlines, earliest = decision_clocks(game, state, seats, versions, 0)
        now = timezone.now()
        Game.objects.filter(pk=game_id).update(
            status=Game.Status.PLAYING,
            started_at=now,
            updated_at=now,
            version=0,
            snapshot=snapshot,
            turn_deadline=earliest,
            seat_versions=versions,
            seat_deadlines=deadlines,
        )
        due = bots_due(game, state, state, seats, versions, 0)
        next_turn = next_turn_for(game, 0, due, state, seats, earliest, snapshot)
        after_commit(after_change, game_id, 0, False, next_turn)
        transaction.on_commit(notify_lobby_now, robust=True)
