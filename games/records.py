"""Game records: a finished game as JSON (our PGN) and back. The format: docs/game-record.md.

Export (`record_for`) is for finished games only: the seed decides every shuffle, so the record
of a game in progress would reveal every hidden card. Import (`import_record`) trusts nothing in
the record: it checks the shape, replays every action through the engine (in turn, legal), and
requires the stated result to be the re-simulation's. Only then is anything saved, in one
transaction, as a finished game with `source = imported`.

What an import costs the web process is bounded before anything is replayed: a record (a game's,
or a match's with all its games) holds at most RECORD_IMPORT_MAX_ACTIONS actions
(`check_replay_cost`), and each account imports at most RECORD_IMPORTS_PER_HOUR records
(games/account_quotas.py, counted by the import page).
"""

from contextlib import contextmanager

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ai import LEVELS
from games.engine import GameState, Options, view_for
from games.engine.record import (
    FORMAT,
    check_header,
    current_rule_moves,
    final_result,
    parse_actions,
    parse_options,
    record_version,
    replayed,
)
from games.engine.record import RecordError as EngineRecordError
from games.game_log import first_seat, logged_actions, seat_info
from games.models import SEAT_COLOURS, Action, Game, Seat
from games.public_log import public_record

NAME_LENGTH = Seat._meta.get_field("record_name").max_length
KINDS = ("human", "bot")


class RecordError(ValueError):
    """A record that cannot be imported; the message says why, for the person importing it."""


# --- Export ------------------------------------------------------------------------------------


def record_for(game: Game) -> dict:
    """The record of a finished game (ValueError for any other: it would leak hidden cards)."""
    if game.status != Game.Status.FINISHED:
        raise ValueError(f"game {game.pk} is not finished: its record would reveal hidden cards")
    actions = logged_actions(game)
    seats = game.seats.select_related("user").order_by("index")
    return {
        "format": FORMAT,
        # 3 when a seat showed cards (the shown cards are in the actions: the game is over);
        # a game without a show is written as version 2, which older readers read.
        "version": record_version([action.action for action in actions]),
        "seed": game.seed,
        "players": game.players,
        "first": first_seat(game, actions),
        "options": Options.from_dict(game.options or {}).to_dict(),
        "seats": record_seats(seats),
        "actions": [
            {"seq": action.seq, "seat": action.seat, "action": action.action} for action in actions
        ],
        "result": game.result,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def record_seats(seats) -> list[dict]:
    """The seats as the record stores them: names in English whatever the exporter's language,
    so the same game always gives the same record."""
    with translation.override("en"):
        return [seat_info(seat) for seat in seats]


# --- Validation (each check raises RecordError with a message for people) ----------------------
#
# The game's fields (format, seed, options, actions, result) are checked by the engine
# (games.engine.record); the seats, which only the site knows (colours, names, bot levels), here.


@contextmanager
def translated():
    """The engine's RecordError, in the language of the person importing the record."""
    try:
        yield
    except EngineRecordError as error:
        message = _(error.message)
        raise RecordError(message % error.params if error.params else message) from None


def require(condition: bool, message: str) -> None:
    if not condition:
        raise RecordError(message)


def check_seat(position: int, seat) -> None:
    where = {"number": position}
    require(isinstance(seat, dict), _("Seat %(number)s is not an object.") % where)
    require(seat.get("index") == position, _("Seat %(number)s must have index %(number)s.") % where)
    require(
        seat.get("colour") == SEAT_COLOURS[position],
        _("Seat %(number)s must be %(colour)s.") % {**where, "colour": SEAT_COLOURS[position]},
    )
    name = seat.get("name")
    require(
        isinstance(name, str) and 0 < len(name.strip()) <= NAME_LENGTH,
        _("Seat %(number)s needs a name of 1 to %(length)s characters.")
        % {**where, "length": NAME_LENGTH},
    )
    require(seat.get("kind") in KINDS, _("Seat %(number)s: “kind” is human or bot.") % where)
    level = seat.get("level")
    if seat["kind"] == "human":
        require(level is None, _("Seat %(number)s is human: its “level” must be null.") % where)
    else:
        require(
            level in LEVELS,
            _("Seat %(number)s is a bot: its “level” must be one of %(levels)s.")
            % {**where, "levels": ", ".join(LEVELS)},
        )


def check_seats(seats, players: int) -> None:
    require(
        isinstance(seats, list) and len(seats) == players,
        _("“seats” must list %(players)s seats.") % {"players": players},
    )
    for position, seat in enumerate(seats):
        check_seat(position, seat)


def validated(data) -> tuple[Options, list[tuple[int, dict]], list[GameState]]:
    """Every check of a record, in order; returns what saving it needs."""
    with translated():
        check_header(data)
        options = parse_options(data["options"])
    check_seats(data["seats"], data["players"])
    with translated():
        # A version-1 record was played under the old hand-discard rule: upgraded first.
        moves = current_rule_moves(
            data, options, parse_actions(data["actions"], data["players"], data["version"])
        )
        states = replayed(data, options, moves)
    return options, moves, states


def listed_actions(record) -> int:
    """The actions a game record lists, whatever else is wrong with it (checked later)."""
    actions = record.get("actions") if isinstance(record, dict) else None
    return len(actions) if isinstance(actions, list) else 0


def record_actions(data) -> int:
    """The actions replaying `data` would take: a game record's, or all the games' of a match
    record (games.matches.records)."""
    games = data.get("games") if isinstance(data, dict) else None
    if isinstance(games, list):
        return sum(
            listed_actions(entry.get("record")) for entry in games if isinstance(entry, dict)
        )
    return listed_actions(data)


def check_replay_cost(data) -> None:
    """RecordError, before any replay, for a record holding more than RECORD_IMPORT_MAX_ACTIONS
    actions (each is replayed, checked and stored by the web process)."""
    limit = settings.RECORD_IMPORT_MAX_ACTIONS
    count = record_actions(data)
    if limit and count > limit:
        raise RecordError(
            _("The record holds %(count)s actions: at most %(limit)s can be imported at once.")
            % {"count": count, "limit": limit}
        )


# --- Import ------------------------------------------------------------------------------------


def import_record(data, user) -> Game:
    """Validate `data` (a parsed record) and save it as a finished, imported game.
    RecordError (nothing saved) when any check fails."""
    check_replay_cost(data)
    options, moves, states = validated(data)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            status=Game.Status.FINISHED,
            source=Game.Source.IMPORTED,
            players=data["players"],
            options=options.to_dict(),
            seed=data["seed"],
            version=len(moves),
            snapshot=states[-1].to_json(),
            result=final_result(states[-1]),
            created_by=user,
            started_at=now,
            finished_at=now,
        )
        save_seats(game, data["seats"])
        save_actions(game, data["seats"], moves, states)
    return game


def save_seats(game: Game, seats: list[dict]) -> None:
    Seat.objects.bulk_create(
        Seat(
            game=game,
            index=seat["index"],
            bot_level=seat["level"] or "",
            record_name=seat["name"].strip(),
        )
        for seat in seats
    )


def save_actions(game: Game, seats, moves, states) -> None:
    views = [view_for(state, None) for state in states]
    Action.objects.bulk_create(
        Action(
            game=game,
            seq=number,
            seat=seat,
            action=action,
            public=public_record(action, seat, views[number - 1], views[number]),
            actor=Action.Actor.BOT if seats[seat]["kind"] == "bot" else Action.Actor.HUMAN,
        )
        for number, (seat, action) in enumerate(moves, start=1)
    )
