"""The legal actions of a seat, as JSON-safe dicts (docs/renaissance/engine.md lists them).

Cities are named as on the board, cards by their names in cards.NAMES. Each legal action is
listed once, fully specified.
"""

from itertools import compress
from operator import itemgetter

from .cards import (
    AMBASSADOR,
    ARTIST_BANKER,
    BLUE,
    BLUE_SLOT,
    CONDOTTIERE,
    KIND,
    MARRIAGE,
    NAMES,
    RAIDERS,
    RED_SLOT,
    RETREAT,
    RIDE,
    SIGN_OF_GOD,
)
from .flow import has_power, scenario_rules
from .geography import TWO_SEA_EXPANSIONS
from .piles import available, hand_size
from .setup import start_choices
from .state import (
    ATTACK,
    COMBAT,
    CORRUPT,
    COUNTER,
    DEFEND,
    EXPANSION,
    NEGLECT,
    OVER,
    PURCHASE,
    RETURN,
    SETUP_GARRISON,
    SETUP_PALACE,
    SETUP_RAMPART,
    SETUP_START,
    SIGN,
    TREASON,
    VOTE,
)
from .state import (
    RETREAT as RETREAT_PHASE,
)

# A hand's counts of the blue kinds, as a tuple.
_blue_counts = itemgetter(*BLUE)
HAND_LIMIT = 12
# [rules] Purchases: a card 2 ducats, a palace 3, a rampart 4, a castle 4 (a fortress 4 + 4).
CARD_PRICE, PALACE_PRICE, RAMPART_PRICE, CASTLE_PRICE = 2, 3, 4, 4
PASS = {"type": "pass"}


# The acting seats of the sequential phases, one frozenset per seat, built once.
_ALONE = {seat: frozenset((seat,)) for seat in range(8)}
_NOBODY = frozenset()


def acting_seats(s):
    """The seats that may act now: every seat that has not voted in the vote, else one (cached
    on the state, which never changes once handed out)."""
    seats = s._acting
    if seats is None:
        seats = s._acting = _acting_seats(s)
    return seats


def _acting_seats(s):
    phase = s.phase
    if phase == VOTE:
        return frozenset(seat for seat, vote in enumerate(s.votes) if vote < 0)
    if phase == OVER:
        return _NOBODY
    return _ALONE.get(s.current) or frozenset((s.current,))


def legal_actions(s, seat):
    """The legal action dicts of `seat` now ([] if it may not act)."""
    cache = s._legal
    found = None if cache is None else cache.get(seat)
    if found is None:
        found = cached_legal(s, seat)
    return list(map(dict.copy, found))


def cached_legal(s, seat):
    """The legal actions as cached on the state: the engine's own read-only use (no copies)."""
    cache = s._legal
    if cache is None:
        cache = s._legal = {}
    elif seat in cache:
        return cache[seat]
    if seat not in acting_seats(s):
        return ()
    actions = cache[seat] = GENERATORS[s.phase](s, seat)
    return actions


def _city(s, city):
    return s.geo.cities[city]


def _own(s, seat):
    """The seat's cities in index order (computed once per `owner` tuple, see State)."""
    derived = _owner_derived(s)
    cities = derived.get(seat)
    if cities is None:
        owner = s.owner
        cities = derived[seat] = tuple(compress(range(len(owner)), map(seat.__eq__, owner)))
    return cities


def _owner_derived(s):
    """The values derived from `s.owner` alone (each seat's cities, the free cities), kept
    while `owner` is the same tuple (see State)."""
    owned = s._owned
    if owned is None or owned[0] is not s.owner:
        owned = s._owned = (s.owner, {})
    return owned[1]


def _free_cities(s):
    """Per city: free (nobody's) and accessible (kept with the `closed` tuple it used)."""
    derived = _owner_derived(s)
    found = derived.get("free")
    if found is None or found[0] is not s.closed:
        pairs = zip(s.owner, s.closed, strict=True)
        found = derived["free"] = (s.closed, [owner < 0 and not closed for owner, closed in pairs])
    return found[1]


def _move_table(geo, kind):
    """Per origin city: its (target, action) pairs for the action type `kind` ("attack",
    "expand"), by road only, and by road then (from a port) by landing; built once per board.
    The dicts are shared read-only, like every cached legal list (legal_actions hands out
    copies)."""
    table = geo.memo.get(kind)
    if table is None:
        name = geo.cities

        def options(origin, targets):
            return tuple((c, {"type": kind, "from": name[origin], "to": name[c]}) for c in targets)

        def landings(origin):
            if not geo.port[origin]:
                return ()
            if kind == "attack":
                # [ruling] R10: a landing attack targets another port city (line 373); a sea
                # expansion any coastal city (line 66, [ruling] R8).
                return tuple(c for c in geo.landing[origin] if geo.port[c])
            return geo.landing[origin]

        def roads_and_sea(origin):
            roads = options(origin, geo.neighbours[origin])
            return roads, roads + options(origin, landings(origin))

        table = geo.memo[kind] = tuple(roads_and_sea(origin) for origin in range(len(name)))
    return table


