"""`view_for(state, seat)`: what one seat may know, as a JSON-safe dict.

Hidden: the other hands (only their sizes, and the cards everyone saw go into them), the deck's
order, the seed, other seats' votes until everybody has voted (the vote then ends at once and
`last_votes` shows them all), face-down battle cards until the reveal (only their number), and
diplomacy offers between two other seats.
"""

from itertools import chain, repeat

from .cards import ENGINEER, NAMES, TRAITOR
from .diplomacy import diplomacy_forms, forms_actions, listed_diplomacy, no_forms
from .legal import acting_seats, legal_actions
from .state import FIELDS, PHASE_NAMES, YEARS

HIDDEN = "hidden"
# State fields a view never copies as they are.
SECRET_FIELDS = frozenset({"seed", "rng", "hands", "deck", "votes", "battle"})
PUBLIC_FIELDS = tuple(name for name in FIELDS if name not in SECRET_FIELDS)


# Values a view holds as they are: a tuple or list of these alone becomes a list in one C call.
_SCALARS = frozenset({int, bool, str, float, type(None)})


def _lists(value):
    """`value` with every tuple and list, at any depth, a new list (dicts copied): JSON's shape."""
    # Tested by class first (the state's own shapes); isinstance only for anything else.
    cls = value.__class__
    if cls is tuple or cls is list:
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [_lists(item) for item in value]
    if cls is dict:
        return {key: _lists(item) for key, item in value.items()}
    if cls in _SCALARS:
        return value
    if isinstance(value, (tuple, list)):
        return [_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: _lists(item) for key, item in value.items()}
    return value


# The public fields by shape (state.py's FIELDS comments), so that the view copies each in one
# step instead of walking every number; tests/renaissance/test_engine_fast_paths.py checks these
# shapes over random games. A field in none of these sets (a new one) takes the general `_lists`.
SCALAR_FIELDS = frozenset(
    {"n", "turn", "phase", "current", "step", "war", "ramparts", "castles", "palaces"}
    | {"pillages", "artists", "attacks", "attacked", "married", "scenario"}
)
FLAT_FIELDS = frozenset(
    {"nations", "closed", "order", "last_votes", "ducats", "discards", "owner", "fort"}
    | {"palace", "artist", "pillaged", "reserve", "points", "bought", "expansions", "exp_from"}
    | {"sea_used", "used_from", "targets", "banked", "exchanged", "prepaid", "gained", "power"}
    | {"winners"}
)
ROWS_FIELDS = frozenset({"starts", "known", "exposed", "sheet"})
# Replaced per seat by view_for ([ruling] R45).
PER_SEAT_FIELDS = frozenset({"offers"})


def field_shape(name):
    """The shape of a public field: "scalar", "flat", "rows", "per_seat" or "nested"."""
    if name in SCALAR_FIELDS:
        return "scalar"
    if name in FLAT_FIELDS:
        return "flat"
    if name in ROWS_FIELDS:
        return "rows"
    if name in PER_SEAT_FIELDS:
        return "per_seat"
    return "nested"


def compile_field_copier(signature, statement, conversions, helpers, opening="", closing=""):
    """Compile `def <signature>:`, straight-line code over every public field in PUBLIC_FIELDS'
    order (the order the view's JSON keeps): `opening`, then `statement` once per field, then
    `closing`. In `statement` and in `conversions[shape]` (the field's value converted by its
    shape), `{name}` is the field's name and `{key}` its quoted name; `{value}` in `statement`
    is the converted value. `helpers`: the names the conversions call.

    Converting each field by its known shape in one step is several times quicker than walking
    every number (`_lists` here, `_to_tuples` in determinization.py); both the view and
    determinize build their copier this way."""
    lines = []
    for name in PUBLIC_FIELDS:
        names = {"name": name, "key": repr(name)}
        value = conversions[field_shape(name)].format(**names)
        lines.append(statement.format(value=value, **names))
    source = f"def {signature}:\n{opening}{''.join(lines)}{closing}"
    namespace = dict(helpers)
    exec(source, namespace)  # noqa: S102 - fixed, trusted source built from PUBLIC_FIELDS
    return namespace[signature.partition("(")[0]]


# The view's copy: one dict display, each field a new JSON-shaped list.
public_copy = compile_field_copier(
    "public_copy(s)",
    "        {key}: {value},\n",
    {
        "scalar": "s.{name}",
        "flat": "list(s.{name})",
        "rows": "list(map(list, s.{name}))",
        "per_seat": "None",
        "nested": "_lists(s.{name})",
    },
    {"_lists": _lists},
    opening="    return {\n",
    closing="    }\n",
)
public_copy.__doc__ = "The state's public fields as JSON-shaped lists (offers left None)."

# Card names by hand counts: most counts met are few and repeat (the known and exposed cards
# are mostly none), so each is spelled once; bounded in case of a very long run.
_NAMES_OF = {}
_NAMES_KEPT = 4096


