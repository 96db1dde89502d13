"""Websocket routes. Each consumer lives with its app; this list gathers them."""

websocket_urlpatterns: list = []
