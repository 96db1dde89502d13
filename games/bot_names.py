"""How bot levels and bot seats are named for people, in their language (the AI package names
levels for code)."""

from django.utils.translation import gettext, pgettext_lazy

LEVEL_NAMES = {
    "random": pgettext_lazy("bot level", "Random"),
    "easy": pgettext_lazy("bot level", "Easy"),
    "heuristic": pgettext_lazy("bot level", "Solid"),
    "medium": pgettext_lazy("bot level", "Medium"),
    "hard": pgettext_lazy("bot level", "Hard"),
    "expert": pgettext_lazy("bot level", "Expert"),
}


def level_name(level: str) -> str:
    return str(LEVEL_NAMES.get(level, level))


# Condottieri of the Renaissance, one per bot seat. Proper names: never translated. There are
# more than the six seats of a table, so the seats of one game always get different names.
CONDOTTIERI = (
    "Colleoni",
    "Sforza",
    "Gattamelata",
    "Montefeltro",
    "Malatesta",
    "Hawkwood",
    "Braccio",
    "Carmagnola",
    "Piccinino",
    "Orsini",
    "Vitelli",
    "Baglioni",
)
# How far each game shifts the list (coprime with its length, so every game id gives a
# different first name over twelve games, and the names vary from table to table).
GAME_STRIDE = 5


def condottiere_name(game_id: int | None, seat_index: int) -> str:
    """The condottiere who plays seat `seat_index` of game `game_id`: the same on every page,
    frame, record and replay of that game, and a different one for each seat of the game
    (consecutive entries of the list from a per-game start)."""
    start = (game_id or 0) * GAME_STRIDE
    return CONDOTTIERI[(start + seat_index) % len(CONDOTTIERI)]


def bot_seat_name(level: str, game_id: int | None = None, seat_index: int = 0) -> str:
    """The name a bot's seat shows, e.g. "Colleoni (hard bot)", in the active language."""
    return gettext("%(name)s (%(level)s bot)") % {
        "name": condottiere_name(game_id, seat_index),
        "level": level_name(level).lower(),
    }


def bot_level_name(level: str) -> str:
    """A bot level as a whole (its shared rating), e.g. "Hard bot", in the active language."""
    return gettext("%(level)s bot") % {"level": level_name(level)}