def _names(counts):
    """The card names of a hand's counts, by kind."""
    if counts.__class__ is not tuple:
        return list(chain.from_iterable(map(repeat, NAMES, counts)))
    names = _NAMES_OF.get(counts)
    if names is None:
        if len(_NAMES_OF) >= _NAMES_KEPT:
            _NAMES_OF.clear()
        names = _NAMES_OF[counts] = tuple(chain.from_iterable(map(repeat, NAMES, counts)))
    return list(names)


# The battle's fields by shape (battle.py's dict), so that its view copies each in one step; a
# key in neither set (a new one) takes the general `_lists`. `blue` and `red` are replaced by
# `commits`.
BATTLE_SCALARS = frozenset(
    {"a", "d", "from", "to", "sea", "ride", "revealed", "countered", "fort", "bonus"}
    | {"engineer", "lost", "asked", "virtual"}
)
BATTLE_FLAT = frozenset({"committed", "dice", "pending", "signs", "totals", "free"})
BATTLE_FACE_DOWN = frozenset({"blue", "red"})


def _battle_fields(b):
    """The battle's public fields, JSON-shaped, in the battle's own key order."""
    view = {}
    for key, value in b.items():
        if key in BATTLE_SCALARS:
            view[key] = value
        elif key in BATTLE_FLAT:
            view[key] = list(value)
        elif key == "troops":
            view[key] = [[list(troop) for troop in side] for side in value]
        elif key == "saved":
            view[key] = [list(side) for side in value]
        elif key not in BATTLE_FACE_DOWN:
            view[key] = _lists(value)
    return view


def battle_view(state, seat):
    """The battle with face-down commitments replaced by their number of cards."""
    b = state.battle
    if b is None:
        return None
    view = _battle_fields(b)
    commits = []
    for side, owner in enumerate((b["a"], b["d"])):
        if not b["committed"][side]:
            commits.append(None)
            continue
        count = len(b["blue"][side]) + (b["red"][side] >= 0)
        if b["revealed"] or owner == seat:
            commits.append({"blue": list(b["blue"][side]), "red": b["red"][side], "count": count})
        else:
            commits.append({"hidden": count, "count": count})
    view["commits"] = commits
    return view


def battle_cards(b):
    """The kinds lying in the battle (committed, or after the reveal the troops and the red
    Engineer/Traitor cards not yet discarded)."""
    if b is None:
        return []
    if not b["revealed"]:
        return [
            k
            for side in (0, 1)
            for k in b["blue"][side] + ((b["red"][side],) if b["red"][side] >= 0 else ())
        ]
    kinds = [kind for side in (0, 1) for kind, _ in b["troops"][side]]
    return kinds + [kind for kind in b["red"] if kind in (ENGINEER, TRAITOR)]


def view_for(state, seat):
    """[ruling] R28 Everything `seat` may know (None: a spectator), nothing that would reveal
    another hand, a face-down card, a vote before all have voted, or the deck's order."""
    if seat is not None and (isinstance(seat, bool) or seat not in range(state.n)):
        raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
    public = public_copy(state)
    public["hand_sizes"] = list(map(sum, state.hands))
    public["deck_size"] = len(state.deck)
    public["voted"] = [vote >= 0 for vote in state.votes]
    public["battle"] = battle_view(state, seat)
    # [ruling] R45: an offer is seen by its two parties only.
    public["offers"] = [list(o) for o in state.offers if seat is not None and seat in o[1:3]]
    geo = state.geo
    own = seat is not None
    return {
        "game": "renaissance",
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "year": YEARS[min(max(state.turn, 1), len(YEARS)) - 1],
        "acting_seats": sorted(acting_seats(state)),
        "hand": _names(state.hands[seat]) if own else None,
        "vote": (None if state.votes[seat] < 0 else bool(state.votes[seat])) if own else None,
        "legal_actions": legal_actions(state, seat) if own else [],
        "diplomacy_actions": listed_diplomacy(state, seat) if own else [],
        "diplomacy_forms": diplomacy_forms(state, seat) if own else no_forms(),
        "cities": list(geo.cities),
        "board": geo.key(),
        "known": [_names(counts) for counts in state.known],
        "exposed_cards": [_names(counts) for counts in state.exposed],
        "discard_pile": [NAMES[kind] for kind in state.discards],
        "public": public,
    }


def all_diplomacy(view):
    """Every diplomacy action the view's seat may take, as `diplomacy_actions(state, seat)`
    lists them (same actions, same order): the view's listed ones with its `diplomacy_forms`
    expanded."""
    listed = view["diplomacy_actions"]
    if view["seat"] is None:
        return []
    gifts, exchanges = forms_actions(
        view["diplomacy_forms"], view["public"]["offers"], view["seat"], view["cities"]
    )
    sales = [action for action in listed if action["type"] == "offer_condottiere"]
    answers = [action for action in listed if action["type"] != "offer_condottiere"]
    return answers + gifts + sales + exchanges
