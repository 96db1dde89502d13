"""What happens around an accepted change: the turn deadline, the result, and — after the
commit — the notice to the sockets and the scheduling of whoever must act next."""

from datetime import timedelta

from django.utils import timezone

from games.engine import current_player, winners
from games.models import Game, Seat

from .notify import notify_game, notify_lobby_now

DISCARD_PHASE = "discard_hand"


def deadline_for(game: Game, state, public_view: dict, seats: list[Seat]):
    """When the decision now awaited times out, or None.

    A timer runs only for a person's seat. While a seat decides whether to discard its hand,
    the deadline is set whoever decides, bot or person: a deadline that appeared only for people
    would tell the others who is being asked."""
    if not game.turn_seconds:
        return None
    seat = current_player(state)
    if seat is None:
        return None
    if public_view.get("phase") != DISCARD_PHASE and seats[seat].plays_as_bot:
        return None
    return timezone.now() + timedelta(seconds=game.turn_seconds)


def victory_reason(state, public_view: dict) -> str:
    reason = public_view.get("victory")
    if reason:
        return str(reason)
    from games.engine.state import VICTORY_NAMES  # the engine's names for how a game was won

    return VICTORY_NAMES[state.victory] or ""


def game_result(state, public_view: dict) -> dict:
    """{"winners", "regions" (count per seat), "reason"} of a finished game."""
    return {
        "winners": list(winners(state)),
        "regions": [player["regions"] for player in public_view["players"]],
        "reason": victory_reason(state, public_view),
    }


def after_change(game_id: int, version: int, finished: bool, state, deadline) -> None:
    """After the commit: tell the sockets, then set the next decision in motion."""
    group = Game(pk=game_id).group_name()
    notify_game(group, version)
    if finished:
        notify_lobby_now()
        from games.tasks_ratings import schedule_rating_update  # tasks import services: late

        schedule_rating_update(game_id)
        return
    schedule_next(game_id, version, state, deadline)


def schedule_next(game_id: int, version: int, state, deadline) -> None:
    from games.bot_turns import schedule_bot_turn  # bot_turns submits through us: import late

    from .timers import schedule_timer

    seat_index = current_player(state)
    if seat_index is None:
        return
    seat = Seat.objects.filter(game_id=game_id, index=seat_index).first()
    if seat is not None and seat.plays_as_bot:
        schedule_bot_turn(game_id, version)
    if deadline is not None:
        schedule_timer(game_id, version, max(0.0, (deadline - timezone.now()).total_seconds()))
