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


def bot_seat_name(level: str) -> str:
    """The name a bot's seat shows, e.g. "Bot (Medium)", in the active language."""
    return gettext("Bot (%(level)s)") % {"level": level_name(level)}
