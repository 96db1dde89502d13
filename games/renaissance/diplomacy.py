"""Diplomacy (rulebook "Diplomatie"): exchanging cities, giving ducats, selling Condottieri.

Not moves of the turn: any seat may make them at any moment of turns 1-6 ([ruling] R42), so
they are listed by `diplomacy_actions(state, seat)`, not by `legal_actions`, and
`apply_action(state, seat, action)` accepts them from any seat (like Condottiere's shown cards,
docs/engine.md). Promises bind nobody: the engine only knows offers and their answers.

An offer is a tuple (kind, from, to, give, take): EXCHANGE (the offerer's city `give` for the
recipient's city `take`) or SALE (a Condottiere for a ducat; give = take = -1). Offers are seen
by their two parties only ([ruling] R45) and vanish when they no longer hold, when answered or
withdrawn, and at the end of the turn.
"""

from .cards import CONDOTTIERE
from .piles import give, take
from .state import COMBAT, OVER, TURNS, put

EXCHANGE, SALE = 0, 1
# [rules] A Condottiere is sold for one ducat, paid to the seller ([ruling] R44).
SALE_PRICE = 1
TYPES = frozenset(
    {
        "give_ducats",
        "offer_exchange",
        "accept_exchange",
        "decline_exchange",
        "withdraw_exchange",
        "offer_condottiere",
        "accept_condottiere",
        "decline_condottiere",
        "withdraw_condottiere",
    }
)


def is_diplomacy(action):
    """True for an action of diplomacy (not a move of the turn)."""
    # A malformed "type" (a list, a dict: unhashable) is simply not diplomacy.
    kind = action.get("type") if isinstance(action, dict) else None
    return isinstance(kind, str) and kind in TYPES


def in_game(s):
    """[ruling] R42: diplomacy is possible from the first turn to the end of the sixth."""
    return 1 <= s.turn <= TURNS and s.phase != OVER


def may_treat(s, seat):
    """A seat of this game, in turns 1-6: it may take some diplomacy (or none may be listed)."""
    return in_game(s) and not isinstance(seat, bool) and seat in range(s.n)


def belligerent(s, seat):
    """A side of the battle being fought (it may not give money away nor buy after its
    commitment, [ruling] R43, R44: its face-down Condottieri must stay payable)."""
    b = s.battle
    return b is not None and seat in (b["a"], b["d"])


def committed(s, seat):
    b = s.battle
    if b is None or seat not in (b["a"], b["d"]):
        return False
    return bool(b["committed"][0 if seat == b["a"] else 1])


def exchange_holds(s, offer):
    """[rules] Two cities of the same fortification level, each exchanged at most once a turn,
    still held by the two parties; [ruling] R42 not while a battle is fought."""
    _, sender, receiver, mine, theirs = offer
    return (
        s.owner[mine] == sender
        and s.owner[theirs] == receiver
        and s.fort[mine] == s.fort[theirs]
        and mine not in s.exchanged
        and theirs not in s.exchanged
    )


def may_sell(s, seat):
    """[ruling] R44: not once committed, and not at all by the attacker of the battle being
    fought: it announced the attack with a commitment it can make ([ruling] R12, [rules] line
    387 "L'attaquant choisit 2 cartes"), which a sale could take away (no legal move left)."""
    b = s.battle
    if b is not None and seat == b["a"]:
        return False
    return not committed(s, seat)


def sale_holds(s, offer):
    return s.hands[offer[1]][CONDOTTIERE] > 0 and may_sell(s, offer[1])


def holds(s, offer):
    return exchange_holds(s, offer) if offer[0] == EXCHANGE else sale_holds(s, offer)


def _offer_dict(s, offer, kind):
    names = s.geo.cities
    if offer[0] == EXCHANGE:
        action = {"type": kind + "_exchange", "give": names[offer[3]], "take": names[offer[4]]}
    else:
        action = {"type": kind + "_condottiere"}
    if kind == "withdraw":
        action["to"] = offer[2]
    else:
        action["from"] = offer[1]
    return action


def diplomacy_actions(s, seat):
    """The diplomacy actions `seat` may take now (any seat, any moment of turns 1-6)."""
    if not may_treat(s, seat):
        return []
    actions = _answers(s, seat)
    if not belligerent(s, seat):
        actions += map(dict.copy, _gifts(s.n, seat, s.ducats[seat]))
    actions += _sale_offers(s, seat)
    if s.battle is None:
        actions += _exchange_offers(s, seat)
    return actions


def listed_diplomacy(s, seat):
    """What a view lists of `diplomacy_actions`: the answers, the withdrawals and the offers of a
    Condottiere, each a whole action. The gifts and the exchange offers, which are many (tens
    of gifts, a hundred exchanges in a six-player game), a view describes by
    `diplomacy_forms` instead."""
    if not may_treat(s, seat):
        return []
    return _answers(s, seat) + _sale_offers(s, seat)


