"""Game records: a finished game as JSON (our PGN) and back. The format: docs/game-record.md.

Export (`record_for`) is for finished games only: the seed decides every shuffle, so the record
of a game in progress would reveal every hidden card. Import (`import_record`) trusts nothing in
the record: it checks the shape, replays every action through the engine (in turn, legal), and
requires the stated result to be the re-simulation's. Only then is anything saved, in one
transaction, as a finished game with `source = imported`.
"""

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.engine import GameState, Options, view_for
from games.models import SEAT_COLOURS, Action, Game, Seat
from games.public_log import public_record
from games.replay import (
    ReplayError,
    final_result,
    first_seat,
    logged_actions,
    seat_info,
    simulate,
)

FORMAT = "condottiere-game-record"
VERSION = 1
MAX_ACTIONS = 5000
NAME_LENGTH = Seat._meta.get_field("record_name").max_length
SEED_RANGE = range(-(2**63), 2**63)
KINDS = ("human", "bot")
RESULT_KEYS = {"winners", "regions", "reason"}


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
        "version": VERSION,
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


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def require(condition: bool, message: str) -> None:
    if not condition:
        raise RecordError(message)


def check_header(data) -> None:
    require(isinstance(data, dict), _("A game record is a JSON object."))
    require(
        data.get("format") == FORMAT,
        _("This is not a Condottiere game record (its “format” is not “%(format)s”).")
        % {"format": FORMAT},
    )
    require(
        data.get("version") == VERSION,
        _("Unsupported record version %(version)r: this site reads version %(supported)s.")
        % {"version": data.get("version"), "supported": VERSION},
    )
    missing = sorted(
        {"seed", "players", "first", "options", "seats", "actions", "result"} - set(data)
    )
    require(not missing, _("The record lacks: %(fields)s.") % {"fields": ", ".join(missing)})
    require(
        is_int(data["seed"]) and data["seed"] in SEED_RANGE,
        _("The seed must be a 64-bit integer."),
    )
    players = data["players"]
    require(is_int(players) and 2 <= players <= 6, _("“players” must be a number from 2 to 6."))
    require(
        is_int(data["first"]) and 0 <= data["first"] < players,
        _("“first” must be a seat from 0 to %(last)s.") % {"last": players - 1},
    )


def parse_options(options) -> Options:
    require(isinstance(options, dict), _("“options” must be an object."))
    require(
        all(isinstance(value, bool) for value in options.values()),
        _("Each optional rule must be true or false."),
    )
    try:
        return Options.from_dict(options)
    except ValueError:
        names = ", ".join(Options().to_dict())
        raise RecordError(
            _("Unknown optional rule in “options”; the rules are: %(names)s.") % {"names": names}
        ) from None


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
        from ai import LEVELS

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


def parse_actions(actions, players: int) -> list[tuple[int, dict]]:
    require(isinstance(actions, list), _("“actions” must be a list."))
    require(
        len(actions) <= MAX_ACTIONS,
        _("The record holds more than %(max)s actions.") % {"max": MAX_ACTIONS},
    )
    moves = []
    for position, entry in enumerate(actions, start=1):
        where = {"number": position}
        require(isinstance(entry, dict), _("Action %(number)s is not an object.") % where)
        require(
            entry.get("seq") == position, _("Action %(number)s must have seq %(number)s.") % where
        )
        seat = entry.get("seat")
        require(
            is_int(seat) and 0 <= seat < players,
            _("Action %(number)s: “seat” is not a seat of this game.") % where,
        )
        action = entry.get("action")
        require(
            isinstance(action, dict) and isinstance(action.get("type"), str),
            _("Action %(number)s: “action” must be an object with a “type”.") % where,
        )
        moves.append((seat, action))
    return moves


def replayed(data: dict, options: Options, moves) -> list[GameState]:
    from games.engine import new_game

    initial = new_game(data["players"], seed=data["seed"], options=options, first=data["first"])
    try:
        states = simulate(initial, moves)
    except ReplayError as error:
        raise RecordError(_("The actions do not replay: %(error)s.") % {"error": error}) from None
    result = final_result(states[-1])
    require(result is not None, _("The record does not play the game to its end."))
    stated = data["result"]
    require(
        isinstance(stated, dict) and set(stated) >= RESULT_KEYS,
        _("“result” must be an object with winners, regions and reason."),
    )
    stated = {key: stated[key] for key in RESULT_KEYS}
    require(
        stated == result,
        _("The stated result %(stated)s is not the game's: replaying it gives %(actual)s.")
        % {"stated": stated, "actual": result},
    )
    return states


def validated(data) -> tuple[Options, list[tuple[int, dict]], list[GameState]]:
    """Every check of a record, in order; returns what saving it needs."""
    check_header(data)
    options = parse_options(data["options"])
    check_seats(data["seats"], data["players"])
    moves = parse_actions(data["actions"], data["players"])
    return options, moves, replayed(data, options, moves)


# --- Import ------------------------------------------------------------------------------------


def import_record(data, user) -> Game:
    """Validate `data` (a parsed record) and save it as a finished, imported game.
    RecordError (nothing saved) when any check fails."""
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