def _city_table(geo, key, make):
    """Per city index: the action dict make(city name), built once per board under `key`;
    shared read-only like the move tables."""
    table = geo.memo.get(key)
    if table is None:
        table = geo.memo[key] = tuple(make(name) for name in geo.cities)
    return table


def _setup_start(s, seat):
    """[ruling] R46: the scenario's "ou" slot: one of the free cities it names."""
    return [{"type": "start", "city": _city(s, c)} for c in start_choices(s, seat)]


def _setup_rampart(s, seat):
    return [{"type": "rampart", "city": _city(s, c)} for c in _own(s, seat)]


def _setup_palace(s, seat):
    """[rules] 1515: a palace on one of the player's garrisons."""
    if not s.palaces:
        return [PASS]
    return [{"type": "palace", "city": _city(s, c)} for c in _own(s, seat) if not s.palace[c]]


def setup_garrison_cities(s, seat):
    """[rules] An unoccupied city linked by road to one of the seat's starting garrisons, or
    (a port owner) another unoccupied port."""
    geo = s.geo
    starts = s.starts[seat]
    cities = {t for c in starts for t in geo.neighbours[c]}
    if any(geo.port[c] for c in starts):
        cities.update(geo.port_cities)
    return sorted(c for c in cities if s.owner[c] < 0 and not s.closed[c])


def _setup_garrison(s, seat):
    actions = [{"type": "garrison", "city": _city(s, c)} for c in setup_garrison_cities(s, seat)]
    return actions + [PASS]


def _return(s, seat):
    return [{"type": "return", "city": _city(s, c)} for c in s.starts[seat] if not s.closed[c]]


def _vote(s, seat):
    if swiss_to_announce(s, seat):
        # [ruling] R59: the Swiss announce their bonus "lors du vote", before their ballot.
        return [dict(action) for action in SWISS_CHOICES]
    return [{"type": "vote", "war": False}, {"type": "vote", "war": True}]


def swiss_to_announce(s, seat):
    """[ruling] R59: the Swiss have not yet announced this turn's bonus (attack or defence)."""
    return has_power(s, seat, "swiss") and not s.power[seat]


SWISS_CHOICES = ({"type": "announce", "bonus": "attack"}, {"type": "announce", "bonus": "defence"})


DONE = {"type": "done"}
BUY_CARDS = tuple({"type": "buy_cards", "count": k} for k in range(1, HAND_LIMIT + 1))


def _build_tables(geo):
    """Per piece, per city: the build action (see _city_table)."""
    return {
        piece: _city_table(
            geo, f"build_{piece}", lambda name, p=piece: {"type": "build", "piece": p, "city": name}
        )
        for piece in ("palace", "rampart", "fortress", "castle")
    }


