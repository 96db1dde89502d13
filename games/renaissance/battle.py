"""A battle, from its announcement to its end (rulebook "Phase 2 - Combats").

`s.battle` is a dict of ints and tuples; side 0 is the attacker, side 1 the defender. Every
function takes a fresh clone `s`, copies the battle dict before changing it, and leaves `s`
waiting for the next decision (or back in the attacker's combat phase).
"""

from .cards import (
    BLUE,
    CONDOTTIERE,
    CONDOTTIERE_DIE,
    ENGINEER,
    RETREAT,
    RIDE,
    ROUT,
    SIGN_OF_GOD,
    TRAITOR,
    TREASON,
    VALUE,
)
from .flow import FORTIFICATION, has_power
from .piles import discard, forget_known, give, hand_size, roll, take
from .state import (
    ATTACK,
    COMBAT,
    COUNTER,
    DEFEND,
    SIGN,
    put,
)
from .state import (
    RETREAT as RETREAT_PHASE,
)
from .state import (
    TREASON as TREASON_PHASE,
)

UNROLLED = -1
# [rules] An Engineer lowers the fortification one level (a garrison is worth nothing).
ENGINEERED = (0, 2, 4)
# [rules] An Engineer played in defence without a counter is worth 2 PC.
ENGINEER_DEFENCE = 2
# [rules] The most cards a side plays: the attacker 2 blue and 1 red, the defender 1 and 1.
MOST_CARDS = (3, 2)


def _seats(b):
    return (b["a"], b["d"])


def _update(s, **changes):
    b = dict(s.battle)
    b.update(changes)
    s.battle = b
    return b


def declare(s, seat, origin, target, ride):
    """[rules] The attacker names the city it attacks from and the city it attacks: one attack
    per turn from a city, each city attacked once per turn by a player, one attack in peace.
    [rules] Ride: any enemy city, whatever the distance, without terrain bonus."""
    geo = s.geo
    sea = 0
    if ride:
        take(s, seat, RIDE)
        discard(s, (RIDE,))
    else:
        sea = int(target not in geo.neighbours[origin])
        s.used_from = s.used_from + (origin,)
    defender = s.owner[target]
    s.attacks += 1
    s.targets = s.targets + (target,)
    s.attacked |= 1 << defender
    s.battle = {
        "a": seat,
        "d": defender,
        "from": -1 if ride else origin,
        "to": target,
        "sea": sea,
        "ride": int(bool(ride)),
        "blue": ((), ()),
        "red": (-1, -1),
        "committed": (0, 0),
        "revealed": 0,
        "troops": ((), ()),
        "countered": 0,
        "dice": (),
        "fort": 0,
        "bonus": 0,
        "engineer": 0,
        "lost": -1,
        "pending": (),
        "signs": (-1, -1),
        "asked": 0,
        "totals": (),
        "saved": ((), ()),
    }
    s.phase, s.current = ATTACK, seat


def commit(s, seat, blue, red, free=False):
    """[rules] Face down: the attacker two blue cards (or Condottieri) and maybe one red; then
    the defender one blue card and maybe one red. [ruling] R55: with `free`, one of the
    Condottieri is Milan's free one, taken from no hand: `blue` and `red` keep the cards from
    the hand, the battle's "free" marks the side's extra Condottiere (public, like the power's
    use)."""
    b = s.battle
    side = 0 if seat == b["a"] else 1
    if free:
        blue, red = _without_one_condottiere(blue, red)
        s.power = put(s.power, seat, 1)
        b = _update(s, free=put(b.get("free", (0, 0)), side, 1))
    for kind in blue:
        take(s, seat, kind)
    if red >= 0:
        take(s, seat, red)
    forget_known(s, seat)
    b = _update(
        s,
        blue=put(b["blue"], side, tuple(blue)),
        red=put(b["red"], side, red),
        committed=put(b["committed"], side, 1),
    )
    if side == 0:
        s.phase, s.current = DEFEND, b["d"]
        if hand_size(s, b["d"]) == 0:
            # [rules] A defender without cards adds its fortification to its die only.
            commit(s, b["d"], (), -1)
        return
    reveal(s)


