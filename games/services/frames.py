"""What a socket is sent: the `state` frame of protocol version 1 (see docs/protocol.md).

A frame holds the seat's own `view_for(state, seat)`, the table's public facts (GAME) and the
public log. Nothing else about hidden cards goes anywhere: the snapshot and `Action.action` never
leave the server, the log carries only `Action.public`.
"""

from games.engine import GameState, view_for
from games.models import Action, Game, RatingChange, Seat

PROTOCOL = 1
LOG_LENGTH = 100
STANDIN_LEVEL = "heuristic"


def load_state(game: Game) -> GameState:
    """The engine's full state from the snapshot (secret: for the server only)."""
    if not game.snapshot:
        raise ValueError(f"game {game.pk} has not started: it has no snapshot")
    return GameState.from_json(game.snapshot)


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
    }


def game_public(game: Game, seats: list[Seat], you: int | None) -> dict:
    """GAME: the table's public facts. The deadline is the same for everyone (it never names
    the seat deciding, so it cannot reveal who is asked whether to discard a hand)."""
    return {
        "id": game.pk,
        "status": game.status,
        "players": game.players,
        "options": game.options,
        "turn_seconds": game.turn_seconds,
        "deadline": epoch_ms(game.turn_deadline),
        "seats": [seat_entry(seat, you) for seat in seats],
        "result": game.result,
        "rating_changes": rating_changes(game),
    }


def rating_changes(game: Game) -> list[dict]:
    """Each rated seat's displayed rating (ordinal) before and after this game; empty until the
    rating update has run (it runs after the game finishes, see games.ratings)."""
    if game.status != Game.Status.FINISHED:
        return []
    return [
        {
            "seat": change.seat,
            "before": round(change.mu_before - 3 * change.sigma_before, 3),
            "after": round(change.mu_after - 3 * change.sigma_after, 3),
            "delta": round(change.ordinal_delta, 3),
        }
        for change in RatingChange.objects.filter(game=game).order_by("seat")
    ]


def log_entry(action: Action) -> dict:
    return {**action.public, "seq": action.seq, "seat": action.seat}


def public_log(game: Game, limit: int = LOG_LENGTH) -> list[dict]:
    """The last `limit` public entries, oldest first. Actions with no public record (a declined
    hand discard) are not there at all."""
    rows = (
        Action.objects.filter(game=game, public__isnull=False)
        .order_by("-seq")
        .only("seq", "seat", "public")[:limit]
    )
    return [log_entry(action) for action in reversed(list(rows))]


def game_frame(game: Game, seat: int | None) -> dict:
    """The `state` frame for one seat (None: a spectator)."""
    seats = list(game.seats.select_related("user").order_by("index"))
    view = view_for(load_state(game), seat)
    return {
        "type": "state",
        "protocol": PROTOCOL,
        "version": game.version,
        "game": game_public(game, seats, seat),
        "view": view,
        "log": public_log(game),
    }
