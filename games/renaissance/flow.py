"""The turn's sequences: set-up placements, returns, vote, deal, purchases, order draw,
expansions, combat phases (between battles), Renaissance Points and treasury, the end.

Each function takes a fresh clone `s` and leaves it waiting for the next decision.
"""

from .cards import EMPTY_HAND, KINDS
from .piles import draw, new_deck, pick, shuffled
from .state import (
    COMBAT,
    EXPANSION,
    OVER,
    PURCHASE,
    RETURN,
    SETUP_GARRISON,
    SETUP_PALACE,
    SETUP_RAMPART,
    TURNS,
    VOTE,
    put,
)

# [rules] Treasury: 1 ducat per garrison, 2 per rampart, 3 per fortress.
INCOME = (1, 2, 3)
# [rules] Fortification: 2 PC for a garrison, 4 for a rampart, 6 for a fortress.
FORTIFICATION = (2, 4, 6)
PEACE_CARDS, PEACE_DUCATS, WAR_CARDS = 4, 4, 6
VENICE_DUCATS = 2


def cities_of(s, seat):
    return [city for city, owner in enumerate(s.owner) if owner == seat]


def wiped(s, seat):
    return seat not in s.owner


# --- set-up -----------------------------------------------------------------------------


def next_setup(s):
    """[rules] Ramparts, then the extra garrison, each in turn order; [ruling] R46 in a
    scenario, ramparts, then (1515) palaces, and no extra garrison."""
    s.step += 1
    if s.step < s.n:
        s.current = s.order[s.step]
        return
    following = {SETUP_RAMPART: SETUP_GARRISON}
    if s.scenario:
        following = {SETUP_RAMPART: SETUP_PALACE} if palace_each(s) else {}
    if s.phase in following:
        s.phase, s.step, s.current = following[s.phase], 0, s.order[0]
        return
    start_turn(s)


def scenario_rules(s):
    """The scenario's block of the board data ({} in the 1454 game)."""
    if not s.scenario:
        return {}
    return s.geo.data["scenarios"][s.scenario]


def palace_each(s):
    """[rules] 1515: each player receives a palace and puts it on one of its garrisons."""
    return bool(scenario_rules(s).get("palace_each"))


def has_power(s, seat, nation):
    """[ruling] R50: the nations' powers apply only with the option "powers"."""
    return s.nations[seat] == nation and ("powers", True) in s.options


# --- a new turn ------------------------------------------------------------------------


def start_turn(s):
    """[rules] A new turn: per-turn marks cleared; a player off the board returns first."""
    s.turn += 1
    s.bought = (0,) * s.n
    s.expansions = (0,) * s.n
    s.exp_from = (-1,) * s.n
    s.sea_used = (0,) * s.n
    s.banked = ()
    s.exchanged = ()
    s.offers = ()
    s.prepaid = (0,) * s.n
    s.power = (0,) * s.n
    s.step = -1
    next_return(s)


def next_return(s):
    """[rules] "Disparition": a player wiped off the board comes back at the next turn's start,
    in turn order, on one of its starting cities of its choice."""
    s.phase = RETURN
    while True:
        s.step += 1
        if s.step >= s.n:
            break
        seat = s.order[s.step]
        if wiped(s, seat) and any(not s.closed[c] for c in s.starts[seat]):
            s.current = seat
            return
    start_vote(s)


def start_vote(s):
    """[rules] Turn 1 (1454) is peace without a vote; later turns vote in secret."""
    if s.turn == 1:
        # [rules] 1454 is peace; [rules] the 1515 scenario starts at war.
        s.war = int(scenario_rules(s).get("first_turn") == "war")
        deal(s)
        return
    s.phase, s.current = VOTE, -1
    s.votes = (-1,) * s.n


def end_vote(s):
    """[rules] War if at least half of the players voted war; [ruling] R53 with the powers,
    the Pope's vote counts twice, among the votes."""
    weights = [2 if has_power(s, seat, "rome") else 1 for seat in range(s.n)]
    war_votes = sum(w for w, vote in zip(weights, s.votes, strict=True) if vote)
    s.war = int(2 * war_votes >= sum(weights))
    s.last_votes = s.votes
    s.votes = (-1,) * s.n
    deal(s)


def deal(s):
    """[rules] Peace: 4 cards and 4 ducats each; war: 6 cards each."""
    new_deck(s)
    for seat in s.order:
        draw(s, seat, WAR_CARDS if s.war else PEACE_CARDS)
        if not s.war:
            s.ducats = put(s.ducats, seat, s.ducats[seat] + PEACE_DUCATS)
    for seat in s.order:
        if has_power(s, seat, "empire"):
            # [ruling] R58: the Empire's free card comes with the deal.
            draw(s, seat, 1)
    s.phase, s.step, s.current = PURCHASE, 0, s.order[0]