def _purchase(s, seat):
    if swiss_to_announce(s, seat):
        # [ruling] R59: in a turn without a vote (1515's first), at their first decision.
        return [dict(action) for action in SWISS_CHOICES]
    ducats = s.ducats[seat]
    actions = [DONE]
    if not s.bought[seat]:
        most = min(HAND_LIMIT - hand_size(s, seat), ducats // CARD_PRICE, available(s))
        actions += BUY_CARDS[: max(most, 0)]
    may_palace = s.palaces and ducats >= PALACE_PRICE
    may_rampart = s.ramparts and ducats >= RAMPART_PRICE
    may_fortress = s.castles and ducats >= RAMPART_PRICE + CASTLE_PRICE
    may_castle = s.castles and ducats >= CASTLE_PRICE
    if not (may_palace or may_rampart or may_castle):
        return actions
    build = s.geo.memo.get("build") or s.geo.memo.setdefault("build", _build_tables(s.geo))
    palace, rampart = build["palace"], build["rampart"]
    fortress, castle = build["fortress"], build["castle"]
    has_palace, fort = s.palace, s.fort
    for city in _own(s, seat):
        if may_palace and not has_palace[city]:
            actions.append(palace[city])
        level = fort[city]
        if level == 0 and may_rampart:
            actions.append(rampart[city])
            if may_fortress:
                actions.append(fortress[city])
        if level == 1 and may_castle:
            actions.append(castle[city])
    return actions


def sea_expansions_allowed(s, seat):
    """[rules] Genoa and Venice, and in a scenario the nations it marks, may expand twice by
    sea."""
    twice = scenario_rules(s).get("two_sea_expansions", TWO_SEA_EXPANSIONS)
    return 2 if s.nations[seat] in twice else 1


def _expansion(s, seat):
    """[rules] Expand to a free, accessible city linked by road to one of the seat's cities,
    not from the origin of its first expansion; or once a turn (twice for Genoa and Venice) by
    sea from one of its ports to any free coastal city ([ruling] R8)."""
    actions = []
    if s.reserve[seat] > 0:
        table, free = _move_table(s.geo, "expand"), _free_cities(s)
        by_sea = int(s.sea_used[seat] < sea_expansions_allowed(s, seat))
        barred = s.exp_from[seat]
        options = [table[origin][by_sea] for origin in _own(s, seat) if origin != barred]
        actions = [action for pairs in options for c, action in pairs if free[c]]
    actions.append(PASS)
    return actions


def condottiere_credit(s, seat):
    """How many Condottieri `seat` can pay for: its ducats and the Condottieri it bought from a
    player this turn ([ruling] R44: already paid)."""
    return s.ducats[seat] + s.prepaid[seat]


def free_condottiere(s, seat):
    """[ruling] R55: Milan's free Condottiere card, once a turn (its use costs a ducat)."""
    return has_power(s, seat, "milan") and not s.power[seat]


def can_commit_attack(s, seat):
    """[rules] Attacking needs two blue cards or Condottieri (each Condottiere costs a ducat;
    [ruling] R55 Milan's free one counts as a held one)."""
    hand = s.hands[seat]
    blues = sum(_blue_counts(hand))
    held = hand[CONDOTTIERE] + int(free_condottiere(s, seat))
    return blues + min(held, condottiere_credit(s, seat)) >= 2


def may_attack(s, seat):
    """[rules] One attack in peace, any number in war; [ruling] R12 the attacker needs a
    garrison in reserve to occupy the city."""
    return (s.war or s.attacks == 0) and s.reserve[seat] > 0 and can_commit_attack(s, seat)


def enemy_cities(s, seat):
    """Per city: may `seat` attack it (another seat's, not married to, not attacked yet).
    Read-only: the list may be a cached one."""
    derived = _owner_derived(s)
    others = derived.get(("others", seat))
    if others is None:
        others = [owner >= 0 and owner != seat for owner in s.owner]
        derived["others", seat] = others
    married, targets = s.married, s.targets
    if not married and not targets:
        return others
    if married:
        owners = s.owner
        enemy = [hit and not married >> owners[c] & 1 for c, hit in enumerate(others)]
    else:
        enemy = list(others)
    for city in targets:
        enemy[city] = False
    return enemy


def _attack_actions(s, seat, enemy):
    """[rules] Attack from one of the seat's cities not yet used to attack this turn, an enemy
    city by road or, from a port, another port city by landing ([ruling] R10)."""
    table = _move_table(s.geo, "attack")
    # [ruling] R39: not from a city taken in this combat phase (France's power excepted, R56).
    barred = () if has_power(s, seat, "france") else s.gained
    used = s.used_from
    options = [table[o][1] for o in _own(s, seat) if o not in used and o not in barred]
    return [action for pairs in options for c, action in pairs if enemy[c]]


END_TURN = {"type": "end_turn"}
AMBASSADOR_ACTION = {"type": "ambassador"}


def _combat(s, seat):
    actions = [END_TURN]
    hand = s.hands[seat]
    geo = s.geo
    if may_attack(s, seat):
        enemy = enemy_cities(s, seat)
        actions += _attack_actions(s, seat, enemy)
        if hand[RIDE]:
            ride = _city_table(geo, "ride", lambda name: {"type": "ride", "to": name})
            actions += compress(ride, enemy)
    if hand[RAIDERS] and s.pillages:
        raid = _city_table(geo, "raiders", lambda name: {"type": "raiders", "city": name})
        actions += map(raid.__getitem__, raider_targets(s, seat))
    if has_power(s, seat, "spain") and not s.power[seat] and s.pillages:
        # [ruling] R57: Spain's free Raiders.
        raid = _city_table(
            geo, "raiders_free", lambda name: {"type": "raiders", "city": name, "free": True}
        )
        actions += map(raid.__getitem__, raider_targets(s, seat))
    if has_power(s, seat, "florence") and not s.power[seat]:
        actions += lure_actions(s, seat)
    if hand[AMBASSADOR]:
        actions.append(AMBASSADOR_ACTION)
    if hand[MARRIAGE]:
        marry = _city_table(geo, "marriage", lambda name: {"type": "marriage", "city": name})
        actions += map(marry.__getitem__, marriage_targets(s, seat))
    if hand[ARTIST_BANKER]:
        artist = _city_table(geo, "artist", lambda name: {"type": "artist", "city": name})
        banker = _city_table(geo, "banker", lambda name: {"type": "banker", "city": name})
        for city in _own(s, seat):
            if s.palace[city] and not s.artist[city]:
                actions.append(artist[city])
            if s.palace[city] and city not in s.banked:
                actions.append(banker[city])
    return actions


def lure_actions(s, seat):
    """[ruling] R51: Florence may try once a turn to lure another player's artist into one of
    its palaces without one."""
    name = s.geo.cities
    palaces = [c for c in _own(s, seat) if s.palace[c] and not s.artist[c]]
    artists = [c for c, o in enumerate(s.owner) if o >= 0 and o != seat and s.artist[c]]
    return [{"type": "lure", "from": name[a], "to": name[p]} for a in artists for p in palaces]


def raider_targets(s, seat):
    """[rules] A free or enemy city anywhere, not a fortress ([ruling] R23: accessible, not
    already pillaged)."""
    raidable, by_seat = _raidable(s)
    cities = by_seat.get(seat)
    if cities is None:
        owner = s.owner
        cities = by_seat[seat] = [c for c in raidable if owner[c] != seat]
    return list(cities)


def _raidable(s):
    """The accessible cities neither pillaged nor a fortress, and a dict for each seat's
    targets among them (kept while the `closed`, `pillaged` and `fort` tuples they came from
    are the same)."""
    derived = _owner_derived(s)
    found = derived.get("raidable")
    if (
        found is None
        or found[0] is not s.closed
        or found[1] is not s.pillaged
        or found[2] is not s.fort
    ):
        cities = [
            c
            for c, closed in enumerate(s.closed)
            if not closed and not s.pillaged[c] and s.fort[c] < 2
        ]
        found = derived["raidable"] = (s.closed, s.pillaged, s.fort, cities, {})
    return found[3], found[4]


def marriage_targets(s, seat):
    """[rules] Another player's city with a bare garrison (no palace, rampart or fortress),
    not of a player attacked this turn; 2 ducats."""
    if s.ducats[seat] < 2 or s.reserve[seat] <= 0:
        return []
    return [
        c
        for c, owner in enumerate(s.owner)
        if owner >= 0
        and owner != seat
        and not s.fort[c]
        and not s.palace[c]
        and not s.attacked >> owner & 1
    ]


def _names(kinds):
    return [NAMES[k] for k in kinds]


def _red_options(hand, used, condottieri, ducats):
    options = [None]
    for kind in RED_SLOT:
        affordable = kind != CONDOTTIERE or condottieri + 1 <= ducats
        if hand[kind] - used.count(kind) > 0 and affordable:
            options.append(kind)
    return options


# (blue kinds, red kind or None) -> the commit action, built once (shared read-only).
_COMMIT_ACTIONS = {}


def _commit_action(blue, red):
    action = _COMMIT_ACTIONS.get((blue, red))
    if action is None:
        red_name = None if red is None else NAMES[red]
        action = {"type": "commit", "blue": _names(blue), "red": red_name}
        _COMMIT_ACTIONS[blue, red] = action
    return action


def _commits(blues_options, hand, ducats):
    actions = []
    for blue in blues_options:
        condottieri = blue.count(CONDOTTIERE)
        for red in _red_options(hand, blue, condottieri, ducats):
            actions.append(_commit_action(blue, red))
    return actions


# At most three Condottieri are committed (two blue slots and the red one): more credit than
# that changes no commitment list, which depends only on the hand and the credit so capped.
CREDIT_CAP = 3
# (side, hand, capped credit) -> that commitment list; cleared when it grows past the bound.
_COMMIT_LISTS = {}
COMMIT_LISTS_BOUND = 20000


def _memo_commits(side, make, s, seat):
    hand = s.hands[seat]
    ducats = min(condottiere_credit(s, seat), CREDIT_CAP)
    free = free_condottiere(s, seat)
    key = (side, hand, ducats, free)
    found = _COMMIT_LISTS.get(key)
    if found is None:
        if len(_COMMIT_LISTS) >= COMMIT_LISTS_BOUND:
            _COMMIT_LISTS.clear()
        found = tuple(make(hand, ducats))
        if free:
            found += _free_commits(make, hand, ducats)
        _COMMIT_LISTS[key] = found
    return list(found)


def _free_commits(make, hand, ducats):
    """[ruling] R55: the commitments with Milan's free Condottiere card in one of the Condottiere
    slots, as if it held one more: each marked "free" (the other cards come from the hand)."""
    more = list(hand)
    more[CONDOTTIERE] += 1
    return tuple(
        {**action, "free": True}
        for action in make(tuple(more), ducats)
        if CONDOTTIERE in _kinds(action)
    )


def _kinds(action):
    red = action["red"]
    return [KIND[name] for name in action["blue"]] + ([KIND[red]] if red else [])


def _attack_commit(s, seat):
    return _memo_commits(0, _attack_commits, s, seat)


def _defend_commit(s, seat):
    return _memo_commits(1, _defend_commits, s, seat)


def _attack_commits(hand, ducats):
    """[rules] Two blue cards (Condottieri may stand in) and maybe one red card."""
    held = [k for k in BLUE_SLOT if hand[k]]
    pairs = []
    for i, first in enumerate(held):
        for second in held[i:]:
            if first == second and hand[first] < 2:
                continue
            if (first, second).count(CONDOTTIERE) > ducats:
                continue
            pairs.append((first, second))
    return _commits(pairs, hand, ducats)


def _defend_commits(hand, ducats):
    """[rules] One blue card, compulsory while it holds one (a Condottiere may stand in), and
    maybe one red card; [ruling] R15 a defender that plays no blue card (it has none, and no
    Condottiere stands in) adds "seulement" its fortification, die and bonuses: no red card."""
    singles = [(k,) for k in BLUE if hand[k]]
    if hand[CONDOTTIERE] and ducats >= 1:
        singles.append((CONDOTTIERE,))
    actions = _commits(singles, hand, ducats)
    if not any(_blue_counts(hand)):
        actions.append(_commit_action((), None))
    return actions


def _counter(s, seat):
    kind = s.battle["red"][0]
    actions = [{"type": "counter", "play": False}]
    if s.hands[seat][kind]:
        actions.append({"type": "counter", "play": True})
    return actions


def _treason(s, seat):
    return [{"type": "buy_traitor", "buy": False}, {"type": "buy_traitor", "buy": True}]


def _sign(s, seat):
    b = s.battle
    side = b["asked"]
    actions = [PASS]
    if s.hands[seat][SIGN_OF_GOD]:
        for index, (_, value) in enumerate(b["troops"][side]):
            if value > 0:
                actions.append({"type": "sign_of_god", "target": index})
    return actions


def _retreat(s, seat):
    b = s.battle
    side = b["asked"]
    actions = [PASS]
    blues = [kind for kind, _ in b["troops"][side] if kind in BLUE]
    for kind in b["saved"][side]:
        blues.remove(kind)
    if s.hands[seat][RETREAT]:
        actions += [{"type": "retreat", "card": NAMES[k]} for k in sorted(set(blues))]
    if free_retreat(s, seat):
        actions += [{"type": "retreat", "card": NAMES[k], "free": True} for k in sorted(set(blues))]
    return actions


def free_retreat(s, seat):
    """[ruling] R52: Naples's free Retreat, once a turn."""
    return has_power(s, seat, "naples") and not s.power[seat]


def _corrupt(s, seat):
    """[rules] An opponent's city without palace, not a fortress."""
    if s.reserve[seat] <= 0:
        return [PASS]
    cities = [
        c
        for c, owner in enumerate(s.owner)
        if owner >= 0 and owner != seat and not s.palace[c] and s.fort[c] < 2
    ]
    return [{"type": "corrupt", "city": _city(s, c)} for c in cities] + [PASS]


def _neglect(s, seat):
    """[rules] Any castle or rampart on the board ([ruling] R25: anyone's, or none)."""
    cities = [c for c in range(len(s.owner)) if s.fort[c] > 0]
    return [{"type": "neglect", "city": _city(s, c)} for c in cities] + [PASS]


GENERATORS = {
    SETUP_START: _setup_start,
    SETUP_RAMPART: _setup_rampart,
    SETUP_PALACE: _setup_palace,
    SETUP_GARRISON: _setup_garrison,
    RETURN: _return,
    VOTE: _vote,
    PURCHASE: _purchase,
    EXPANSION: _expansion,
    COMBAT: _combat,
    ATTACK: _attack_commit,
    DEFEND: _defend_commit,
    COUNTER: _counter,
    TREASON: _treason,
    SIGN: _sign,
    RETREAT_PHASE: _retreat,
    CORRUPT: _corrupt,
    NEGLECT: _neglect,
}
