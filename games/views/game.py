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
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.board.map import board_svg
from games.board.words import game_labels
from games.lobby import rematch as lobby_rematch
from games.lobby.tables import LobbyError
from games.models import Game
from games.ratings.rate import (
    MIN_PEOPLE_DECIDING,
    UNRATED_MESSAGES,
    controllers,
    faces_own_bot,
    seated_accounts,
    unrated_reason,
)
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
    """Whether a game that is over was rated, and why not (games.ratings.rate decides); while it
    is played, whether it is played for rating ("Rated" or "Casual"). Read when the page is
    loaded; a game that ends meanwhile brings the final line with its end (game_over.js)."""
    if game.status == Game.Status.PLAYING:
        return playing_rated_line(game)
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return None
    reason = unrated_reason(game)
    if reason is None:
        return {"rated": True, "text": _("Rated game.")}
    return {"rated": False, "text": UNRATED_MESSAGES[reason]}


def playing_rated_line(game: Game) -> dict:
    """Rated if the game, played to its end by the people seated now, would be: at least two
    people who are not one another's Bot API bots (games.ratings.rate, unrated_reason). A person
    who lets a stand-in make every decision still makes the finished game casual."""
    accounts = seated_accounts(game)
    people = {index for index, _user, _owner in accounts}
    if game.source != Game.Source.LIVE or faces_own_bot(accounts):
        rated = False
    else:
        rated = len(controllers(accounts, people)) >= MIN_PEOPLE_DECIDING
    if rated:
        return {"rated": True, "text": _("Rated game")}
    return {"rated": False, "text": _("Casual game (not rated)")}


def game_info(game: Game) -> dict:
    """What the client needs to connect: nothing about cards (those come over the socket)."""
    return {
        "id": game.pk,
        "wsPath": f"/ws/games/{game.pk}/",
        "protocol": 1,
        # The status the page was drawn at: a game that ends after it fetches the end's
        # server-drawn lines (rated or not, the analysis) instead of waiting for a reload.
        "status": game.status,
    }


@login_required
@require_POST
def rematch(request, game_id: int):
    """Rematch (asked from the end of game panel): the new table of the same seats and settings,
    made on the first request and found on every later one (games.lobby.rematch). With
    `Accept: application/json` the answer is the offer (the game page stays, and hears the
    others' answers over its socket); else a redirect to the new table."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        table = lobby_rematch.rematch(game.pk, request.user)
    except LobbyError as error:
        if error.code == "not_seated":
            raise PermissionDenied(error.message) from error
        return refused(request, game, error)  # not over yet, or the account's table caps
    if wants_json(request):
        return JsonResponse({"rematch": lobby_rematch.rematch_offer(game.pk)})
    if table.status == Game.Status.OPEN:
        return redirect(reverse("table_detail", args=[table.pk]))
    return redirect(reverse("game", args=[table.pk]))


@login_required
@require_POST
def rematch_decline(request, game_id: int):
    """A person asked to the rematch of this game says no: their seat at the new table is open to
    anyone, and the players who asked see the answer on this game's page."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        lobby_rematch.decline_rematch(game.pk, request.user)
    except LobbyError as error:
        return refused(request, game, error)
    if wants_json(request):
        return JsonResponse({"rematch": lobby_rematch.rematch_offer(game.pk)})
    messages.info(request, _("You declined the rematch."))
    return redirect(reverse("game", args=[game.pk]))


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def refused(request, game: Game, error: LobbyError):
    if wants_json(request):
        return JsonResponse({"error": error.code, "message": str(error.message)}, status=400)
    messages.error(request, error.message)
    return redirect(reverse("game", args=[game.pk]))
