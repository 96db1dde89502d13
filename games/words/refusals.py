"""The engine's refusals, in the player's language.

The engine is pure and speaks English (`IllegalAction("you have no winter in hand")`). The few
refusals a player can meet through the board (a move that was legal a moment ago, a race with
another tab) are recognised here by pattern and phrased again with gettext. Refusals that only a
broken or hand-made client can cause (malformed keys, unknown card codes) stay in English: they
are protocol errors, for developers.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board.words import card_labels  # the names the board shows, in this language


def _card(code: str) -> str:
    info = card_labels().get(code, {})
    return str(info.get("title") or info.get("name") or code)


def _no_card(match) -> str:
    return _("You have no %(card)s in hand.") % {"card": _card(match["card"])}


def _no_take(match) -> str:
    return _("You have no face-up %(card)s in your battle line to take back.") % {
        "card": _card(match["card"])
    }


def _pope(match) -> str:
    return _("The Pope cannot go on %(region)s.") % {"region": match["region"]}


def _region(match) -> str:
    return _("%(region)s cannot be chosen: it is held, it has the Pope, or it is yours.") % {
        "region": match["region"]
    }


def _draw(match) -> str:
    count = int(match["count"])
    return ngettext(
        "You may draw at most %(count)s card.", "You may draw at most %(count)s cards.", count
    ) % {"count": count}


PATTERNS = (
    (r"the game is over", lambda match: _("The game is over.")),
    (
        r"the game waits for \w+, not for a '\w+' action",
        lambda match: _("The game is not waiting for that kind of move."),
    ),
    (r"you have no (?P<card>\w+) in hand", _no_card),
    (r"you have no face-up (?P<card>\w+) in your battle line to take back", _no_take),
    (r"the Pope token cannot go on (?P<region>\w+)", _pope),
    (
        r"you have no face-down card to reveal",
        lambda match: _("You have no face-down card to turn up."),
    ),
    (r"(?P<region>\w+) cannot be chosen: it is controlled, has the Pope, or is yours", _region),
    (
        r"you can keep only cards from your hand",
        lambda match: _("You can keep only cards from your hand."),
    ),
    (r"you may draw at most (?P<count>\d+) cards", _draw),
)


def player_message(engine_message: str) -> str:
    """The engine's refusal in the active language; unrecognised messages unchanged."""
    for pattern, phrase in PATTERNS:
        match = re.fullmatch(pattern, engine_message)
        if match:
            return phrase(match)
    return engine_message
