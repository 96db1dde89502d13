"""A stored game read back for its record and its replay: the action log in order, the seat that
held the Condottiere token first, and the seats as a record names them.

The first token holder: a live game derives it from its seed (`rules_api.first_token_holder`,
what `start_game` used). An imported record states it; it is not stored separately because the
token holder is always the one to act first (he chooses the first region), so the seat of the
imported game's first logged action is that holder.
"""

from games.models import Action, Game, Seat
from games.rules_api import first_token_holder


def logged_actions(game: Game) -> list[Action]:
    return list(Action.objects.filter(game=game).order_by("seq").only("seq", "seat", "action"))


def first_seat(game: Game, actions: list[Action]) -> int:
    """The seat that started with the Condottiere token (see the module's docstring)."""
    if game.source == Game.Source.IMPORTED and actions:
        return actions[0].seat
    return first_token_holder(game.seed, game.players)


def seat_info(seat: Seat) -> dict:
    """A seat as a record and the replay show it: an imported seat keeps its recorded name."""
    return {
        "index": seat.index,
        "colour": seat.colour,
        "name": seat.record_name or seat.occupant_name(),
        "kind": "bot" if seat.bot_level else "human",
        "level": seat.bot_level or None,
    }
