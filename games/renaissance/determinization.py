"""`determinize(view, rng)`: a full state consistent with a view, hidden cards drawn at random.

The unseen cards (80 minus everything the seat sees or knows) go first to the other seats'
face-down battle cards (blue-slot kinds for the blue slots, red-slot kinds for the red one, no
more Condottieri than the seat can pay), then to the other hands on top of their known cards,
then to the deck in random order. The other seats' secret votes are drawn at random; the seed is
new. `view_for(result, seat) == view`.
"""

from .cards import BLUE_SLOT, CONDOTTIERE, DECK, KIND, KINDS, RED_SLOT, counts_of
from .geography import map_for
from .legal import condottiere_credit
from .state import FIELDS, PHASE_NAMES, State, _to_tuples
from .visibility import compile_field_copier

# The deck's count of each kind, for the unseen pool.
DECK_COUNTS = counts_of(DECK)


# The view's public fields back onto a State, each as the engine's tuples (an unlisted field, or
# the offers, through _to_tuples).
_set_public = compile_field_copier(
    "set_public(s, public)",
    "    s.{name} = {value}\n",
    {
        "scalar": "public[{key}]",
        "flat": "tuple(public[{key}])",
        "rows": "tuple(map(tuple, public[{key}]))",
        "per_seat": "_to_tuples(public[{key}])",
        "nested": "_to_tuples(public[{key}])",
    },
    {"_to_tuples": _to_tuples},
)


def _take(pool, allowed, rng):
    choices = [i for i, kind in enumerate(pool) if kind in allowed]
    if not choices:
        raise ValueError("this view is not consistent with the 80-card deck")
    return pool.pop(rng.choice(choices))


def _hidden_commit(pool, side, count, ducats, rng, free=0):
    """[ruling] A hidden commitment: the attacker's 2 blue slots (+ a red one if 3 cards), the
    defender's blue slot (+ a red one if 2 cards); [ruling] R55 Milan's free Condottiere (no
    card of the pool) is put in a blue slot and paid like the others."""
    blues = min(count, (2 if side == 0 else 1) - free)
    reds = count - blues
    kinds = []
    ducats -= free
    for _ in range(blues):
        allowed = BLUE_SLOT if kinds.count(CONDOTTIERE) < ducats else BLUE_SLOT[:-1]
        kinds.append(_take(pool, allowed, rng))
    red = -1
    if reds:
        allowed = RED_SLOT if kinds.count(CONDOTTIERE) < ducats else RED_SLOT[:-1]
        red = _take(pool, allowed, rng)
    return tuple(kinds), red


def determinize(view, rng):
    """A State consistent with `view` (a seat's view, not a spectator's), for search."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("determinize needs a seat's view")
    public = view["public"]
    s = object.__new__(State)
    s.geo, s._acting, s._legal, s._owned = map_for(view["board"]), None, None, None
    _set_public(s, public)
    s.phase = PHASE_NAMES.index(view["phase"])
    s.seed, s.rng = rng.getrandbits(63), 0
    own_hand = counts_of(KIND[name] for name in view["hand"])
    # The unseen pool.
    seen = list(own_hand)
    for kind in list(s.discards) + _public_battle_cards(public["battle"], seat):
        seen[kind] += 1
    for other in range(s.n):
        for kind in range(KINDS):
            seen[kind] += s.exposed[other][kind] + (s.known[other][kind] if other != seat else 0)
    pool = [kind for kind in range(KINDS) for _ in range(DECK_COUNTS[kind] - seen[kind])]
    in_play = public["deck_size"] + len(s.discards) + sum(public["hand_sizes"]) + sum(seen)
    if not in_play:
        pool = []  # between turns every card is back in the box
    rng.shuffle(pool)
    s.battle = _battle(public["battle"], s, pool, rng)
    hands = []
    for other in range(s.n):
        if other == seat:
            hands.append(own_hand)
            continue
        hand = list(s.known[other])
        for _ in range(public["hand_sizes"][other] - sum(hand)):
            hand[pool.pop()] += 1
        hands.append(tuple(hand))
    s.hands = tuple(hands)
    if len(pool) != public["deck_size"]:
        raise ValueError("this view is not consistent with the 80-card deck")
    s.deck = tuple(pool)
    s.votes = tuple(
        (-1 if not voted else (int(view["vote"]) if other == seat else rng.randrange(2)))
        for other, voted in enumerate(public["voted"])
    )
    missing = [name for name in FIELDS if not hasattr(s, name)]
    if missing:
        raise AssertionError(f"determinize left {missing} unset")
    return s


def _public_battle_cards(battle, seat):
    """Battle cards this seat sees (its own face-down ones included)."""
    if battle is None:
        return []
    if battle["revealed"]:
        kinds = [kind for side in (0, 1) for kind, _ in battle["troops"][side]]
        for _ in range(battle.get("virtual", 0)):
            kinds.remove(CONDOTTIERE)  # [ruling] R55: Milan's free one is no card
        return kinds + [c["red"] for c in battle["commits"] if c and c["red"] in _RED_CARDS]
    kinds = []
    for commit in battle["commits"]:
        if commit and "hidden" not in commit:
            kinds += commit["blue"] + ([commit["red"]] if commit["red"] >= 0 else [])
    return kinds


_RED_CARDS = (KIND["engineer"], KIND["traitor"])


def _battle(battle, s, pool, rng):
    if battle is None:
        return None
    b = {key: _to_tuples(value) for key, value in battle.items() if key != "commits"}
    blue, red, committed = [(), ()], [-1, -1], [0, 0]
    for side, commit in enumerate(battle["commits"]):
        if commit is None:
            continue
        committed[side] = 1
        if "hidden" in commit:
            owner = (b["a"], b["d"])[side]
            free = battle.get("free", (0, 0))[side]
            blue[side], red[side] = _hidden_commit(
                pool, side, commit["hidden"], condottiere_credit(s, owner), rng, free
            )
        else:
            blue[side], red[side] = tuple(commit["blue"]), commit["red"]
    b["blue"], b["red"], b["committed"] = tuple(blue), tuple(red), tuple(committed)
    return b
