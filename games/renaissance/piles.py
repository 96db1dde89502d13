"""Randomness (shuffles, dice, draws) and moving cards between hands, deck and discards.

Every random draw is `random.Random(f"{seed}:{rng}")`, then `rng += 1`: the same seed and the
same actions give the same game. All functions work on a fresh clone `s` (they reassign fields).
"""

import random

from .cards import DECK, KINDS
from .state import put


def _random(s):
    generator = random.Random(f"{s.seed}:{s.rng}")
    s.rng += 1
    return generator


def roll(s):
    """One six-sided die."""
    return _random(s).randint(1, 6)


def pick(s, count):
    """A uniform index in range(count)."""
    return _random(s).randrange(count)


def shuffled(s, items):
    items = list(items)
    _random(s).shuffle(items)
    return tuple(items)


def new_deck(s):
    """[rules] All 80 cards shuffled: at a turn's start nobody holds any card."""
    s.deck = shuffled(s, DECK)
    s.discards = ()


def hand_size(s, seat):
    return sum(s.hands[seat])


def draw(s, seat, count):
    """Draw `count` cards into `seat`'s hand; [ruling] R6 an empty deck takes the face-up
    discards reshuffled; the draw stops short only if both are empty."""
    hand = list(s.hands[seat])
    for _ in range(count):
        if not s.deck:
            if not s.discards:
                break
            s.deck = shuffled(s, s.discards)
            s.discards = ()
        hand[s.deck[0]] += 1
        s.deck = s.deck[1:]
    s.hands = put(s.hands, seat, tuple(hand))


def available(s):
    """Cards a draw could still take (deck and discards)."""
    return len(s.deck) + len(s.discards)


def take(s, seat, kind, count=1):
    """Remove cards of `kind` from `seat`'s hand (played face up: the known ones go first)."""
    hand = list(s.hands[seat])
    hand[kind] -= count
    if hand[kind] < 0:
        raise AssertionError("card not in hand")
    s.hands = put(s.hands, seat, tuple(hand))
    known = s.known[seat]
    if known[kind] > hand[kind]:
        s.known = put(s.known, seat, put(known, kind, hand[kind]))


def give(s, seat, kind, known=True):
    """Put a card into `seat`'s hand; `known`: everyone saw it go there."""
    hand = s.hands[seat]
    s.hands = put(s.hands, seat, put(hand, kind, hand[kind] + 1))
    if known:
        counts = s.known[seat]
        s.known = put(s.known, seat, put(counts, kind, counts[kind] + 1))


def forget_known(s, seat):
    """A face-down play: nobody can tell any more which of its known cards remain."""
    s.known = put(s.known, seat, (0,) * KINDS)


def discard(s, kinds):
    s.discards = s.discards + tuple(kinds)
