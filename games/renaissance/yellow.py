"""Yellow cards, played in one's own combat phase between battles ([ruling] R22)."""

from .battle import capture
from .cards import AMBASSADOR, ARTIST_BANKER, MARRIAGE, RAIDERS
from .flow import FORTIFICATION
from .piles import discard, draw, pick, roll, take
from .state import COMBAT, CORRUPT, NEGLECT, put

BANKER_DUCATS = 5
MARRIAGE_DUCATS = 2
# [rules] Pillage yields 1 ducat for a garrison, 2 for a rampart ([ruling] R23: 1 for a free city).
PILLAGE_DUCATS = (1, 2)


def defence_level(s, city):
    """[rules] Pillage and corruption must beat the fortification level (no terrain bonus);
    [ruling] R23 a free city has none."""
    return 0 if s.owner[city] < 0 else FORTIFICATION[s.fort[city]]


def _play(s, seat, kind):
    take(s, seat, kind)
    discard(s, (kind,))


def raiders(s, seat, city, free=False):
    """[rules] Raiders: a die strictly above the fortification pillages the city: 1 or 2 ducats
    now, no income for its owner this turn; [ruling] R57 Spain's free Raiders need no card."""
    if free:
        s.power = put(s.power, seat, 1)
    else:
        _play(s, seat, RAIDERS)
    if roll(s) > defence_level(s, city):
        s.ducats = put(s.ducats, seat, s.ducats[seat] + PILLAGE_DUCATS[s.fort[city]])
        s.pillaged = put(s.pillaged, city, 1)
        s.pillages -= 1


def ambassador(s, seat):
    """[rules] Ambassador, 2d6: 2-6 corruption, 7-8 neglect, 9-12 two free cards."""
    _play(s, seat, AMBASSADOR)
    total = roll(s) + roll(s)
    if total <= 6:
        s.phase = CORRUPT
    elif total <= 8:
        s.phase = NEGLECT
    else:
        draw(s, seat, 2)


def corrupt(s, seat, city):
    """[rules] Corruption: an opponent's city without palace rebels on a die strictly above its
    fortification level (a fortress never does)."""
    if city is not None and roll(s) > defence_level(s, city):
        capture(s, seat, city)
    s.phase = COMBAT


def neglect(s, city):
    """[rules] Poor upkeep: a fortress loses its castle or a rampart goes (back to the box)."""
    if city is not None:
        if s.fort[city] == 2:
            s.castles += 1
        else:
            s.ramparts += 1
        s.fort = put(s.fort, city, s.fort[city] - 1)
    s.phase = COMBAT


def marriage(s, seat, city):
    """[rules] Marriage: 2 ducats ([ruling] R24: to the city's owner) for its bare garrison; no
    attack on that player for the rest of the turn."""
    _play(s, seat, MARRIAGE)
    spouse = s.owner[city]
    s.ducats = put(s.ducats, seat, s.ducats[seat] - MARRIAGE_DUCATS)
    s.ducats = put(s.ducats, spouse, s.ducats[spouse] + MARRIAGE_DUCATS)
    s.married |= 1 << spouse
    capture(s, seat, city)


def artist(s, seat, city):
    """[rules] Artist: draw a token from the 12 (11 artists and Savonarola); Savonarola burns the
    palace and goes back to the reserve."""
    _play(s, seat, ARTIST_BANKER)
    if pick(s, s.artists + 1) == s.artists:
        s.palace = put(s.palace, city, 0)
        s.palaces += 1
    else:
        s.artist = put(s.artist, city, 1)
        s.artists -= 1


# [ruling] R51: Florence lures an artist on a 5 or a 6.
LURE_ROLL = 5


def lure(s, seat, origin, palace):
    """[rules] Florence's power: once a turn, 1d6, on 5 or 6 another player's artist moves into
    Florence's free palace (the palace it leaves stays, empty)."""
    s.power = put(s.power, seat, 1)
    if roll(s) >= LURE_ROLL:
        s.artist = put(put(s.artist, origin, 0), palace, 1)


def banker(s, seat, city):
    """[rules] Banker: 5 ducats, once per palace per turn."""
    _play(s, seat, ARTIST_BANKER)
    s.ducats = put(s.ducats, seat, s.ducats[seat] + BANKER_DUCATS)
    s.banked = s.banked + (city,)
