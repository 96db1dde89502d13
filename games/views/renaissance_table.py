"""The live Renaissance table: the map of Italy, the seats, the hand and the decisions, drawn in
the browser (templates/game/renaissance.html, static/js/renaissance.js).

Like Condottiere's page (games/views/game.py), the server renders only the layout, the map
picture, the board's public facts and the translated words. Every hand, vote and decision
reaches the browser over the game's websocket, as the socket's seat's `view_for(state, seat)`,
and nowhere else: the page is the same for a seat, a spectator and an anonymous visitor.
"""

import json
from functools import lru_cache
from pathlib import Path

from django.shortcuts import render

from games.board.renaissance_battle_words import battle_labels
from games.board.renaissance_log_words import log_labels
from games.board.renaissance_map import renaissance_svg
from games.board.renaissance_words import renaissance_labels
from games.models import Game

# The board's data file: the map's public facts (provinces, terrain, ports), read as data.
BOARD_FILE = Path(__file__).resolve().parents[1] / "renaissance" / "data" / "board.json"


def renaissance_page(request, game: Game, rated: dict | None):
    """The table of the Renaissance `game`; `rated` is the game page's line on its rating."""
    context = {
        "game": game,
        "board_svg": renaissance_svg(),
        "game_info": game_info(game),
        "board_facts": board_facts(),
        "rn_labels": renaissance_labels(),
        "rn_battle_labels": battle_labels(),
        "rn_log_labels": log_labels(),
        "rated": rated,
    }
    return render(request, "game/renaissance.html", context)


def game_info(game: Game) -> dict:
    """What the client needs to connect: nothing about cards (those come over the socket)."""
    return {
        "id": game.pk,
        "wsPath": f"/ws/games/{game.pk}/",
        "protocol": 1,
        "ruleset": game.ruleset,
    }


@lru_cache(maxsize=1)
def board_facts() -> dict:
    """Per city its province, terrain, coast and port; per province its cities: what the
    tooltips and the seats' province counts need (the view names cities only)."""
    board = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    cities = {
        name: {
            "province": city["province"],
            "terrain": city["terrain"],
            "coastal": bool(city["coastal"]),
            "port": bool(city["port"]),
        }
        for name, city in board["cities"].items()
    }
    provinces = {name: list(province["cities"]) for name, province in board["provinces"].items()}
    roads = [list(road) for road in board["roads"]]
    return {"cities": cities, "provinces": provinces, "roads": roads}