def next_purchase(s):
    """[rules] Purchases in turn order (this turn's order is drawn afterwards)."""
    s.step += 1
    if s.step < s.n:
        s.current = s.order[s.step]
        return
    if s.turn > 1:
        draw_order(s)
    s.phase, s.step, s.current = EXPANSION, 0, s.order[0]


def draw_order(s):
    """[rules] The turn order is drawn; the last first player is set aside for the first place
    (nobody is first twice running), then goes back into the draw."""
    previous = s.order[0]
    others = [seat for seat in range(s.n) if seat != previous]
    first = others[pick(s, len(others))]
    rest = [seat for seat in range(s.n) if seat != first]
    s.order = (first,) + shuffled(s, rest)


def next_expansion(s):
    """[rules] One expansion each in turn order, then the second round."""
    s.step += 1
    if s.step < 2 * s.n:
        s.current = s.order[s.step % s.n]
        return
    s.phase, s.step = COMBAT, 0
    start_combat_phase(s)


def start_combat_phase(s):
    s.current = s.order[s.step]
    s.attacks = 0
    s.used_from = ()
    s.targets = ()
    s.attacked = 0
    s.married = 0
    s.gained = ()


def end_combat_phase(s):
    """[rules] The attacker's face-up cards come back to its hand (for defence) once it has
    finished all its attacks; then the next player's combat phase."""
    seat = s.current
    exposed = s.exposed[seat]
    if any(exposed):
        hand = tuple(a + b for a, b in zip(s.hands[seat], exposed, strict=True))
        known = tuple(a + b for a, b in zip(s.known[seat], exposed, strict=True))
        s.hands = put(s.hands, seat, hand)
        s.known = put(s.known, seat, known)
        s.exposed = put(s.exposed, seat, EMPTY_HAND)
    s.step += 1
    if s.step < s.n:
        start_combat_phase(s)
        return
    end_turn(s)


# --- sequence 6 and the end -------------------------------------------------------------


def province_owner(s, cities):
    first = s.owner[cities[0]]
    if first < 0:
        return -1
    return first if all(s.owner[c] == first for c in cities) else -1


def renaissance_points(s):
    """[rules] 1 RP per province whose every city a player holds, 1 RP per palace with an
    artist."""
    points = [0] * s.n
    for cities in s.geo.province_cities:
        if s.closed[cities[0]]:
            continue
        owner = province_owner(s, cities)
        if owner >= 0:
            points[owner] += 1
    for city, owner in enumerate(s.owner):
        if owner >= 0 and s.artist[city]:
            points[owner] += 1
    return points


def treasury(s):
    """[rules] 1/2/3 ducats per garrison/rampart/fortress; a pillaged city yields nothing."""
    income = [0] * s.n
    for city, owner in enumerate(s.owner):
        if owner >= 0 and not s.pillaged[city]:
            income[owner] += INCOME[s.fort[city]]
    for seat in range(s.n):
        if has_power(s, seat, "venice"):
            # [rules] Venice's power: 2 ducats a turn in sequence 6.
            income[seat] += VENICE_DUCATS
    return income


def end_turn(s):
    """[rules] Sequence 6, then every card is discarded; the game ends after the sixth turn."""
    scored = renaissance_points(s)
    s.points = tuple(p + q for p, q in zip(s.points, scored, strict=True))
    s.sheet = tuple(sheet + (q,) for sheet, q in zip(s.sheet, scored, strict=True))
    income = treasury(s)
    s.ducats = tuple(d + i for d, i in zip(s.ducats, income, strict=True))
    s.pillages += sum(s.pillaged)
    s.pillaged = (0,) * len(s.pillaged)
    s.hands = ((0,) * KINDS,) * s.n
    s.prepaid = (0,) * s.n
    s.offers = ()
    s.known = s.hands
    s.exposed = s.hands
    s.deck = ()
    s.discards = ()
    if s.turn >= TURNS:
        finish(s)
        return
    start_turn(s)


def tie_break_key(s, seat):
    """[rules] Most RP, then most fortresses, then most ramparts, then most ducats."""
    fortresses = sum(1 for c, o in enumerate(s.owner) if o == seat and s.fort[c] == 2)
    ramparts = sum(1 for c, o in enumerate(s.owner) if o == seat and s.fort[c] == 1)
    return (s.points[seat], fortresses, ramparts, s.ducats[seat])


def finish(s):
    """[ruling] R5: seats still tied after the ducats share the victory."""
    keys = [tie_break_key(s, seat) for seat in range(s.n)]
    best = max(keys)
    s.winners = tuple(seat for seat in range(s.n) if keys[seat] == best)
    s.phase, s.current, s.turn = OVER, -1, TURNS + 1
