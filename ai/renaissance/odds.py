"""Battle arithmetic for the heuristic: card values, the two dice, what a hidden hand may hold.

Card kinds are the engine's numbering (the view's battle lists troops by kind): its CARD_NAMES.
"""

from games.renaissance import CARD_NAMES

KIND = {name: kind for kind, name in enumerate(CARD_NAMES)}
BLUE_VALUE = {"pikemen": 3, "arquebusiers": 4, "knights": 5, "cannon": 6, "swiss": 7}
# The deck (docs/renaissance/rulings.md R1): copies of each blue card, and the deck's size.
BLUE_COPIES = {"pikemen": 12, "arquebusiers": 11, "knights": 9, "cannon": 6, "swiss": 4}
DECK_SIZE = 80
# The Condottiere die (R2): rout, treason, 4, 5, 5, 6 -> 20/6 on average, less a little for the
# treason face (the other side may buy it).
CONDOTTIERE_VALUE = 3.0
# Fortification by level (garrison, rampart, fortress) and what an Engineer leaves of it.
FORTIFICATION = (2, 4, 6)
ENGINEERED = (0, 2, 4)
ENGINEER_DEFENCE = 2


def troop_value(name: str) -> float:
    return BLUE_VALUE.get(name, CONDOTTIERE_VALUE if name == "condottiere" else 0.0)


def _dice_difference():
    """P(first die - second die = k) for k in -5..5."""
    return {k: (6 - abs(k)) / 36 for k in range(-5, 6)}


DIFFERENCE = _dice_difference()


def p_beats(attack: float, defence: float) -> float:
    """P(attack + d6 > defence + d6): a tie goes to the defender."""
    threshold = defence - attack
    return sum(p for k, p in DIFFERENCE.items() if k > threshold + 1e-9)


def _expected_best_blue(cards: int) -> float:
    """Expected value of the best blue card among `cards` drawn (0 without one), cards taken as
    independent draws from the deck: what a defender holding that many cards may oppose."""
    values = sorted(BLUE_VALUE.values())
    by_value = {BLUE_VALUE[name]: copies / DECK_SIZE for name, copies in BLUE_COPIES.items()}
    below = 1 - sum(by_value.values())  # P(a card is not blue)
    expected, previous = 0.0, below**cards
    for value in values:
        below += by_value[value]
        now = below**cards
        expected += value * (now - previous)
        previous = now
    return expected


EXPECTED_BEST_BLUE = tuple(_expected_best_blue(cards) for cards in range(16))
# An attacker's two face-down troops, chosen from its hand: about two good blue cards.
EXPECTED_ATTACK_PAIR = 10.0
# What a third face-down card adds on average (an Engineer or Traitor lowers the fortification,
# a Condottiere adds its roll).
EXPECTED_RED = 2.5


def expected_defence_card(hand_size: int) -> float:
    """A defender's blue card and, with a fuller hand, maybe a red card."""
    size = max(0, min(hand_size, len(EXPECTED_BEST_BLUE) - 1))
    return EXPECTED_BEST_BLUE[size] + (1.0 if size >= 4 else 0.0)
