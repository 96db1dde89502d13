"""Game records: a finished game as JSON (our PGN) and back, for both games. The formats:
docs/game-record.md (Condottiere's `condottiere-game-record`, Renaissance's
`renaissance-game-record`).

Export (`record_for`) is for finished games only: the seed decides every shuffle, so the record
of a game in progress would reveal every hidden card. Import (`import_record`) trusts nothing in
the record: it checks the shape, replays every action through the game's rules (in turn, legal),
and requires the stated result to be the re-simulation's. Only then is anything saved, in one
transaction, as a finished game with `source = imported`.

Which game a record is of is its `format`. The game's fields are checked and replayed by that
game's record module (`ruleset.record`, reached through games.rules_api like everything of the
rules); the seats, which only the site knows (colours, names, bot levels), are checked here and
are the same in both games' records.

What an import costs the web process is bounded before anything is replayed: a record (a game's,
or a match's with all its games) holds at most RECORD_IMPORT_MAX_ACTIONS actions
(`check_replay_cost`), and each account imports at most RECORD_IMPORTS_PER_HOUR records
(games/accounts/quotas.py, counted by the import page).
"""

from contextlib import contextmanager

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ai import LEVELS
from games.history.game_log import first_seat, logged_actions, seat_info
from games.models import SEAT_COLOURS, Action, Game, Seat
from games.rules_api import CONDOTTIERE, RENAISSANCE, RULESETS, Ruleset

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
    seats = record_seats(game.seats.select_related("user").order_by("index"))
    return WRITERS[game.ruleset](game, actions, seats)


def condottiere_record(game: Game, actions: list[Action], seats: list[dict]) -> dict:
    record = CONDOTTIERE.record
    return {
        "format": record.FORMAT,
        # 3 when a seat showed cards (the shown cards are in the actions: the game is over);
        # a game without a show is written as version 2, which older readers read.
        "version": record.record_version([action.action for action in actions]),
        "seed": game.seed,
        "players": game.players,
        "first": first_seat(game, actions),
        "options": CONDOTTIERE.normalize_options(game.options, game.players),
        "seats": seats,
        "actions": [
            {"seq": action.seq, "seat": action.seat, "action": action.action} for action in actions
        ],
        "result": game.result,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def renaissance_record(game: Game, actions: list[Action], seats: list[dict]) -> dict:
    """Its options are the ones the game was dealt from: the nations drawn by lot from the seed
    are drawn again by the replay."""
    return RENAISSANCE.record.make_record(
        game.players,
        game.seed,
        game.options or {},
        seats,
        [(action.seat, action.action) for action in actions],
        game.result,
    )


WRITERS = {CONDOTTIERE.name: condottiere_record, RENAISSANCE.name: renaissance_record}


def record_seats(seats) -> list[dict]:
    """The seats as the record stores them: names in English whatever the exporter's language,
    so the same game always gives the same record."""
    with translation.override("en"):
        return [seat_info(seat) for seat in seats]


# --- Validation (each check raises RecordError with a message for people) ----------------------
#
# The game's fields (format, seed, options, actions, result) are checked by the game's record
# module (games.engine.record, games.renaissance.record); the seats here.

# The record modules' own RecordError: a message marked for translation and its parameters.
RULES_RECORD_ERRORS = tuple({rules.record.RecordError for rules in RULESETS.values()})


@contextmanager
def translated():
    """A record module's RecordError, in the language of the person importing the record."""
    try:
        yield
    except RULES_RECORD_ERRORS as error:
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


def record_ruleset(data) -> Ruleset:
    """The game a record is of, by its `format`. A record of no known format is read as
    Condottiere's (the site's first game), whose first check says what is wrong with it."""
    stated = data.get("format") if isinstance(data, dict) else None
    for rules in RULESETS.values():
        if stated == rules.record.FORMAT:
            return rules
    return CONDOTTIERE


def validated(data) -> tuple[Ruleset, dict, list[tuple[int, dict]], list]:
    """Every check of a record, in order, before anything is saved: (its game's rules, the
    options as stored, the (seat, action) pairs, the states from the start to the end)."""
    rules = record_ruleset(data)
    return (rules, *READERS[rules.name](data))


def condottiere_game(data) -> tuple[dict, list[tuple[int, dict]], list]:
    record = CONDOTTIERE.record
    with translated():
        record.check_header(data)
        options = record.parse_options(data["options"])
    check_seats(data["seats"], data["players"])
    with translated():
        # A version-1 record was played under the old hand-discard rule: upgraded first.
        listed = record.parse_actions(data["actions"], data["players"], data["version"])
        moves = record.current_rule_moves(data, options, listed)
        states = record.replayed(data, options, moves)
    return options.to_dict(), moves, states


def renaissance_game(data) -> tuple[dict, list[tuple[int, dict]], list]:
    record = RENAISSANCE.record
    with translated():
        record.check_header(data)
        options = record.parse_options(data["options"], data["players"])
    check_seats(data["seats"], data["players"])
    with translated():
        moves = record.parse_actions(data["actions"], data["players"])
        states = record.replayed(data, options, moves)
    return options, moves, states


READERS = {CONDOTTIERE.name: condottiere_game, RENAISSANCE.name: renaissance_game}


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
    """Validate `data` (a parsed record of either game) and save it as a finished, imported
    game. RecordError (nothing saved) when any check fails."""
    check_replay_cost(data)
    rules, options, moves, states = validated(data)
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=rules.name,
            status=Game.Status.FINISHED,
            source=Game.Source.IMPORTED,
            players=data["players"],
            options=options,
            seed=data["seed"],
            version=len(moves),
            snapshot=rules.to_json(states[-1]),
            result=rules.final_result(states[-1]),
            created_by=user,
            started_at=now,
            finished_at=now,
        )
        save_seats(game, data["seats"])
        save_actions(game, rules, data["seats"], moves, states)
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


def save_actions(game: Game, rules: Ruleset, seats, moves, states) -> None:
    """The log, each action with its public entry recomputed as live play writes it (None for
    one a spectator never learns of, such as an offer between two seats)."""
    Action.objects.bulk_create(
        Action(
            game=game,
            seq=number,
            seat=seat,
            action=action,
            public=rules.public_record(action, seat, states[number - 1], states[number]),
            actor=Action.Actor.BOT if seats[seat]["kind"] == "bot" else Action.Actor.HUMAN,
        )
        for number, (seat, action) in enumerate(moves, start=1)
    )
