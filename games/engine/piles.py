"""Moving cards between hands, the deck and the discard pile; every shuffle comes from the seed."""

import random

from .cards import NUM_KINDS


def expand(hand):
    """Counts per kind -> list of kinds (ascending)."""
    cards = []
    for kind in range(NUM_KINDS):
        if hand[kind]:
            cards.extend((kind,) * hand[kind])
    return cards


def remove_from_hand(ns, seat, kind):
    hands = list(ns.hands)
    hand = list(hands[seat])
    hand[kind] -= 1
    hands[seat] = tuple(hand)
    ns.hands = tuple(hands)
    sizes = list(ns.sizes)
    sizes[seat] -= 1
    ns.sizes = tuple(sizes)


def set_hand(ns, seat, kinds):
    """Replace `seat`'s hand with the multiset `kinds`."""
    hand = [0] * NUM_KINDS
    for kind in kinds:
        hand[kind] += 1
    hands = list(ns.hands)
    hands[seat] = tuple(hand)
    ns.hands = tuple(hands)
    sizes = list(ns.sizes)
    sizes[seat] = len(kinds)
    ns.sizes = tuple(sizes)


def add_to_hand(ns, seat, kinds):
    set_hand(ns, seat, expand(ns.hands[seat]) + list(kinds))


def shuffled(ns, cards):
    """Shuffle `cards` (sorted first, so the result depends on the multiset only) with the
    game's seed and shuffle counter, then count the shuffle."""
    cards = sorted(cards)
    random.Random(f"{ns.seed}:{ns.shuffles}").shuffle(cards)
    ns.shuffles += 1
    return tuple(cards)


def discard_pile_size(state):
    return len(state.discards) + len(state.dead) + sum(len(pile) for pile in state.hidden_discards)


def reshuffle_discard_pile(ns):
    """[ruling] Draw After Battle: when the deck is empty, the discard pile becomes a new deck."""
    pile = list(ns.discards) + list(ns.dead)
    for own in ns.hidden_discards:
        pile.extend(own)
    ns.deck = ns.deck + shuffled(ns, pile)
    ns.discards = ()
    ns.dead = ()
    ns.hidden_discards = tuple(() for _ in range(ns.n))


def draw_cards(ns, seat, count):
    """Deal `count` cards from the top of the deck to `seat` (reshuffling the discard pile when
    the deck runs out; fewer if no card is left anywhere)."""
    if count <= 0:
        return
    if len(ns.deck) < count:
        reshuffle_discard_pile(ns)
    drawn = ns.deck[:count]
    ns.deck = ns.deck[count:]
    add_to_hand(ns, seat, drawn)
