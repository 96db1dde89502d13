"""What a socket is sent: the `state` frame of protocol version 1 (see docs/protocol.md).

A frame holds the seat's own `view_for(state, seat)`, the table's public facts (GAME) and the
public log. Nothing else about hidden cards goes anywhere: the snapshot and `Action.action` never
leave the server, the log carries only `Action.public`.

A game's table is read once per version (`read_table`) and every socket of the game builds its
frame from that one read (`Table.frame_for(seat)`), so that a thousand spectators cost one read,
not a thousand. The log is read up to the game row's version, never past it: the view and the
log of a frame always describe the same moment.
"""

import copy
import math
import time
from dataclasses import dataclass, field
from datetime import datetime

import orjson
from django.utils import translation

from games.models import Action, Game, RatingChange, Seat
from games.ratings.scale import is_provisional
from games.rules_api import ruleset_of

PROTOCOL = 1
LOG_LENGTH = 100
STANDIN_LEVEL = "heuristic"


def load_state(game: Game):
    """The engine's full state from the snapshot (secret: for the server only)."""
    if not game.snapshot:
        raise ValueError(f"game {game.pk} has not started: it has no snapshot")
    return ruleset_of(game).from_json(game.snapshot)


def seat_of(game: Game, user) -> int | None:
    """The user's seat index in this game, or None for a spectator (anonymous users too)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    index = Seat.objects.filter(game=game, user_id=user.pk).values_list("index", flat=True).first()
    return index


def epoch_ms(moment) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def seat_kind(seat: Seat) -> str:
    if seat.user_id:
        return "human"
    return "bot" if seat.bot_level else "open"


def seat_entry(seat: Seat, you: int | None) -> dict:
    return {
        "index": seat.index,
        "colour": seat.colour,
        "name": seat.occupant_name(),
        "kind": seat_kind(seat),
        "level": seat.bot_level or (STANDIN_LEVEL if seat.standin else None),
        "standin": seat.standin,
        "you": seat.index == you,
        # A person's seat played by an outside program through the Bot API (docs/bot-api.md).
        "bot_account": bool(seat.user_id) and seat.user.is_bot_account,
    }


def game_public(game: Game, seats: list[Seat], you: int | None, changes: list[dict]) -> dict:
    """GAME: the table's public facts. `deadline` is the earliest decision's; `deadlines` each
    seat's own (several seats may decide at once), the same for everyone."""
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "players": game.players,
        "options": game.options,
        "turn_seconds": game.turn_seconds,
        "deadline": epoch_ms(game.turn_deadline),
        "deadlines": seat_deadlines_ms(game),
        "seats": [seat_entry(seat, you) for seat in seats],
        "result": game.result,
        "rating_changes": changes,
    }


def seat_deadlines_ms(game: Game) -> list:
    """Each seat's deadline in epoch milliseconds (None: no clock runs for it)."""
    deadlines = game.seat_deadlines or [None] * game.players
    return [None if moment is None else int(moment * 1000) for moment in deadlines]


def rating_changes(game: Game) -> list[dict]:
    """Each rated seat's displayed rating (games.ratings.scale: the 1500-based scale)
    before and after this game and the change between them, whole points, so the client prints
    the numbers the profile and the leaderboard print, and whether the rating after it is still
    provisional (the leaderboard's "?": early games move it by a hundred points or more). Empty
    until the rating update has run (it runs after the game finishes, see games.ratings.rate)."""
    if game.status != Game.Status.FINISHED:
        return []
    changes = RatingChange.objects.filter(game=game).select_related("rating").order_by("seat")
    return [
        {
            "seat": change.seat,
            "before": change.display_before,
            "after": change.display_after,
            "delta": change.display_delta,
            "provisional": is_provisional(
                change.sigma_after, change.rating.bot_level, change.rating.ruleset
            ),
        }
        for change in changes
    ]


def log_entry(action: Action) -> dict:
    return {**action.public, "seq": action.seq, "seat": action.seat}


def public_log(
    game: Game, limit: int = LOG_LENGTH, earlier: tuple[int, list[dict]] | None = None
) -> list[dict]:
    """The last `limit` public entries up to the game's version, oldest first. Actions with no
    public record are not there at all (none since every hand-discard answer is public).

    `earlier`: (version, log) of an earlier read of the same game. The log is append-only, so
    only the entries after that version are read and added to it."""
    rows = Action.objects.filter(game=game, public__isnull=False, seq__lte=game.version)
    if earlier is not None and earlier[0] <= game.version:
        since, log = earlier
        newer = rows.filter(seq__gt=since).order_by("seq").only("seq", "seat", "public")
        return (log + [log_entry(action) for action in newer])[-limit:]
    latest = rows.order_by("-seq").only("seq", "seat", "public")[:limit]
    return [log_entry(action) for action in reversed(list(latest))]


