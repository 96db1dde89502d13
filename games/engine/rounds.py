"""Between battles: the token holder places the token, (3) battle lines are discarded, (4)
every player with cards is asked whether to discard the hand (only one with no Mercenary may),
(5) the end-of-round check; the last player
with cards keeps at most two; a new round is dealt. Each path ends by starting the next battle
or asking a seat."""

from .aftermath import empty_lines, position_from_token
from .battle import start_battle
from .cards import DECK_KINDS
from .options import DRAW_AFTER_BATTLE
from .piles import draw_cards, expand, set_hand, shuffled
from .shown import forget_all, forget_hand
from .state import DISCARD_HAND, KEEP


def choose_region(ns, region):
    """[rules] The token holder places the token; then (3) lines are discarded, face up, in seat
    order, and (4)-(5) follow (not with Draw After Battle, nor before the first battle)."""
    ns.region = region
    after_battle = ns.last_battle is not None
    if any(ns.lines):
        discarded = ()
        for line in ns.lines:
            discarded += line
        ns.discards = ns.discards + discarded
        ns.lines = empty_lines(ns.n)
    if not after_battle or ns.opts & DRAW_AFTER_BATTLE:
        start_battle(ns)
    else:
        _ask_discard(ns, -1)


def _ask_discard(ns, after_position):
    """[ruling] Step (4) is asked in seat order from the token holder, of EVERY player holding
    cards, Mercenary or not: who is asked then depends on public hand sizes only, so being asked
    reveals nothing (asking only the seats without Mercenary told the table who held none).
    A seat with a Mercenary can only decline (`moves.legal_moves`)."""
    n = ns.n
    for position in range(after_position + 1, n):
        seat = (ns.token + position) % n
        if ns.sizes[seat]:
            ns.phase = DISCARD_HAND
            ns.current = seat
            return
    _end_of_round_check(ns)


def discard_hand(ns, seat, discard):
    """[rules] A player with no Mercenary in hand may discard his whole hand ([ruling] face down:
    only he knows those cards until the next reshuffle). Declining (`discard` false) just asks
    the next seat."""
    if discard:
        hidden = list(ns.hidden_discards)
        hidden[seat] = hidden[seat] + tuple(expand(ns.hands[seat]))
        ns.hidden_discards = tuple(hidden)
        set_hand(ns, seat, ())
        forget_hand(ns, seat)
    _ask_discard(ns, position_from_token(ns, seat))


def _end_of_round_check(ns):
    """[rules] Step (5): if one player or none has cards, the round ends."""
    holders = [seat for seat in range(ns.n) if ns.sizes[seat]]
    if len(holders) >= 2:
        start_battle(ns)
    elif holders:
        ns.phase = KEEP
        ns.current = holders[0]
    else:
        _new_round(ns)


def keep(ns, seat, kept):
    """[rules] The last player with cards keeps at most two and discards the rest (face down)."""
    rest = expand(ns.hands[seat])
    for kind in kept:
        rest.remove(kind)
    hidden = list(ns.hidden_discards)
    hidden[seat] = hidden[seat] + tuple(rest)
    ns.hidden_discards = tuple(hidden)
    set_hand(ns, seat, kept)
    _new_round(ns)


def _new_round(ns):
    """[rules] All cards are shuffled together; each player is dealt up to 10, then 1 more per
    region. [ruling] Each gets his whole allotment in turn, from the token holder, in seat order."""
    ns.deck = shuffled(ns, _cards_outside_hands(ns))
    ns.discards = ()
    ns.dead = ()
    ns.hidden_discards = empty_lines(ns.n)
    ns.known = empty_lines(ns.n)
    forget_all(ns)
    for position in range(ns.n):
        seat = (ns.token + position) % ns.n
        draw_cards(ns, seat, 10 + ns.counts[seat] - ns.sizes[seat])
    start_battle(ns)


def _cards_outside_hands(ns):
    in_hands = [0] * 15
    for hand in ns.hands:
        for kind, count in enumerate(hand):
            in_hands[kind] += count
    cards = []
    for kind in DECK_KINDS:
        if in_hands[kind]:
            in_hands[kind] -= 1
        else:
            cards.append(kind)
    return cards