def _sale_offers(s, seat):
    if not (s.hands[seat][CONDOTTIERE] and may_sell(s, seat)):
        return []
    offered = {o[2] for o in s.offers if o[0] == SALE and o[1] == seat}
    return [
        {"type": "offer_condottiere", "to": other}
        for other in range(s.n)
        if other != seat and other not in offered
    ]


def no_forms():
    """The forms of a seat that may give nothing and offer no exchange (and of a spectator)."""
    return {"give_ducats": None, "offer_exchange": []}


def diplomacy_forms(s, seat):
    """The gifts and exchange offers `seat` may make now, described, not listed:
    `give_ducats`: {"to": [seats], "most": n} (any of those seats, 1 to n ducats) or None;
    `offer_exchange`: [{"to": seat, "give": [cities], "take": [cities]}], any city of `give`
    for any city of `take` (one entry per seat and fortification level), except an offer of
    the seat's own that still waits (`s.offers`). Expanded, they are exactly the gifts and
    exchange offers of `diplomacy_actions` (`forms_actions`)."""
    if not may_treat(s, seat):
        return no_forms()
    forms = no_forms()
    if not belligerent(s, seat) and s.ducats[seat] > 0:
        others = [other for other in range(s.n) if other != seat]
        forms["give_ducats"] = {"to": others, "most": s.ducats[seat]}
    if s.battle is None:
        forms["offer_exchange"] = _exchange_forms(s, seat)
    return forms


# Each seat's cities that may be exchanged, by fortification level, by (board, owners,
# fortifications, cities exchanged): the same for every seat's view of a state and for the
# states between two captures or builds. Bounded, in case of a very long run.
_HOLDINGS = {}
_HOLDINGS_KEPT = 4096


def _holdings(s):
    key = (s.geo, s.n, s.owner, s.fort, s.exchanged)
    held = _HOLDINGS.get(key)
    if held is None:
        if len(_HOLDINGS) >= _HOLDINGS_KEPT:
            _HOLDINGS.clear()
        names, fort, exchanged = s.geo.cities, s.fort, s.exchanged
        held = [{} for _ in range(s.n)]
        for city, owner in enumerate(s.owner):
            if owner >= 0 and city not in exchanged:
                held[owner].setdefault(fort[city], []).append(names[city])
        held = _HOLDINGS[key] = [
            sorted((level, tuple(cities)) for level, cities in levels.items()) for levels in held
        ]
    return held


def _exchange_forms(s, seat):
    held = _holdings(s)
    mine = dict(held[seat])
    return [
        {"to": other, "give": list(mine[level]), "take": list(theirs)}
        for other in range(s.n)
        if other != seat
        for level, theirs in held[other]
        if level in mine
    ]


def forms_actions(forms, offers, seat, cities):
    """The gifts and exchange offers that `diplomacy_forms` describe, as whole actions, in
    `diplomacy_actions`' order: gifts by seat and amount, exchanges by seat, city given (its
    index in `cities`) and city taken. `offers`: the offers the view shows ([kind, from, to,
    give, take]), whose pending exchanges by `seat` are left out."""
    gifts = forms["give_ducats"]
    gift_actions = []
    if gifts:
        gift_actions = [
            {"type": "give_ducats", "to": other, "amount": amount}
            for other in gifts["to"]
            for amount in range(1, gifts["most"] + 1)
        ]
    pending = {
        (o[2], cities[o[3]], cities[o[4]]) for o in offers if o[0] == EXCHANGE and o[1] == seat
    }
    index = {name: position for position, name in enumerate(cities)}
    by_seat = {}
    for form in forms["offer_exchange"]:
        by_seat.setdefault(form["to"], []).extend((give, form["take"]) for give in form["give"])
    exchanges = [
        {"type": "offer_exchange", "to": other, "give": give, "take": take}
        for other in sorted(by_seat)
        for give, takes in sorted(by_seat[other], key=lambda pair: index[pair[0]])
        for take in takes
        if (other, give, take) not in pending
    ]
    return gift_actions, exchanges


# The gifts of ducats a seat may make, by (players, seat, ducats): the same few lists recur, so
# each is built once and handed out as copies (views list them for every seat and state).
_GIFTS = {}


def _gifts(players, seat, ducats):
    key = (players, seat, ducats)
    gifts = _GIFTS.get(key)
    if gifts is None:
        gifts = _GIFTS[key] = tuple(
            {"type": "give_ducats", "to": other, "amount": amount}
            for other in range(players)
            if other != seat
            for amount in range(1, ducats + 1)
        )
    return gifts


def _answers(s, seat):
    actions = []
    for offer in s.offers:
        if offer[2] == seat:
            if _acceptable(s, seat, offer):
                actions.append(_offer_dict(s, offer, "accept"))
            actions.append(_offer_dict(s, offer, "decline"))
        elif offer[1] == seat:
            actions.append(_offer_dict(s, offer, "withdraw"))
    return actions