@dataclass
class Table:
    """One read of a game: the public facts, the state (secret: only views of it leave) and the
    public log, all at `version`. `read_at` is when the read began (time.monotonic())."""

    version: int
    game: Game
    seats: list[Seat]
    rating_changes: list[dict]
    state: object  # the ruleset's state
    log: list[dict]
    read_at: float
    _texts: dict = field(default_factory=dict, repr=False)

    def frame_for(self, seat: int | None) -> dict:
        """The `state` frame for one seat (None: a spectator)."""
        return {
            "type": "state",
            "protocol": PROTOCOL,
            "version": self.version,
            "game": game_public(self.game, self.seats, seat, self.rating_changes),
            "view": ruleset_of(self.game).view_for(self.state, seat),
            "log": self.log,
        }

    def text_for(self, seat: int | None) -> str:
        """`frame_for(seat)` as JSON text, built once per seat and language (a bot seat's name
        is translated) and shared by the sockets that would build the same."""
        key = (seat, translation.get_language())
        if key not in self._texts:
            self._texts[key] = json_text(self.frame_for(seat))
        return self._texts[key]

    def advanced(self, version: int, change: dict) -> "Table | None":
        """This table one move later, from the move's `change` (see `move_change`), or None if
        it cannot be (not the very next version, or the seats' stand-ins differ: read instead).

        Its `read_at` is minus infinity: it answers "version N or later", never "read after
        moment T", since it was not read from the database at all."""
        if version != self.version + 1:
            return None
        if [seat.standin for seat in self.seats] != change["standins"]:
            return None
        game = copy.copy(self.game)
        game.version = version
        game.status = change["status"]
        game.turn_deadline = (
            datetime.fromisoformat(change["deadline"]) if change["deadline"] else None
        )
        if change["deadlines"] is not None:  # else (a show) the clocks run on as they were
            game.seat_deadlines = change["deadlines"]
        entry = change["log"]
        return Table(
            version=version,
            game=game,
            seats=self.seats,
            rating_changes=self.rating_changes,
            state=ruleset_of(game).from_json(change["snapshot"]),
            log=self.log if entry is None else (self.log + [entry])[-LOG_LENGTH:],
            read_at=-math.inf,
        )


def json_text(value) -> str:
    """`value` as JSON text, by orjson: the same JSON as json.dumps (UTF-8 rather than escapes,
    no spaces), about six times faster. A frame late in a Condottiere game (9 KB, its log full)
    took json.dumps 93 us and orjson 15; under load json.dumps was 7% of Daphne's CPU."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def move_change(seat: int, version: int, fields: dict, public: dict | None, seats) -> dict:
    """What the sockets need to know of an accepted move besides its version, so that a
    process holding the table at the previous version can build the next one without reading
    it (`Table.advanced`). Server-side only: it holds the snapshot, which never leaves."""
    deadline = fields.get("turn_deadline")
    return {
        "snapshot": fields["snapshot"],
        "status": fields.get("status", Game.Status.PLAYING),
        "deadline": deadline.isoformat() if deadline else None,
        "deadlines": fields.get("seat_deadlines"),
        "log": None if public is None else {**public, "seq": version, "seat": seat},
        "standins": [seat_row.standin for seat_row in seats],
    }


def table_of(game: Game, read_at: float | None = None, earlier: "Table | None" = None) -> Table:
    """The Table of a game row already loaded (its snapshot included); `earlier`, a previous
    read of the same game whose log may be extended rather than read again."""
    return Table(
        version=game.version,
        game=game,
        seats=list(game.seats.select_related("user__bot_account").order_by("index")),
        rating_changes=rating_changes(game),
        state=load_state(game),
        log=public_log(game, earlier=None if earlier is None else (earlier.version, earlier.log)),
        read_at=time.monotonic() if read_at is None else read_at,
    )


def read_table(game_id: int, earlier: Table | None = None) -> Table | None:
    """The game's table as it is now, or None if there is no such game or it has not started."""
    read_at = time.monotonic()
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.snapshot:
        return None
    return table_of(game, read_at, earlier)


def game_frame(game: Game, seat: int | None) -> dict:
    """The `state` frame for one seat (None: a spectator) of a game row already loaded."""
    return table_of(game).frame_for(seat)
