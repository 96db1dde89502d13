"""The 80 battle cards and the Condottiere die ([ruling] R1, R2: this site's reconstruction).

Cards are kinds 0..14; a hand is a tuple of 15 counts, one per kind.
"""

(
    PIKEMEN,
    ARQUEBUSIERS,
    KNIGHTS,
    CANNON,
    SWISS,
    CONDOTTIERE,
    ENGINEER,
    TRAITOR,
    SIGN_OF_GOD,
    RETREAT,
    RAIDERS,
    AMBASSADOR,
    MARRIAGE,
    RIDE,
    ARTIST_BANKER,
) = range(15)
KINDS = 15

NAMES = (
    "pikemen",
    "arquebusiers",
    "knights",
    "cannon",
    "swiss",
    "condottiere",
    "engineer",
    "traitor",
    "sign_of_god",
    "retreat",
    "raiders",
    "ambassador",
    "marriage",
    "ride",
    "artist_banker",
)
KIND = {name: kind for kind, name in enumerate(NAMES)}

# [rules] Blue cards: Piquiers 3, Arquebusiers 4, Chevaliers 5, Canon 6, Suisses 7 PC.
BLUE = (PIKEMEN, ARQUEBUSIERS, KNIGHTS, CANNON, SWISS)
VALUE = (3, 4, 5, 6, 7) + (0,) * 10
# A battle's blue slot takes a blue card or a Condottiere; the red slot (face down) takes
# Engineer, Traitor or a Condottiere ([ruling] R14: Sign of God and Retreat come after the reveal).
BLUE_SLOT = BLUE + (CONDOTTIERE,)
RED_SLOT = (ENGINEER, TRAITOR, CONDOTTIERE)
YELLOW = (RAIDERS, AMBASSADOR, MARRIAGE, RIDE, ARTIST_BANKER)

# [ruling] R1: the 80-card deck (the rulebook gives no counts).
COPIES = (12, 11, 9, 6, 4, 8, 4, 3, 4, 4, 4, 3, 3, 2, 3)
assert sum(COPIES) == 80
DECK = tuple(kind for kind in range(KINDS) for _ in range(COPIES[kind]))

# [ruling] R2: the Condottiere die's six faces (rout, treason, 4, 5, 6 printed; the sixth is a 5).
ROUT, TREASON = "rout", "treason"
CONDOTTIERE_DIE = (ROUT, TREASON, 4, 5, 5, 6)

EMPTY_HAND = (0,) * KINDS


def counts_of(kinds):
    counts = [0] * KINDS
    for kind in kinds:
        counts[kind] += 1
    return tuple(counts)


def kinds_of(counts):
    return [kind for kind in range(KINDS) for _ in range(counts[kind])]


def add(hand, kind, number=1):
    hand = list(hand)
    hand[kind] += number
    return tuple(hand)
