"""The rules pages: how to play Condottiere, and how to play Renaissance, in the visitor's language.

Each language has its own whole template (templates/rules/rules_<code>.html and
templates/rules/renaissance_<code>.html) rather than hundreds of msgids: long prose with card
names, numbers and examples is easier to keep right, and to read for a translator, as one page
per language.
"""

from django.shortcuts import render
from django.utils.translation import get_language

RULES_LANGUAGES = ("en", "fr", "it")


def rules_template(language: str | None, game: str = "rules") -> str:
    """The template of `game`'s rules ("rules" for Condottiere, "renaissance") for a language
    code such as "fr" or "fr-ca"; English when we have none."""
    code = (language or "en").split("-")[0].lower()
    return f"rules/{game}_{code if code in RULES_LANGUAGES else 'en'}.html"


def rules(request):
    return render(request, rules_template(get_language()))


def rules_renaissance(request):
    return render(request, rules_template(get_language(), game="renaissance"))
