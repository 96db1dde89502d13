"""`apply_action`: validation against the legal list, the handlers, and the automatic steps."""

from . import battle, diplomacy, flow, yellow
from .cards import KIND
from .legal import (
    CARD_PRICE,
    CASTLE_PRICE,
    GENERATORS,
    PALACE_PRICE,
    RAMPART_PRICE,
    acting_seats,
    cached_legal,
)
from .piles import draw, hand_size
from .setup import START_DUCATS, from_step
from .state import (
    ATTACK,
    COMBAT,
    CORRUPT,
    COUNTER,
    DEFEND,
    EXPANSION,
    NEGLECT,
    OVER,
    PHASE_NAMES,
    PURCHASE,
    RETREAT,
    RETURN,
    SETUP_GARRISON,
    SETUP_PALACE,
    SETUP_RAMPART,
    SETUP_START,
    SIGN,
    TREASON,
    VOTE,
    clone,
    put,
)


class IllegalAction(ValueError):
    """An action that is not legal now; the state is left unchanged."""


# Phases whose choices depend on public information only: a lone legal action there is taken
# at once ([ruling] R27). Elsewhere a seat with cards is asked even with a single choice, so
# that nobody learns about its hand from being skipped.
PUBLIC_CHOICES = frozenset(
    {SETUP_START, SETUP_PALACE, SETUP_GARRISON, RETURN, PURCHASE, EXPANSION, CORRUPT, NEGLECT}
)


def _card_order(name):
    """A blue card's place in a commitment's canonical order (anything not a card name last)."""
    return KIND.get(name, 99) if isinstance(name, str) else 99


def _normal(action):
    if not isinstance(action, dict):
        raise IllegalAction("an action is a dict with a 'type'")
    if isinstance(action.get("blue"), (list, tuple)):
        action = dict(action)
        action["blue"] = sorted(action["blue"], key=_card_order)
    return action


def apply_action(state, seat, action):
    """A new state after `seat`'s `action`; IllegalAction (state unchanged) otherwise.

    A diplomacy action ([ruling] R42) may come from any seat at any moment of turns 1-6."""
    # diplomacy.is_diplomacy and _normal, inlined (the hot path).
    is_dict = isinstance(action, dict)
    kind = action.get("type") if is_dict else None
    # A "type" that is no name (a list, an object: unhashable) is no diplomacy either.
    if kind.__class__ is str and kind in diplomacy.TYPES:
        return _apply_diplomacy(state, seat, action)
    cache = state._legal
    legal = None if cache is None else cache.get(seat)
    if legal is None:
        # Not listed yet (the list is cached only for a seat that may act).
        if seat not in acting_seats(state):
            raise IllegalAction(f"seat {seat!r} may not act now ({phase_name(state)})")
        legal = cached_legal(state, seat)
    if not is_dict or "blue" in action:
        action = _normal(action)
    if action not in legal:
        raise IllegalAction(f"not a legal action now ({phase_name(state)}): {action!r}")
    s = clone(state)
    HANDLERS[s.phase](s, seat, action)
    settle(s)
    if s.offers:
        diplomacy.prune(s)
    return s


def _apply_diplomacy(state, seat, action):
    if action not in diplomacy.diplomacy_actions(state, seat):
        raise IllegalAction(f"not a legal diplomacy action now: {action!r}")
    s = clone(state)
    diplomacy.apply_diplomacy(s, seat, action)
    # A gift or a sale may leave the seat that acts with a lone public choice or no card.
    settle(s)
    return s


def phase_name(state):
    return PHASE_NAMES[state.phase]


def settle(s):
    """Take the automatic steps: a lone legal action where choices are public; a combat phase
    with an empty hand and nothing to do ends. The acting seat's legal list, computed on the
    way, is left cached on the state."""
    s._acting = s._legal = None
    while s.phase != OVER and s.phase != VOTE:
        seat, phase = s.current, s.phase
        choices = GENERATORS[phase](s, seat)
        if len(choices) != 1 or (
            phase not in PUBLIC_CHOICES and not (phase == COMBAT and hand_size(s, seat) == 0)
        ):
            s._legal = {seat: choices}
            return
        HANDLERS[phase](s, seat, choices[0])


def _city(s, action, key="city"):
    return s.geo.index[action[key]]


def _setup_start(s, seat, action):
    city = _city(s, action)
    battle.capture(s, seat, city)
    s.starts = put(s.starts, seat, s.starts[seat] + (city,))
    from_step(s)


def _setup_palace(s, seat, action):
    if action["type"] == "palace":
        s.palace = put(s.palace, _city(s, action), 1)
        s.palaces -= 1
    flow.next_setup(s)


def _setup_rampart(s, seat, action):
    s.fort = put(s.fort, _city(s, action), 1)
    flow.next_setup(s)


def _setup_garrison(s, seat, action):
    if action["type"] == "garrison":
        battle.capture(s, seat, _city(s, action))
    flow.next_setup(s)


