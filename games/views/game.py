"""The live game page: the board, the hand and the battle lines, drawn in the browser.

The server renders only the layout, the board picture and the translated words the client needs
(games.board_words).
It never renders the game's view: every card a seat may see reaches the browser over the game's
websocket, as the `view_for(state, seat)` of that socket's seat, and nowhere else. So the page is
the same for a seated player, a spectator and an anonymous visitor.
"""

from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.board_map import board_svg
from games.board_words import game_labels
from games.models import Game
from games.ratings import UNRATED_MESSAGES, unrated_reason


def game(request, game_id: int):
    """The board of a started game, for whoever looks: seat, spectator or anonymous visitor."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.OPEN:
        # A table still gathering players has its own page (seats, invite link).
        return redirect(reverse("table_detail", args=[game.pk]))
    context = {
        "game": game,
        "board_svg": board_svg(),
        "game_info": game_info(game),
        "game_labels": game_labels(),
        "rated": rated_line(game),
    }
    return render(request, "game/game.html", context)


def rated_line(game: Game) -> dict | None:
    """Whether a game that is over was rated, and why not (games.ratings decides); None while it
    is played. Read when the page is loaded: a game that ends meanwhile shows it on reload."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return None
    reason = unrated_reason(game)
    if reason is None:
        return {"rated": True, "text": _("Rated game.")}
    return {"rated": False, "text": UNRATED_MESSAGES[reason]}


def game_info(game: Game) -> dict:
    """What the client needs to connect: nothing about cards (those come over the socket)."""
    return {
        "id": game.pk,
        "wsPath": f"/ws/games/{game.pk}/",
        "protocol": 1,
    }
