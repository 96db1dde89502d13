"""The live game page: the board, the hand and the battle lines, drawn in the browser.

The server renders only the layout, the board picture and the translated words the client needs
(games.board.words).
It never renders the game's view: every card a seat may see reaches the browser over the game's
websocket, as the `view_for(state, seat)` of that socket's seat, and nowhere else. So the page is
the same for a seated player, a spectator and an anonymous visitor.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.board.map import board_svg
from games.board.words import game_labels
from games.lobby import tables as lobby
from games.models import Game
from games.ratings.rate import UNRATED_MESSAGES, unrated_reason
from games.views.renaissance_table import renaissance_page


def game(request, game_id: int):
    """The board of a started game, for whoever looks: seat, spectator or anonymous visitor."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.OPEN:
        # A table still gathering players has its own page (seats, invite link).
        return redirect(reverse("table_detail", args=[game.pk]))
    if game.ruleset == Game.Ruleset.RENAISSANCE:  # its own table: games/views/renaissance_table.py
        return renaissance_page(request, game, rated_line(game))
    context = {
        "game": game,
        "board_svg": board_svg(),
        "game_info": game_info(game),
        "game_labels": game_labels(),
        "rated": rated_line(game),
    }
    return render(request, "game/game.html", context)


def rated_line(game: Game) -> dict | None:
    """Whether a game that is over was rated, and why not (games.ratings.rate decides); None while
    it is played. Read when the page is loaded: a game that ends meanwhile shows it on reload."""
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


@login_required
@require_POST
def rematch(request, game_id: int):
    """Rematch (asked from the end of game panel): the new table of the same seats and settings,
    made on the first request and found on every later one (games.lobby.tables.rematch)."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        table = lobby.rematch(game.pk, request.user)
    except lobby.LobbyError as error:
        if error.code == "not_seated":
            raise PermissionDenied(error.message) from error
        messages.error(request, error.message)  # not over yet, or the account's table caps
        return redirect(reverse("game", args=[game.pk]))
    if table.status == Game.Status.OPEN:
        return redirect(reverse("table_detail", args=[table.pk]))
    return redirect(reverse("game", args=[table.pk]))