def _acceptable(s, seat, offer):
    if offer[0] == EXCHANGE:
        return s.battle is None
    return s.ducats[seat] >= SALE_PRICE and not committed(s, seat) and may_sell(s, offer[1])


# The exchange offers a seat may make, by (board, seat, owners, fortifications, cities already
# exchanged), when it has none pending: these tuples change seldom (a capture, a build), and
# views list the offers for every seat of every state, so each list is built once and handed
# out as copies. Bounded, in case of a very long run.
_EXCHANGES = {}
_EXCHANGES_KEPT = 4096


def _exchange_offers(s, seat):
    pending = {(o[2], o[3], o[4]) for o in s.offers if o[0] == EXCHANGE and o[1] == seat}
    if pending:
        return _exchange_list(s, seat, pending)
    key = (s.geo, seat, s.n, s.owner, s.fort, s.exchanged)
    offers = _EXCHANGES.get(key)
    if offers is None:
        if len(_EXCHANGES) >= _EXCHANGES_KEPT:
            _EXCHANGES.clear()
        offers = _EXCHANGES[key] = tuple(_exchange_list(s, seat, pending))
    return list(map(dict.copy, offers))


def _exchange_list(s, seat, pending):
    names, fort, exchanged = s.geo.cities, s.fort, s.exchanged
    # Each seat's cities not yet exchanged, in one pass; the others' by fortification level,
    # since an exchange needs equal levels.
    held = [[] for _ in range(s.n)]
    for city, owner in enumerate(s.owner):
        if owner >= 0 and city not in exchanged:
            held[owner].append(city)
    mine = [(a, names[a], fort[a]) for a in held[seat]]
    actions = []
    for other in range(s.n):
        if other == seat:
            continue
        levels = {}
        for city in held[other]:
            levels.setdefault(fort[city], []).append(city)
        actions += [
            {"type": "offer_exchange", "to": other, "give": give, "take": names[b]}
            for a, give, level in mine
            for b in levels.get(level, ())
            if (other, a, b) not in pending
        ]
    return actions


def apply_diplomacy(s, seat, action):
    """Apply a legal diplomacy action to the fresh clone `s` (validated by the caller)."""
    kind = action["type"]
    index = s.geo.index
    if kind == "give_ducats":
        other, amount = action["to"], action["amount"]
        s.ducats = put(s.ducats, seat, s.ducats[seat] - amount)
        s.ducats = put(s.ducats, other, s.ducats[other] + amount)
    elif kind == "offer_exchange":
        offer = (EXCHANGE, seat, action["to"], index[action["give"]], index[action["take"]])
        s.offers = tuple(sorted(s.offers + (offer,)))
    elif kind == "offer_condottiere":
        s.offers = tuple(sorted(s.offers + ((SALE, seat, action["to"], -1, -1),)))
    else:
        verb, _, what = kind.partition("_")
        sender, receiver = (seat, action["to"]) if verb == "withdraw" else (action["from"], seat)
        if what == "exchange":
            offer = (EXCHANGE, sender, receiver, index[action["give"]], index[action["take"]])
        else:
            offer = (SALE, sender, receiver, -1, -1)
        s.offers = tuple(o for o in s.offers if o != offer)
        if verb == "accept":
            (_exchange if what == "exchange" else _sell)(s, offer)
    prune(s)


def _exchange(s, offer):
    """[rules] The two cities change hands with their fortifications, palaces and artists
    ([ruling] R42); the garrisons swap, so each reserve is unchanged."""
    _, sender, receiver, mine, theirs = offer
    s.owner = put(put(s.owner, mine, receiver), theirs, sender)
    s.exchanged = s.exchanged + (mine, theirs)
    if s.phase >= COMBAT:
        # [ruling] R39: like a capture, no base for an attack in this combat phase.
        s.gained = s.gained + (mine, theirs)


def _sell(s, offer):
    """[rules] The buyer pays the seller a ducat and need not pay again to play the card
    ([ruling] R44: it is known to be in the buyer's hand)."""
    _, seller, buyer, _, _ = offer
    take(s, seller, CONDOTTIERE)
    give(s, buyer, CONDOTTIERE)
    kept = min(s.prepaid[seller], s.hands[seller][CONDOTTIERE])
    s.prepaid = put(s.prepaid, seller, kept)
    s.ducats = put(s.ducats, buyer, s.ducats[buyer] - SALE_PRICE)
    s.ducats = put(s.ducats, seller, s.ducats[seller] + SALE_PRICE)
    s.prepaid = put(s.prepaid, buyer, s.prepaid[buyer] + 1)


def prune(s):
    """Offers that no longer hold vanish (a city lost, a fortification changed, the card
    played)."""
    if s.offers:
        s.offers = tuple(o for o in s.offers if holds(s, o))
