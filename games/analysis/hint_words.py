"""A hint in words: the move said to the player ("Play the Courtesan", "Pass", "Send the
Condottiere to Milano"), what on the page it concerns (a card of the hand, a region of the map),
and its reason in a few words, from the search's comparison of the moves (what it wins) and from
the move itself (what it costs).

Pure functions of the asker's view, the suggested action and the search's win chances: no
database, so the wording is tested on its own (tests/analysis/test_hint_words.py).
"""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ai.battle_play import printed_strengths
from ai.cards import HIDDEN
from games.board.words import card_labels

# Cards whose effect on the line strengths is the line's own arithmetic (games/engine/cards.py):
# the strengths after playing one of them are known from the view. The Bishop, the Scarecrow and
# Surrender change the lines or end the battle.
LINE_CHANGING_CARDS = ("bishop", "scarecrow", "surrender")
# Below this many percentage points between the suggested move and the next best, the search
# cannot tell them apart (its means carry a few points of noise, docs/ai.md "Analysis").
CLEARLY_BETTER = 2.0


def card_title(code: str) -> str:
    info = card_labels().get(code, {})
    return str(info.get("title") or info.get("name") or code)


def advice(action: dict) -> str:
    """The suggested move, said to the player."""
    kind = action.get("type")
    if kind == "choose_region":
        return _("Send the Condottiere to %(region)s") % {"region": action.get("region")}
    if kind == "play":
        return play_advice(action)
    if kind == "pass":
        if action.get("reveal"):
            return _("Pass and turn your face-down card up")
        return pgettext("hint", "Pass")
    if kind == "discard_hand":
        return _("Discard your hand") if action.get("discard") else _("Keep your hand")
    if kind == "keep":
        cards = ", ".join(card_title(code) for code in action.get("cards", []))
        return _("Keep %(cards)s") % {"cards": cards} if cards else _("Keep no card")
    return str(kind)


def play_advice(action: dict) -> str:
    card = action.get("card")
    if card == "scarecrow" and action.get("take"):
        return _("Play the Scarecrow and take back %(card)s") % {"card": card_title(action["take"])}
    if card == "bishop" and "pope" in action:
        if action["pope"]:
            return _("Play the Bishop and place the Pope on %(region)s") % {
                "region": action["pope"]
            }
        return _("Play the Bishop and set the Pope off the board")
    if card_labels().get(card, {}).get("kind") == "mercenary":
        return _("Play a %(card)s") % {"card": card_title(card)}
    return _("Play the %(card)s") % {"card": card_title(card)}


def marked(action: dict) -> dict:
    """What the page marks for the move: {"card": code} in the hand, {"region": name} on the
    map, or nothing (a pass, a hand discarded or kept)."""
    kind = action.get("type")
    if kind == "play":
        return {"card": action.get("card")}
    if kind == "choose_region":
        return {"region": action.get("region")}
    if kind == "keep" and action.get("cards"):
        return {"card": action["cards"][0]}
    return {}


def battle_effect(view: dict, action: dict) -> str | None:
    """What a plain card does to the battle: puts the player ahead, or level with the first."""
    card = action.get("card")
    region = view.get("region")
    if action.get("type") != "play" or card in LINE_CHANGING_CARDS or not region:
        return None
    seat = view["seat"]
    lines = [list(player["line"]) for player in view["players"]]
    if any(HIDDEN in line for line in lines):  # a face-down card: strengths not known
        return None
    lines[seat].append(card)
    try:
        strengths = printed_strengths(lines)
    except ValueError:
        return None
    best_other = max(strength for other, strength in enumerate(strengths) if other != seat)
    if strengths[seat] > best_other:
        return _("puts you ahead in the battle for %(region)s") % {"region": region}
    if strengths[seat] == best_other:
        return _("draws you level in the battle for %(region)s") % {"region": region}
    return None


def cost(view: dict, action: dict) -> str | None:
    """What the move spends or keeps."""
    kind = action.get("type")
    if kind == "play":
        return _("costs your %(card)s") % {"card": card_title(action.get("card"))}
    if kind == "pass" and view.get("hand"):
        return _("keeps your cards for the battles to come")
    if kind == "choose_region":
        return _("starts the battle for %(region)s") % {"region": action.get("region")}
    if kind == "discard_hand":
        return _("gives you new cards") if action.get("discard") else None
    return None


def comparison(chance: float, other: float | None) -> str | None:
    """What the move wins, from the search: the player's chance of winning the game with it
    against the best other move (both 0..1)."""
    if other is None:
        return None
    with_it, without = round(chance * 100), round(other * 100)
    if (chance - other) * 100 >= CLEARLY_BETTER:
        return _("your chance of winning: %(with)s%% with it, %(without)s%% at best without") % {
            "with": with_it,
            "without": without,
        }
    return _("about as good as your other moves (%(with)s%% chance of winning)") % {"with": with_it}


def reason(view: dict, action: dict, chance: float | None, other: float | None) -> str:
    """The move's reason in a few words: what it wins in the battle, what it costs, and what the
    search makes of it against the other moves."""
    parts = [battle_effect(view, action), cost(view, action)]
    if chance is not None:
        parts.append(comparison(chance, other))
    return "; ".join(part for part in parts if part)


def hint_text(view: dict, action: dict, chance: float | None, other: float | None) -> dict:
    """The hint's words and mark: {"advice", "reason", "text", "mark"}."""
    said, why = advice(action), reason(view, action, chance, other)
    text = _("%(advice)s: %(reason)s.") % {"advice": said, "reason": why} if why else f"{said}."
    return {"advice": said, "reason": why, "text": text, "mark": marked(action)}