def _without_one_condottiere(blue, red):
    if red == CONDOTTIERE:
        return blue, -1
    index = blue.index(CONDOTTIERE)
    return blue[:index] + blue[index + 1 :], red


def reveal(s):
    """[rules] The cards are revealed; each Condottiere costs its player a ducat ([ruling] R55
    Milan's free one too: the card is free, its use is paid like every Condottiere's)."""
    b = s.battle
    free = b.get("free", (0, 0))
    troops = []
    for side, seat in enumerate(_seats(b)):
        kinds = b["blue"][side] + ((CONDOTTIERE,) if b["red"][side] == CONDOTTIERE else ())
        kinds += (CONDOTTIERE,) * free[side]
        pay_condottieri(s, seat, kinds.count(CONDOTTIERE))
        troops.append(tuple((k, UNROLLED if k == CONDOTTIERE else VALUE[k]) for k in kinds))
    b = _update(s, revealed=1, troops=tuple(troops))
    if any(free):
        # [ruling] R55: how many Condottieri in the troops are no card (never discarded).
        b = _update(s, virtual=sum(free))
    a_red, d_red = b["red"]
    if a_red in (ENGINEER, TRAITOR):
        if d_red == a_red:
            b = _update(s, countered=1)
        elif hand_size(s, b["d"]) > 0:
            # [ruling] R16: the defender is asked whenever a counter could be in its hand.
            s.phase, s.current = COUNTER, b["d"]
            return
    fight(s)


def pay_condottieri(s, seat, count):
    """A ducat each, except those bought from a player this turn ([ruling] R44)."""
    prepaid = min(count, s.prepaid[seat])
    if prepaid:
        s.prepaid = put(s.prepaid, seat, s.prepaid[seat] - prepaid)
        count -= prepaid
    s.ducats = put(s.ducats, seat, s.ducats[seat] - count)


def _cards_only(s, kinds):
    """`kinds` leaving the battle without Milan's free Condottiere ([ruling] R55: no card of the
    deck, it goes nowhere), which Condottiere of the battle it is being of no matter."""
    virtual = min(kinds.count(CONDOTTIERE), s.battle.get("virtual", 0))
    if not virtual:
        return kinds
    _update(s, virtual=s.battle["virtual"] - virtual)
    kinds = list(kinds)
    for _ in range(virtual):
        kinds.remove(CONDOTTIERE)
    return kinds


def counter(s, play):
    """[rules] The defender may counter the attacker's Engineer or Traitor with the same card
    from its hand: both are discarded."""
    b = s.battle
    if play:
        kind = b["red"][0]
        take(s, b["d"], kind)
        discard(s, (kind,))
        _update(s, countered=1)
    fight(s)


def _fortification(s, b):
    level = s.fort[b["to"]]
    a_red = -1 if b["countered"] else b["red"][0]
    if a_red == ENGINEER:
        return ENGINEERED[level]
    if a_red == TRAITOR:
        return 0
    return FORTIFICATION[level]


def fight(s):
    """[rules] Fortification (lowered or cancelled by the attacker's red card), the terrain and
    landing bonuses (kept at 0 PC, none for a Ride), the defender's Engineer (+2) or Traitor (the
    attacker loses its strongest blue card), both dice; then the Condottieri."""
    b = s.battle
    geo = s.geo
    # [ruling] R50: Genoa's power spares it the terrain and landing bonuses when it attacks.
    spared = b["ride"] or has_power(s, b["a"], "genoa")
    bonus = 0 if spared else geo.rough[b["to"]] + b["sea"]
    a_red, d_red = b["red"]
    engineer = ENGINEER_DEFENCE if d_red == ENGINEER and a_red != ENGINEER else 0
    troops = b["troops"]
    lost = -1
    if d_red == TRAITOR and a_red != TRAITOR:
        blues = [i for i, (kind, _) in enumerate(troops[0]) if kind in BLUE]
        if blues:
            strongest = max(blues, key=lambda i: troops[0][i][1])
            lost = troops[0][strongest][0]
            discard(s, (lost,))
            troops = (troops[0][:strongest] + troops[0][strongest + 1 :], troops[1])
    dice = (roll(s), roll(s))
    _update(
        s,
        fort=_fortification(s, b),
        bonus=bonus,
        engineer=engineer,
        lost=lost,
        troops=troops,
        dice=dice,
    )
    resolve_condottieri(s)


