"""Cards of Condottiere (3rd edition, 110 cards) and the strength of battle lines.

Internally a card is a small int, its *kind* (0..14); the public contract uses string codes.
Mercenary kinds 0..6 are ordered by printed value, so "highest printed Mercenary" is simply the
highest Mercenary kind.
"""

CODES = (
    "m1", "m2", "m3", "m4", "m5", "m6", "m10",
    "winter", "spring", "bishop", "courtesan", "drummer", "heroine", "scarecrow", "surrender",
)  # fmt: skip
KIND = {code: kind for kind, code in enumerate(CODES)}
NUM_KINDS = 15

WINTER, SPRING, BISHOP, COURTESAN, DRUMMER, HEROINE, SCARECROW, SURRENDER = range(7, 15)
MERCENARY_KINDS = range(7)
PRINTED = (1, 2, 3, 4, 5, 6, 10)

# [rules] 110 cards: ten 1s, eight each of 2..6 and 10; Winter 3, Spring 3, Bishop 6,
# Courtesan 12, Drummer 6, Heroine 3, Scarecrow 16, Surrender 3.
COPIES = (10, 8, 8, 8, 8, 8, 8, 3, 3, 6, 12, 6, 3, 16, 3)
DECK_KINDS = tuple(kind for kind in range(NUM_KINDS) for _ in range(COPIES[kind]))
DECK = tuple(CODES[kind] for kind in DECK_KINDS)

# [rules] Hidden Cards: these kinds are played face down.
FACE_DOWN_KINDS = frozenset((0, 1, 2, 3, 4, 5, 6, COURTESAN, DRUMMER, HEROINE))


# Per kind: the printed strength added to a line with no season and no Drummer, and whether it is a
# Mercenary. Table look-ups via map() keep the whole computation in C (bots call it constantly).
_FLAT_VALUE = (1, 2, 3, 4, 5, 6, 10, 0, 0, 0, 1, 0, 10, 0, 0)
_IS_MERCENARY = (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0)


def line_strengths(lines):
    """[rules] Strength of a battle line, in the rulings' fixed order.

    `lines` holds one tuple of kinds per player. For each Mercenary: 1 under Winter else printed;
    doubled by a Drummer in its line (several Drummers = one); +3 under Spring when its PRINTED
    value is the highest printed Mercenary in all lines ([ruling]). Then +10 per Heroine and +1 per
    Courtesan, which no other card touches.
    """
    present = set()
    for line in lines:
        present.update(line)
    winter = WINTER in present
    top = -1
    if SPRING in present:
        for kind in range(6, -1, -1):
            if kind in present:
                top = kind
                break
    strengths = []
    for line in lines:
        if not line:
            strengths.append(0)
            continue
        others = 10 * line.count(HEROINE) + line.count(COURTESAN)
        if winter:
            mercenaries = sum(map(_IS_MERCENARY.__getitem__, line))
        else:
            mercenaries = sum(map(_FLAT_VALUE.__getitem__, line)) - others
        if DRUMMER in line:
            mercenaries *= 2
        if top >= 0:
            mercenaries += 3 * line.count(top)
        strengths.append(mercenaries + others)
    return strengths


def kinds_of(codes, what="card"):
    """Card codes -> kinds, rejecting anything that is not a card code."""
    try:
        return [KIND[code] for code in codes]
    except (KeyError, TypeError) as error:
        raise ValueError(f"unknown {what} code {error.args[0]!r}") from None


def battle_strengths(lines):
    """Public form of `line_strengths`: one list of card codes per player -> list of ints."""
    return line_strengths([tuple(kinds_of(line)) for line in lines])