def _return(s, seat, action):
    """[rules] The returning player takes one of its starting cities (fortifications and palace
    included) and 6 ducats."""
    battle.capture(s, seat, _city(s, action))
    s.ducats = put(s.ducats, seat, s.ducats[seat] + START_DUCATS)
    flow.next_return(s)


def _vote(s, seat, action):
    if action["type"] == "announce":
        _announce(s, seat, action)
        return
    s.votes = put(s.votes, seat, int(action["war"]))
    if min(s.votes) >= 0:
        flow.end_vote(s)


def _announce(s, seat, action):
    """[ruling] R59: the Swiss bonus, in public: 1 in attack, 2 in defence."""
    s.power = put(s.power, seat, 1 if action["bonus"] == "attack" else 2)


PIECE_PRICES = {
    "palace": PALACE_PRICE,
    "rampart": RAMPART_PRICE,
    "castle": CASTLE_PRICE,
    "fortress": RAMPART_PRICE + CASTLE_PRICE,
}


def _purchase(s, seat, action):
    kind = action["type"]
    if kind == "done":
        flow.next_purchase(s)
        return
    if kind == "announce":
        _announce(s, seat, action)
        return
    if kind == "buy_cards":
        count = action["count"]
        s.ducats = put(s.ducats, seat, s.ducats[seat] - CARD_PRICE * count)
        draw(s, seat, count)
        s.bought = put(s.bought, seat, 1)
        return
    build(s, seat, action["piece"], _city(s, action))


def build(s, seat, piece, city):
    """[rules] A palace on a city without one; a rampart on a garrison; a castle on a rampart
    (a fortress); a fortress straight from a garrison for 8 ducats."""
    s.ducats = put(s.ducats, seat, s.ducats[seat] - PIECE_PRICES[piece])
    if piece == "palace":
        s.palace = put(s.palace, city, 1)
        s.palaces -= 1
        return
    if piece in ("rampart", "fortress"):
        s.ramparts -= 1
    if piece in ("castle", "fortress"):
        s.castles -= 1
    s.fort = put(s.fort, city, 2 if piece in ("castle", "fortress") else 1)


def _expansion(s, seat, action):
    if action["type"] == "expand":
        origin, city = _city(s, action, "from"), _city(s, action, "to")
        if city not in s.geo.neighbours[origin]:
            s.sea_used = put(s.sea_used, seat, s.sea_used[seat] + 1)
        s.exp_from = put(s.exp_from, seat, origin)
        s.expansions = put(s.expansions, seat, s.expansions[seat] + 1)
        battle.capture(s, seat, city)
    flow.next_expansion(s)


def _combat(s, seat, action):
    kind = action["type"]
    if kind == "end_turn":
        flow.end_combat_phase(s)
    elif kind == "attack":
        battle.declare(s, seat, _city(s, action, "from"), _city(s, action, "to"), False)
    elif kind == "ride":
        battle.declare(s, seat, -1, _city(s, action, "to"), True)
    elif kind == "ambassador":
        yellow.ambassador(s, seat)
    elif kind == "lure":
        yellow.lure(s, seat, _city(s, action, "from"), _city(s, action, "to"))
    elif kind == "raiders":
        yellow.raiders(s, seat, _city(s, action), action.get("free", False))
    else:
        YELLOW[kind](s, seat, _city(s, action))


YELLOW = {
    "raiders": yellow.raiders,
    "marriage": yellow.marriage,
    "artist": yellow.artist,
    "banker": yellow.banker,
}


def _commit(s, seat, action):
    blue = tuple(KIND[name] for name in action["blue"])
    red = -1 if action["red"] is None else KIND[action["red"]]
    battle.commit(s, seat, blue, red, action.get("free", False))


def _counter(s, seat, action):
    battle.counter(s, action["play"])


def _treason(s, seat, action):
    battle.treason(s, action["buy"])


def _sign(s, seat, action):
    battle.sign(s, action.get("target"))


def _retreat(s, seat, action):
    kind = KIND[action["card"]] if action["type"] == "retreat" else None
    battle.retreat(s, kind, action.get("free", False))


def _corrupt(s, seat, action):
    yellow.corrupt(s, seat, _city(s, action) if action["type"] == "corrupt" else None)


def _neglect(s, seat, action):
    yellow.neglect(s, _city(s, action) if action["type"] == "neglect" else None)


HANDLERS = {
    SETUP_START: _setup_start,
    SETUP_RAMPART: _setup_rampart,
    SETUP_PALACE: _setup_palace,
    SETUP_GARRISON: _setup_garrison,
    RETURN: _return,
    VOTE: _vote,
    PURCHASE: _purchase,
    EXPANSION: _expansion,
    COMBAT: _combat,
    ATTACK: _commit,
    DEFEND: _commit,
    COUNTER: _counter,
    TREASON: _treason,
    SIGN: _sign,
    RETREAT: _retreat,
    CORRUPT: _corrupt,
    NEGLECT: _neglect,
}
