"""The immutable game state: `__slots__` of ints, tuples and (for a battle) a small dict.

Transitions clone the state (`clone`) and reassign only the fields that change; a state handed
out is never mutated again. Cities and seats are indices (the Map in `geo` names them).
"""

import json

from .geography import map_for

(
    SETUP_START,
    SETUP_RAMPART,
    SETUP_PALACE,
    SETUP_GARRISON,
    RETURN,
    VOTE,
    PURCHASE,
    EXPANSION,
    COMBAT,
    ATTACK,
    DEFEND,
    COUNTER,
    TREASON,
    SIGN,
    RETREAT,
    CORRUPT,
    NEGLECT,
    OVER,
) = range(18)
PHASE_NAMES = (
    "setup_start",
    "setup_rampart",
    "setup_palace",
    "setup_garrison",
    "return",
    "vote",
    "purchase",
    "expansion",
    "combat",
    "attack",
    "defend",
    "counter",
    "treason",
    "sign_of_god",
    "retreat",
    "corrupt",
    "neglect",
    "over",
)
BATTLE_PHASES = frozenset({ATTACK, DEFEND, COUNTER, TREASON, SIGN, RETREAT})
YEARS = (1454, 1462, 1470, 1478, 1486, 1494)
TURNS = len(YEARS)

FIELDS = (
    "n",  # number of players
    "seed",  # every random draw uses random.Random(f"{seed}:{rng}")
    "rng",  # random draws made so far (shuffles and dice)
    "options",  # sorted (key, value) pairs, JSON-safe values
    "nations",  # per seat: nation key
    "closed",  # per city: 1 if its province is inaccessible at this player count
    "starts",  # per seat: its starting cities (for a return after disappearing)
    "turn",  # 1..6 (0 during set-up), 7 when over
    "phase",
    "current",  # the seat that acts, -1 in the vote (several) or when over
    "order",  # seats in turn order
    "step",  # index in `order` of the seat whose go it is (sequential phases)
    "war",  # 1 in a turn of war
    "votes",  # per seat: -1 not voted, 0 peace, 1 war (secret until all voted)
    "last_votes",  # the last revealed vote, per seat (() before any)
    "ducats",  # per seat
    "hands",  # per seat: 15 counts
    "known",  # per seat: 15 counts of cards everyone knows are in that hand
    "exposed",  # per seat: 15 counts, a winning attacker's blue cards lying face up
    "deck",  # draw pile, top card first
    "discards",  # face-up discards of this turn, in order
    "owner",  # per city: seat, -1 free
    "fort",  # per city: 0 garrison only, 1 rampart, 2 fortress
    "palace",  # per city: 0/1
    "artist",  # per city: 0/1 (an artist in its palace)
    "pillaged",  # per city: 0/1 (a pillage marker)
    "reserve",  # per seat: garrisons not on the board (21 in all)
    "ramparts",  # rampart figures in the box (20 in all)
    "castles",  # castle figures in the box (10)
    "palaces",  # palace figures in the box (10)
    "pillages",  # pillage markers in the box (10)
    "artists",  # artist tokens in the reserve, Savonarola aside (11 at first)
    "points",  # per seat: Renaissance Points so far
    "sheet",  # per seat: points scored each turn
    "bought",  # per seat: 1 once it bought cards this turn
    "expansions",  # expansions made this turn, per seat (0..2)
    "exp_from",  # per seat: the city its first expansion came from, -1
    "sea_used",  # per seat: sea expansions made this turn
    "attacks",  # attacks made by the current player in its combat phase
    "used_from",  # cities the current player attacked from this turn
    "targets",  # cities the current player attacked this turn
    "attacked",  # bit mask of seats the current player attacked this turn
    "married",  # bit mask of seats the current player married this turn
    "banked",  # palace cities whose banker was used this turn
    "exchanged",  # cities exchanged this turn
    "offers",  # pending diplomacy offers (kind, from, to, give, take), sorted
    "prepaid",  # per seat: Condottieri bought from a player this turn, whose use is paid
    "gained",  # cities the current player took during its combat phase ([ruling] R39)
    "power",  # per seat: this turn's use of its nation's power (0 unused; Swiss 1/2)
    "scenario",  # "" (the 1454 game) or "1494" / "1499" / "1515"
    "battle",  # the battle being fought (dict), or None
    "winners",  # winning seats once over
)


def _to_tuples(value):
    if isinstance(value, list):
        return tuple(_to_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _to_tuples(item) for key, item in value.items()}
    return value


class State:
    """A complete position, hidden cards included. Never sent to a client or a bot."""

    # Caches of derived values (never part of the game): `_acting` the acting seats and
    # `_legal` the legal lists by seat, computed at most once per state; `_owned` (the `owner`
    # tuple, a dict of values derived from it: each seat's cities...), kept by clones and
    # valid while `owner` is that same tuple (legal.py's _owner_derived).
    __slots__ = FIELDS + ("geo", "_acting", "_legal", "_owned")
    __hash__ = None

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.geo.key() == other.geo.key() and all(
            getattr(self, name) == getattr(other, name) for name in FIELDS
        )

    def __repr__(self):
        return f"<Renaissance {PHASE_NAMES[self.phase]} turn={self.turn} current={self.current}>"

    @property
    def option(self):
        return dict(self.options)

    def to_json(self):
        """Lossless JSON text of the whole state (secret: for persistence only)."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["board"] = self.geo.key()
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text):
        data = json.loads(text)
        missing = set(FIELDS) - set(data)
        if missing:
            raise ValueError(f"state JSON lacks {sorted(missing)}")
        state = object.__new__(cls)
        for name in FIELDS:
            setattr(state, name, _to_tuples(data[name]))
        state.geo = map_for(data.get("board"))
        state._acting = state._legal = state._owned = None
        return state


def _make_clone():
    # Straight-line slot copies: several times faster than a getattr/setattr loop.
    body = "".join(f"    new.{name} = state.{name}\n" for name in FIELDS)
    source = f"def clone(state):\n    new = _new(State)\n{body}"
    source += "    new.geo = state.geo\n    new._owned = state._owned\n"
    source += "    new._acting = new._legal = None\n    return new\n"
    namespace = {"_new": object.__new__, "State": State}
    exec(source, namespace)  # noqa: S102 - fixed, trusted source built from FIELDS
    return namespace["clone"]


clone = _make_clone()
clone.__doc__ = "A shallow copy of `state` whose fields may be reassigned (never mutated)."


def put(values, index, value):
    """`values` (a tuple) with `values[index] = value`."""
    # Through a list: quicker than concatenating slices.
    items = list(values)
    items[index] = value
    return tuple(items)
