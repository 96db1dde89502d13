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

# What each level does and how strong it is (docs/ai.md), where a level is chosen: people pick a
# bot by what to expect from it, not by an internal name.
LEVEL_DESCRIPTIONS = {
    "random": pgettext_lazy("bot level", "plays any legal move at random, the weakest"),
    "easy": pgettext_lazy("bot level", "a good player's rules of thumb, with frequent slips"),
    "heuristic": pgettext_lazy(
        "bot level", "a good player's rules of thumb, without slips; moves at once"
    ),
    "medium": pgettext_lazy("bot level", "thinks ahead briefly, under half a second a move"),
    "hard": pgettext_lazy("bot level", "thinks ahead about 1.5 seconds a move; strong"),
    "expert": pgettext_lazy(
        "bot level", "thinks ahead on every core, up to 4 seconds a move; the strongest"
    ),
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


def level_with_description(level: str) -> str:
    """A level as a select offers it, e.g. "Hard — thinks ahead about 1.5 seconds a move;
    strong", in the active language."""
    description = LEVEL_DESCRIPTIONS.get(level)
    if description is None:
        return level_name(level)
    return gettext("%(level)s — %(description)s") % {
        "level": level_name(level),
        "description": description,
    }


def condottiere_name(game_id: int | None, seat_index: int) -> str:
    """The condottiere who plays seat `seat_index` of game `game_id`: the same on every page,
    frame, record and replay of that game, and a different one for each seat of the game
    (consecutive entries of the list from a per-game start)."""
    start = (game_id or 0) * GAME_STRIDE
    return CONDOTTIERI[(start + seat_index) % len(CONDOTTIERI)]


def bot_seat_name(level: str, name: str) -> str:
    """The name a bot's seat shows, e.g. "Colleoni (hard bot)" for the condottiere `name`
    (`Seat.condottiere`), in the active language."""
    return gettext("%(name)s (%(level)s bot)") % {
        "name": name,
        "level": level_name(level).lower(),
    }


def bot_level_name(level: str) -> str:
    """A bot level as a whole (its shared rating), e.g. "Hard bot", in the active language."""
    return gettext("%(level)s bot") % {"level": level_name(level)}
