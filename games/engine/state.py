"""The immutable game state: a `__slots__` object of ints and tuples, cheap to copy.

Transitions clone the state (`clone`) and assign new values only to the fields that change; a
state handed out is never mutated again. `_moves` caches the legal moves and is not content.
"""

import json

from .options import Options

# Phases (ints internally, names in views and JSON).
CHOOSE_REGION, BATTLE, DISCARD_HAND, KEEP, DRAW, FINAL_BATTLE, OVER = range(7)
PHASE_NAMES = ("choose_region", "battle", "discard_hand", "keep", "draw", "final_battle", "over")

# How the game was won (match_points gives +5 for ADJACENT only).
NO_VICTORY, BY_TOTAL, BY_ADJACENCY, BY_MOST_REGIONS, BY_FINAL_BATTLE = range(5)
VICTORY_NAMES = (None, "total", "adjacency", "most_regions", "final_battle")

FIELDS = (
    "n",  # number of players
    "opts",  # option bits (options.py)
    "seed",  # every shuffle uses random.Random(f"{seed}:{shuffles}")
    "shuffles",  # shuffles done so far
    "phase",
    "current",  # seat to act, -1 when nobody
    "hands",  # per seat: tuple of 15 counts, one per card kind
    "sizes",  # per seat: hand size
    "lines",  # per seat: face-up cards in the battle line, in play order (kinds)
    "fd",  # per seat: the face-down card (always the last one of the line), -1 if none
    "deck",  # draw pile, top card first
    "discards",  # face-up discards since the last reshuffle, in order
    "hidden_discards",  # per seat: cards it discarded face down itself since the last reshuffle
    "dead",  # face-down discards nobody saw (stacked set-ups, determinized unknowns)
    "passed",  # bit mask of seats that passed for good in this battle
    "region",  # region being fought over, -1 if none
    "token",  # seat holding the Condottiere token
    "pope",  # region with the Favor of the Pope, -1 when off the board
    "owners",  # per region: seat of its control marker, -1 if none
    "counts",  # per seat: regions controlled
    "known",  # per seat: sorted kinds known to everyone to be in that hand (Scarecrow take-backs)
    "defender",  # Capturing Regions: defender of the region, -1 if none
    "defender_played",  # 1 once the defender played a card in this battle
    "winners",  # tuple of seats
    "victory",  # NO_VICTORY, BY_TOTAL, ...
    "final_players",  # seats in the final battle, () otherwise
    "last_battle",  # (winner or -1, strengths tuple, region) of the last concluded battle, or None
    "shown",  # (owner, viewer, sorted kinds) triples: cards shown to a viewer (show.py); () if none
)
# Fields that a state's JSON may leave out when they hold their default: games stored before the
# field existed still load, and a game with nothing shown keeps the very same JSON as before.
OPTIONAL_FIELDS = {"shown": ()}


def _to_tuples(value):
    if isinstance(value, list):
        return tuple(_to_tuples(item) for item in value)
    return value


class GameState:
    """A complete position, hidden cards included. Never sent to a client or a bot."""

    __slots__ = FIELDS + ("_moves",)

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    def __hash__(self):
        return hash(tuple(getattr(self, name) for name in FIELDS))

    def __repr__(self):
        return f"<GameState {PHASE_NAMES[self.phase]} n={self.n} current={self.current}>"

    @property
    def options(self):
        return Options.from_bits(self.opts)

    def to_json(self):
        """Lossless JSON text of the whole state (secret: for persistence only)."""
        data = {
            name: getattr(self, name)
            for name in FIELDS
            if name not in OPTIONAL_FIELDS or getattr(self, name) != OPTIONAL_FIELDS[name]
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text):
        data = {**OPTIONAL_FIELDS, **json.loads(text)}
        missing = set(FIELDS) - set(data)
        if missing:
            raise ValueError(f"state JSON lacks {sorted(missing)}")
        state = object.__new__(cls)
        for name in FIELDS:
            setattr(state, name, _to_tuples(data[name]))
        state._moves = None
        return state


def _make_clone():
    # Generated straight-line code: copying ~28 slots this way is several times faster than a
    # loop over getattr/setattr, and the clone is on every transition's path.
    body = "".join(f"    new.{name} = state.{name}\n" for name in FIELDS)
    source = f"def clone(state):\n    new = _new(GameState)\n{body}    new._moves = None\n"
    source += "    return new\n"
    namespace = {"_new": object.__new__, "GameState": GameState}
    exec(source, namespace)  # noqa: S102 - fixed, trusted source built from FIELDS
    return namespace["clone"]


clone = _make_clone()
clone.__doc__ = "A shallow copy of `state` whose fields may be reassigned (not mutated in place)."


def blank_state(n, opts, seed):
    """A state with empty hands, lines and board; set-up code fills in the rest."""
    state = object.__new__(GameState)
    empty = tuple(() for _ in range(n))
    state.n = n
    state.opts = opts
    state.seed = seed
    state.shuffles = 0
    state.phase = CHOOSE_REGION
    state.current = -1
    state.hands = tuple((0,) * 15 for _ in range(n))
    state.sizes = (0,) * n
    state.lines = empty
    state.fd = (-1,) * n
    state.deck = ()
    state.discards = ()
    state.hidden_discards = empty
    state.dead = ()
    state.passed = 0
    state.region = -1
    state.token = 0
    state.pope = -1
    state.owners = (-1,) * 17
    state.counts = (0,) * n
    state.known = empty
    state.defender = -1
    state.defender_played = 0
    state.winners = ()
    state.victory = NO_VICTORY
    state.final_players = ()
    state.last_battle = None
    state.shown = ()
    state._moves = None
    return state
