"""The live Renaissance table: the map of Italy, the seats, the hand and the decisions, drawn in
the browser (templates/game/renaissance.html, static/js/renaissance.js).

Like Condottiere's page (games/views/game.py), the server renders only the layout, the map
picture, the board's public facts and the translated words. Every hand, vote and decision
reaches the browser over the game's websocket, as the socket's seat's `view_for(state, seat)`,
and nowhere else: the page is the same for a seat, a spectator and an anonymous visitor.
"""

from functools import lru_cache

from django.shortcuts import render
from django.utils.html import escape
from django.utils.translation import gettext as _

from games.board.renaissance_battle_words import battle_labels
from games.board.renaissance_log_words import log_labels
from games.board.renaissance_map import renaissance_svg
from games.board.renaissance_words import renaissance_labels
from games.board_data import renaissance_shapes
from games.forms.tables import LEAVING_NATIONS, RENAISSANCE_OPTION_WORDS
from games.lobby.tables import GAME_NAMES
from games.models import Game


def renaissance_page(request, game: Game, rated: dict | None):
    """The table of the Renaissance `game`; `rated` is the game page's line on its rating."""
    context = {
        "game": game,
        "board_svg": translated_svg(),
        "rule_chips": rule_chips(game),
        "game_info": game_info(game),
        "board_facts": board_facts(),
        "rn_labels": renaissance_labels(),
        "rn_battle_labels": battle_labels(),
        "rn_log_labels": log_labels(),
        "rated": rated,
    }
    return render(request, "game/renaissance.html", context)


# The map file's own title, in Italian and the same for every language (the file is static).
MAP_TITLE = '<title id="rn-map-title">Italia 1454</title>'


def translated_svg() -> str:
    """The map with its title (its accessible name and its hover text) in the page's language."""
    return renaissance_svg().replace(
        MAP_TITLE, f'<title id="rn-map-title">{escape(_("Map of Italy"))}</title>', 1
    )


def rule_chips(game: Game) -> list[dict]:
    """The table's rules, public in `game.options` (docs/protocol.md, section 17), one chip each:
    the game, its start (a scenario or the game of 1454), the nations' powers on or off, the
    nation that leaves a four-player game, and the timer. A `plain` chip says a default."""
    options = game.options or {}
    scenario = options.get("scenario")
    powers = bool(options.get("powers"))
    leaving = options.get("remove")
    seconds = game.turn_seconds
    chips = [
        chip("game", GAME_NAMES["renaissance"]),
        chip(
            "scenario",
            RENAISSANCE_OPTION_WORDS[f"scenario_{scenario}"] if scenario else _("The game of 1454"),
            plain=not scenario,
        ),
        chip(
            "powers",
            RENAISSANCE_OPTION_WORDS["powers"] if powers else _("No nations' powers"),
            plain=not powers,
        ),
    ]
    if leaving in LEAVING_NATIONS:
        chips.append(chip("remove", RENAISSANCE_OPTION_WORDS[f"remove_{leaving}"]))
    timer = _("%(seconds)s s per decision") % {"seconds": seconds} if seconds else _("No timer")
    chips.append(chip("timer", timer, plain=not seconds))
    return chips


def chip(key: str, text, plain: bool = False) -> dict:
    return {"key": key, "text": str(text), "plain": plain}


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
    board = renaissance_shapes.board()  # board.json read as data: the page imports no engine
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
