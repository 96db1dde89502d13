"""Websocket routes. Each consumer lives with its app; this list gathers them."""

from django.urls import path

from games.consumers import GameConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns: list = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
