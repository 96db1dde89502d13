"""Websocket routes. Each consumer lives with its app; this list gathers them."""

from django.urls import path

from games.sockets.game import GameConsumer
from games.sockets.lobby import LobbyConsumer

websocket_urlpatterns: list = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
