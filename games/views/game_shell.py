"""The page of a game whose board the site does not draw yet: Renaissance's table is to come.

Until then the page says what the game is (its seats, status and options in words; once it is
over, the winners and each seat's Renaissance Points) and how it is played meanwhile: by
programs, through the Bot API and the game's websocket protocol. Nothing on it is secret: the
lobby's own entry for the table and the stored result.
"""

from django.shortcuts import render

from games.models import Game
from games.sockets.lobby import table_entry
from games.views.tables import decorate


def shell_page(request, game: Game, rated: dict | None):
    """The page shell of `game`; `rated` is the game page's line on its rating (or None)."""
    table = decorate(table_entry(game, request.user.pk))
    result = game.result or {}
    points = result.get("points") or []
    winners = set(result.get("winners") or [])
    standings = [
        {
            "index": seat.index,
            "name": seat.occupant_name(),
            "points": points[seat.index] if seat.index < len(points) else None,
            "winner": seat.index in winners,
        }
        for seat in game.seats.select_related("user").order_by("index")
    ]
    context = {
        "game": game,
        "table": table,
        "rated": rated,
        "finished": game.status == Game.Status.FINISHED,
        "standings": standings if points else [],
    }
    return render(request, "game/shell.html", context)