def _next_unrolled(b):
    for side in (0, 1):
        for index, (kind, value) in enumerate(b["troops"][side]):
            if kind == CONDOTTIERE and value == UNROLLED:
                return side, index
    return None


def resolve_condottieri(s):
    """[rules] Each Condottiere rolls the Condottiere die: rout (discarded), treason (offered to
    the other side for a ducat, else rolled again), or its value."""
    while True:
        b = s.battle
        found = _next_unrolled(b)
        if found is None:
            start_signs(s)
            return
        side, index = found
        face = CONDOTTIERE_DIE[roll(s) - 1]
        troops = b["troops"][side]
        if face == ROUT:
            discard(s, _cards_only(s, (CONDOTTIERE,)))
            troops = troops[:index] + troops[index + 1 :]
            _update(s, troops=put(b["troops"], side, troops))
        elif face == TREASON:
            buyer = _seats(b)[1 - side]
            if s.ducats[buyer] >= 1 and cards_in_battle(b, 1 - side) < MOST_CARDS[1 - side]:
                _update(s, pending=(side, index))
                s.phase, s.current = TREASON_PHASE, buyer
                return
        else:
            troops = put(troops, index, (CONDOTTIERE, face))
            _update(s, troops=put(b["troops"], side, troops))


def cards_in_battle(b, side):
    """The cards a side has in the battle now: its troops (blue cards and Condottieri still
    there) and its Engineer or Traitor unless a counter discarded it."""
    red = b["red"][side]
    gone = b["countered"] and (side == 0 or red == b["red"][0])
    return len(b["troops"][side]) + int(red in (ENGINEER, TRAITOR) and not gone)


def treason(s, buy):
    """[rules] The other side may buy the traitor for a ducat and rolls it again; otherwise its
    owner rolls it again. [ruling] R18: a sale, so the ducat goes to the player the traitor
    leaves, and only a side below its card limit is offered it."""
    b = s.battle
    side, index = b["pending"]
    if buy:
        seller, buyer = _seats(b)[side], _seats(b)[1 - side]
        s.ducats = put(s.ducats, buyer, s.ducats[buyer] - 1)
        s.ducats = put(s.ducats, seller, s.ducats[seller] + 1)
        troops = list(b["troops"])
        troops[side] = troops[side][:index] + troops[side][index + 1 :]
        troops[1 - side] = troops[1 - side] + ((CONDOTTIERE, UNROLLED),)
        _update(s, troops=tuple(troops))
    _update(s, pending=())
    resolve_condottieri(s)


def start_signs(s):
    """[ruling] R19: after the reveal and the dice, the attacker, then the defender, may play a
    Sign of God (each seat with cards in hand is asked)."""
    _ask_sign(s, 0)


def _ask_sign(s, side):
    b = s.battle
    while side < 2:
        if hand_size(s, _seats(b)[side]) > 0:
            _update(s, asked=side)
            s.phase, s.current = SIGN, _seats(b)[side]
            return
        side += 1
    totals(s)


def sign(s, target):
    """[rules] Sign of God doubles one blue card or Condottiere of its player."""
    b = s.battle
    side = b["asked"]
    if target is not None:
        take(s, _seats(b)[side], SIGN_OF_GOD)
        discard(s, (SIGN_OF_GOD,))
        b = _update(s, signs=put(b["signs"], side, target))
    _ask_sign(s, side + 1)


def strength(b, side):
    troops = b["troops"][side]
    total = sum(value for _, value in troops) + b["dice"][side]
    if b["signs"][side] >= 0:
        total += troops[b["signs"][side]][1]
    if side == 1:
        total += b["fort"] + b["bonus"] + b["engineer"]
    return total + b.get("swiss", (0, 0))[side]


