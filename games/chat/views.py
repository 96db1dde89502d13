"""The chat's one page: a room's history as JSON, for the game page to read when it opens (its
socket then brings each new message). The same content as the socket's `chat_history` frame."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from games.models import Game
from games.services import seat_of
from games.services.table_talk import history, may_post, muted_ids, room_for


@require_GET
def chat_history(request, game_id: int):
    """The room the visitor talks in at this game (players', spectators' or the table's), with
    its last messages less those of people the visitor muted."""
    game = get_object_or_404(Game, pk=game_id)
    seat = None if game.status == Game.Status.OPEN else seat_of(game, request.user)
    room = room_for(game.status, seat)
    user = request.user
    signed_in = user.is_authenticated
    return JsonResponse(
        {
            "type": "chat_history",
            "room": room,
            "messages": history(game.pk, room, user),
            "muted": sorted(muted_ids(user)),
            "you": user.pk if signed_in else None,
            "staff": signed_in and user.is_staff,
            "can_post": may_post(user),
        }
    )
