"""Validating the contract's action dicts into compact moves, with messages a player can read.

Messages name only what the acting player knows (his own hand, public board facts)."""

from .board import REGION_INDEX
from .cards import BISHOP, KIND, SCARECROW
from .moves import (
    BISHOP_FINAL,
    BISHOP_POPE,
    DISCARD_NO,
    DISCARD_YES,
    DRAW_BASE,
    PASS,
    PASS_REVEAL,
    PLAY,
    REGION,
    SCARECROW_TAKE,
    keep_move,
    legal_moves,
)
from .state import FINAL_BATTLE, OVER, PHASE_NAMES


class IllegalAction(ValueError):
    """An action that is not among the current player's legal actions, or is malformed."""


_KEYS = {
    "choose_region": ({"type", "region"},),
    "pass": ({"type"}, {"type", "reveal"}),
    "discard_hand": ({"type", "discard"},),
    "keep": ({"type", "cards"},),
    "draw": ({"type", "count"},),
    "play": ({"type", "card"}, {"type", "card", "take"}, {"type", "card", "pope"}),
}


def _check_keys(action, kind):
    keys = set(action)
    if keys not in _KEYS[kind]:
        allowed = " or ".join(str(sorted(option)) for option in _KEYS[kind])
        raise IllegalAction(f"a {kind!r} action has the keys {allowed}, not {sorted(keys)}")


def _card(code, what="card"):
    if not isinstance(code, str) or code not in KIND:
        raise IllegalAction(f"{code!r} is not a card code")
    return KIND[code]


def _region(name):
    if not isinstance(name, str) or name not in REGION_INDEX:
        raise IllegalAction(f"{name!r} is not a region")
    return REGION_INDEX[name]


def _parse_play(state, action):
    kind = _card(action["card"])
    if kind == SCARECROW:
        if "pope" in action or "take" not in action:
            raise IllegalAction('a Scarecrow play needs a "take" key (a Mercenary or null)')
        take = action["take"]
        if take is None:
            return SCARECROW_TAKE - 1
        taken = _card(take)
        if taken >= 7:
            raise IllegalAction("a Scarecrow takes back only a Mercenary")
        return SCARECROW_TAKE + taken
    if kind == BISHOP:
        if state.phase == FINAL_BATTLE:
            if set(action) != {"type", "card"}:
                raise IllegalAction("in the final battle a Bishop places no Pope token")
            return BISHOP_FINAL
        if "take" in action or "pope" not in action:
            raise IllegalAction('a Bishop play needs a "pope" key (a region or null)')
        pope = action["pope"]
        return BISHOP_POPE - 1 if pope is None else BISHOP_POPE + _region(pope)
    if set(action) != {"type", "card"}:
        raise IllegalAction(f"playing {action['card']} takes no other key")
    return PLAY + kind


def _parse(state, action):
    if not isinstance(action, dict):
        raise IllegalAction("an action must be a dict with a 'type'")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise IllegalAction(f"unknown action type {kind!r}")
    _check_keys(action, kind)
    if kind == "play":
        return _parse_play(state, action)
    if kind == "pass":
        if "reveal" not in action:
            return PASS
        if action["reveal"] is not True:
            raise IllegalAction('"reveal" is true when present')
        return PASS_REVEAL
    if kind == "choose_region":
        return REGION + _region(action["region"])
    if kind == "discard_hand":
        if not isinstance(action["discard"], bool):
            raise IllegalAction('"discard" must be true or false')
        return DISCARD_YES if action["discard"] else DISCARD_NO
    if kind == "keep":
        cards = action["cards"]
        if not isinstance(cards, list) or len(cards) > 2:
            raise IllegalAction('"cards" must be a list of at most 2 card codes')
        return keep_move([_card(code) for code in cards])
    count = action["count"]
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 3:
        raise IllegalAction('"count" must be an integer from 0 to 3')
    return DRAW_BASE + count


def action_to_move(state, action):
    """The contract's action dict -> compact move; IllegalAction unless it is legal now."""
    if state.phase == OVER:
        raise IllegalAction("the game is over")
    move = _parse(state, action)
    if move not in legal_moves(state):
        raise IllegalAction(_why_illegal(state, action))
    return move


def _why_illegal(state, action):
    phase = PHASE_NAMES[state.phase]
    kind = action["type"]
    expected = {
        "choose_region": "choose_region",
        "battle": "play",
        "final_battle": "play",
        "discard_hand": "discard_hand",
        "keep": "keep",
        "draw": "draw",
    }[phase]
    if kind != expected and not (kind == "pass" and expected == "play"):
        return f"the game waits for {phase}, not for a {kind!r} action"
    if kind == "play":
        hand = state.hands[state.current]
        card = KIND[action["card"]]
        if not hand[card]:
            return f"you have no {action['card']} in hand"
        if card == SCARECROW:
            return f"you have no face-up {action['take']} in your battle line to take back"
        return f"the Pope token cannot go on {action.get('pope')}"
    if kind == "pass":
        return "you have no face-down card to reveal"
    if kind == "choose_region":
        return f"{action['region']} cannot be chosen: it is controlled, has the Pope, or is yours"
    if kind == "keep":
        return "you can keep only cards from your hand"
    if kind == "discard_hand":
        return "you hold a Mercenary: you can only keep your hand"
    return f"you may draw at most {len(legal_moves(state)) - 1} cards"