def totals(s):
    """[rules] The higher total wins; a tie goes to the defender, but both lose their cards."""
    swiss = tuple(
        int(has_power(s, seat, "swiss") and s.power[seat] == side + 1)
        for side, seat in enumerate(_seats(s.battle))
    )
    if any(swiss):
        # [ruling] R59: the Swiss +1 PC on the side they announced.
        _update(s, swiss=swiss)
    _update(s, totals=(strength(s.battle, 0), strength(s.battle, 1)))
    _ask_retreat(s, 0)


def losers(b):
    attack, defence = b["totals"]
    if attack == defence:
        return (0, 1)
    return (1,) if attack > defence else (0,)


def _unsaved_blues(b, side):
    blues = [kind for kind, _ in b["troops"][side] if kind in BLUE]
    for kind in b["saved"][side]:
        blues.remove(kind)
    return blues


def _ask_retreat(s, side):
    """[ruling] R20: Retreat after the result, by a side that is losing its blue cards: the
    attacker first, then the defender; each seat with cards in hand is asked."""
    b = s.battle
    while side < 2:
        seat = _seats(b)[side]
        asked = hand_size(s, seat) > 0 or (has_power(s, seat, "naples") and not s.power[seat])
        if side in losers(b) and _unsaved_blues(b, side) and asked:
            _update(s, asked=side)
            s.phase, s.current = RETREAT_PHASE, seat
            return
        side += 1
    conclude(s)


def retreat(s, kind, free=False):
    """[rules] Retreat saves one blue card (not a Condottiere) from the discard; several may be
    played; [ruling] R52 Naples's free one needs no card."""
    b = s.battle
    side = b["asked"]
    if kind is None:
        _ask_retreat(s, side + 1)
        return
    seat = _seats(b)[side]
    if free:
        s.power = put(s.power, seat, 1)
    else:
        take(s, seat, RETREAT)
        discard(s, (RETREAT,))
    _update(s, saved=put(b["saved"], side, b["saved"][side] + (kind,)))
    _ask_retreat(s, side)


def _exposed_add(s, seat, kinds):
    exposed = list(s.exposed[seat])
    for kind in kinds:
        exposed[kind] += 1
    s.exposed = put(s.exposed, seat, tuple(exposed))


def conclude(s):
    """[rules] The winner takes the city with its fortifications; a winning attacker's blue
    cards lie face up until its attacks are over (so do cards it saved by Retreat, [ruling]
    R21); a winning defender's blue card goes back to its hand; the rest is discarded."""
    b = s.battle
    attacker, defender = _seats(b)
    lose = losers(b)
    for side in (0, 1):
        kinds = [kind for kind, _ in b["troops"][side]]
        keep = list(b["saved"][side])
        if side not in lose:
            keep = [kind for kind in kinds if kind in BLUE]
        for kind in keep:
            kinds.remove(kind)
        discard(s, _cards_only(s, kinds))
        if side == 0:
            _exposed_add(s, attacker, keep)
        else:
            for kind in keep:
                give(s, defender, kind)
    discard(s, [kind for kind in b["red"] if kind in (ENGINEER, TRAITOR)])
    if 0 not in lose:
        capture(s, attacker, b["to"])
    s.battle = None
    s.phase, s.current = COMBAT, attacker


def capture(s, seat, city):
    """A city changes hands with its fortifications, palace and artist: the new owner's
    garrison replaces the old one (which goes back to its owner's reserve)."""
    old = s.owner[city]
    if old >= 0:
        s.reserve = put(s.reserve, old, s.reserve[old] + 1)
    s.reserve = put(s.reserve, seat, s.reserve[seat] - 1)
    s.owner = put(s.owner, city, seat)
    if s.phase >= COMBAT:
        # [ruling] R39: a city taken in a combat phase (COMBAT and the battle and Ambassador
        # phases numbered after it) is no base for an attack in that phase.
        s.gained = s.gained + (city,)
