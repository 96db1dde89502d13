"""`view_for(state, seat)`: what one seat may know, as a JSON-safe dict.

Hidden: the other hands (only their sizes, and the cards everyone saw go into them), the deck's
order, the seed, other seats' votes until everybody has voted (the vote then ends at once and
`last_votes` shows them all), face-down battle cards until the reveal (only their number), and
diplomacy offers between two other seats.
"""

from .cards import ENGINEER, NAMES, TRAITOR
from .diplomacy import diplomacy_actions
from .legal import acting_seats, legal_actions
from .state import FIELDS, PHASE_NAMES, YEARS

HIDDEN = "hidden"
# State fields a view never copies as they are.
SECRET_FIELDS = frozenset({"seed", "rng", "hands", "deck", "votes", "battle"})
PUBLIC_FIELDS = tuple(name for name in FIELDS if name not in SECRET_FIELDS)


def _lists(value):
    if isinstance(value, (tuple, list)):
        return [_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: _lists(item) for key, item in value.items()}
    return value


def _names(counts):
    return [NAMES[kind] for kind in range(len(counts)) for _ in range(counts[kind])]


def battle_view(state, seat):
    """The battle with face-down commitments replaced by their number of cards."""
    b = state.battle
    if b is None:
        return None
    view = dict(b)
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
    del view["blue"], view["red"]
    view["commits"] = commits
    return _lists(view)


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
    public = {name: _lists(getattr(state, name)) for name in PUBLIC_FIELDS}
    public["hand_sizes"] = [sum(hand) for hand in state.hands]
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
        "diplomacy_actions": diplomacy_actions(state, seat) if own else [],
        "cities": list(geo.cities),
        "board": geo.key(),
        "known": [_names(counts) for counts in state.known],
        "exposed_cards": [_names(counts) for counts in state.exposed],
        "discard_pile": [NAMES[kind] for kind in state.discards],
        "public": public,
    }
