"""The engine's fast paths change nothing a seat or a search sees.

`view_for` copies the state's fields by their known shapes and reuses the card names and
diplomacy lists it has built before; it must give exactly the view of the plain implementation
kept below (the one every field walked through `_lists`), for every seat and a spectator, key
order and list types included. `apply_trusted` skips `apply_action`'s check; on the legal
actions of whole random games it must give the same states. `determinize` copies the view's
fields back by the same shapes.
"""

import json
import random

import pytest

from games.renaissance import (
    State,
    acting_seats,
    all_diplomacy,
    apply_action,
    apply_trusted,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
)
from games.renaissance.cards import NAMES
from games.renaissance.diplomacy import EXCHANGE, belligerent, diplomacy_actions, in_game
from games.renaissance.state import PHASE_NAMES, YEARS
from games.renaissance.visibility import (
    BATTLE_FLAT,
    BATTLE_SCALARS,
    FLAT_FIELDS,
    PUBLIC_FIELDS,
    ROWS_FIELDS,
    SCALAR_FIELDS,
    battle_view,
)
from tests.renaissance.conftest import TINY

# (players, options, share of diplomacy actions, board): the real board at 3 and 6 players,
# with powers and offers, a scenario, and the tiny board.
GAMES = [
    (3, None, 0.0, None),
    (6, {"powers": True}, 0.15, None),
    (5, {"scenario": "1499", "powers": True}, 0.1, None),
    (4, {"remove": "milan"}, 0.2, TINY),
]


# The view as built before the fast paths (games/renaissance/visibility.py until 2026-11-29):
# every public field walked through _lists, names spelled kind by kind. Its diplomacy list is
# diplomacy_actions' own without the gifts and exchange offers (a rules change there is no
# change of the view's building), and its forms are built city by city below; the gifts and
# exchange offers diplomacy.py keeps are compared with their plain building below.
def _plain_lists(value):
    if isinstance(value, (tuple, list)):
        return [_plain_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain_lists(item) for key, item in value.items()}
    return value


def _plain_names(counts):
    return [NAMES[kind] for kind in range(len(counts)) for _ in range(counts[kind])]


def plain_view_for(state, seat):
    public = {name: _plain_lists(getattr(state, name)) for name in PUBLIC_FIELDS}
    public["hand_sizes"] = [sum(hand) for hand in state.hands]
    public["deck_size"] = len(state.deck)
    public["voted"] = [vote >= 0 for vote in state.votes]
    public["battle"] = _plain_battle_view(state, seat)
    public["offers"] = [list(o) for o in state.offers if seat is not None and seat in o[1:3]]
    own = seat is not None
    return {
        "game": "renaissance",
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "year": YEARS[min(max(state.turn, 1), len(YEARS)) - 1],
        "acting_seats": sorted(acting_seats(state)),
        "hand": _plain_names(state.hands[seat]) if own else None,
        "vote": (None if state.votes[seat] < 0 else bool(state.votes[seat])) if own else None,
        "legal_actions": legal_actions(state, seat) if own else [],
        "diplomacy_actions": [
            a for a in (diplomacy_actions(state, seat) if own else []) if a["type"] not in FORMS
        ],
        "diplomacy_forms": _plain_forms(state, seat),
        "cities": list(state.geo.cities),
        "board": state.geo.key(),
        "known": [_plain_names(counts) for counts in state.known],
        "exposed_cards": [_plain_names(counts) for counts in state.exposed],
        "discard_pile": [NAMES[kind] for kind in state.discards],
        "public": public,
    }


FORMS = ("give_ducats", "offer_exchange")


def _plain_forms(s, seat):
    """The gifts a seat may make, and its exchange offers by seat and fortification level."""
    forms = {"give_ducats": None, "offer_exchange": []}
    if seat is None or not in_game(s):
        return forms
    if not belligerent(s, seat) and s.ducats[seat] > 0:
        forms["give_ducats"] = {"to": [o for o in range(s.n) if o != seat], "most": s.ducats[seat]}
    if s.battle is not None:
        return forms
    names = s.geo.cities

    def held(owner, level):
        return [
            names[c]
            for c in range(len(names))
            if s.owner[c] == owner and s.fort[c] == level and c not in s.exchanged
        ]

    for other in range(s.n):
        if other == seat:
            continue
        for level in sorted(set(s.fort)):
            give, take = held(seat, level), held(other, level)
            if give and take:
                forms["offer_exchange"].append({"to": other, "give": give, "take": take})
    return forms


def _plain_battle_view(state, seat):
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
    return _plain_lists(view)


def _plain_gifts(s, seat):
    """The gifts of ducats as diplomacy_actions built them before its lists were kept."""
    return [
        {"type": "give_ducats", "to": other, "amount": amount}
        for other in range(s.n)
        if other != seat
        for amount in range(1, s.ducats[seat] + 1)
    ]


def _plain_exchange_offers(s, seat):
    names = s.geo.cities
    pending = {(o[2], o[3], o[4]) for o in s.offers if o[0] == EXCHANGE and o[1] == seat}
    mine = [c for c, o in enumerate(s.owner) if o == seat and c not in s.exchanged]
    actions = []
    for other in range(s.n):
        if other == seat:
            continue
        theirs = [c for c, o in enumerate(s.owner) if o == other and c not in s.exchanged]
        for a in mine:
            for b in theirs:
                if s.fort[a] == s.fort[b] and (other, a, b) not in pending:
                    actions.append(
                        {"type": "offer_exchange", "to": other, "give": names[a], "take": names[b]}
                    )
    return actions


def _random_moves(players, options, share, board, seed):
    """(state, seat, action, the state after it) for every move of a random game, diplomacy
    actions mixed in at the given share."""
    rng = random.Random(seed)
    state = new_game(players, seed, dict(options) if options else None, board=board)
    while not is_terminal(state):
        seat = rng.choice(sorted(acting_seats(state)))
        actions = legal_actions(state, seat)
        if share and rng.random() < share:
            other = rng.randrange(players)
            offered = diplomacy_actions(state, other)
            if offered:
                seat, actions = other, offered
        action = rng.choice(actions)
        after = apply_action(state, seat, action)
        yield state, seat, action, after
        state = after


def _random_states(players, options, share, board, seed):
    """Every state of a random game (diplomacy actions mixed in at the given share)."""
    moves = list(_random_moves(players, options, share, board, seed))
    return [moves[0][0]] + [after for *_, after in moves]


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_diplomacy_lists_are_exactly_the_plain_ones(case):
    """Kept gift and exchange lists are handed out as they were built, and as copies."""
    for state in _random_states(*case, seed=5)[::2]:
        if not 1 <= state.turn <= 6 or is_terminal(state):
            continue
        for seat in range(state.n):
            found = diplomacy_actions(state, seat)
            gifts = [a for a in found if a["type"] == "give_ducats"]
            exchanges = [a for a in found if a["type"] == "offer_exchange"]
            assert gifts in ([], _plain_gifts(state, seat))
            plain = _plain_exchange_offers(state, seat) if state.battle is None else []
            assert exchanges == plain
            if found:
                found[0]["type"] = "changed"
                assert diplomacy_actions(state, seat)[0]["type"] != "changed"


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_a_views_forms_expand_to_exactly_the_seats_diplomacy(case):
    """The view lists the answers and sales and describes the gifts and exchanges: expanded,
    they are diplomacy_actions' list, action for action and in its order, pending offers left
    out (the states of these games hold offers waiting, made by the random diplomacy)."""
    pending_seen = 0
    for state in _random_states(*case, seed=9)[::2]:
        for seat in range(state.n):
            assert all_diplomacy(view_for(state, seat)) == diplomacy_actions(state, seat)
            pending_seen += any(o[0] == EXCHANGE and o[1] == seat for o in state.offers)
    if case[2]:
        assert pending_seen


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_views_are_exactly_the_plain_implementations(case):
    """[ruling] R28: the fast view shows what the plain one showed, nothing more or less."""
    for state in _random_states(*case, seed=7)[::3]:
        for seat in [*range(state.n), None]:
            fast, plain = view_for(state, seat), plain_view_for(state, seat)
            assert fast == plain
            # Key order and JSON text too (frames send this text).
            assert json.dumps(fast) == json.dumps(plain)


def test_views_never_share_a_list_between_two_calls():
    """A caller may change its view: the next view of the same state is untouched."""
    state = next(
        state
        for state in _random_states(6, {"powers": True}, 0.1, None, seed=3)[300:]
        if all(view_for(state, 0)["diplomacy_forms"].values())
    )
    first = view_for(state, 0)
    first["public"]["owner"][0] = "changed"
    first["known"][0].append("changed")
    if first["diplomacy_actions"]:
        first["diplomacy_actions"][0]["type"] = "changed"
    for form in first["diplomacy_forms"]["offer_exchange"]:
        form["give"].append("changed")
    if first["diplomacy_forms"]["give_ducats"]:
        first["diplomacy_forms"]["give_ducats"]["to"].append("changed")
    first["hand"].append("changed")
    assert view_for(state, 0) == plain_view_for(state, 0)


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_public_fields_have_the_shapes_the_fast_copy_assumes(case):
    """state.py's field comments: numbers, tuples of numbers (or names), rows of numbers."""
    scalar = (int, str)
    for state in _random_states(*case, seed=11):
        for name in SCALAR_FIELDS:
            assert isinstance(getattr(state, name), scalar), name
        for name in FLAT_FIELDS:
            value = getattr(state, name)
            assert isinstance(value, tuple) and all(isinstance(v, scalar) for v in value), name
        for name in ROWS_FIELDS:
            for row in getattr(state, name):
                assert isinstance(row, tuple) and all(isinstance(v, int) for v in row), name
        if state.battle is not None:
            assert_battle_shapes(state.battle)
        assert battle_view(state, 0) == _plain_battle_view(state, 0)


def assert_battle_shapes(battle):
    """battle.py's dict: numbers, pairs of numbers, each side's troops as (kind, value) pairs
    and its saved cards as kinds."""
    for key, value in battle.items():
        if key in BATTLE_SCALARS:
            assert isinstance(value, int), key
        elif key in BATTLE_FLAT:
            assert isinstance(value, tuple) and all(isinstance(v, int) for v in value), key
        elif key == "troops":
            for side in value:
                assert all(isinstance(troop, tuple) and len(troop) == 2 for troop in side)
                assert all(isinstance(v, int) for troop in side for v in troop)
        elif key == "saved":
            assert all(isinstance(side, tuple) for side in value)
            assert all(isinstance(v, int) for side in value for v in side)


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_apply_trusted_gives_apply_actions_states_on_whole_random_games(case):
    """Legal moves and diplomacy actions, applied both ways, give equal states all along."""
    for seed in (1, 2):
        for state, seat, action, after in _random_moves(*case, seed):
            trusted = apply_trusted(state, seat, action)
            assert trusted == after
            assert trusted.to_json() == after.to_json()
            assert acting_seats(trusted) == acting_seats(after)
            for actor in acting_seats(after):
                assert legal_actions(trusted, actor) == legal_actions(after, actor)


@pytest.mark.parametrize("case", GAMES, ids=["3p", "6p-powers-offers", "1499", "tiny"])
def test_determinized_states_are_states_of_tuples_showing_the_same_view(case):
    """determinize copies the public fields by shape: the state it gives is made of tuples as
    any state is (its JSON round trip is equal to it) and shows the view it was made from."""
    rng = random.Random(9)
    # Seed 13 on the tiny board met an attacker that had sold its Condottiere before
    # committing and had no legal action left ([ruling] R44 now forbids that sale).
    states = [s for seed in (13, 17) for s in _random_states(*case, seed=seed)[::7]]
    for state in states:
        if state.turn < 1 or is_terminal(state):
            continue
        seat = rng.randrange(state.n)
        view = view_for(state, seat)
        guess = determinize(view, rng)
        assert State.from_json(guess.to_json()) == guess
        for name in PUBLIC_FIELDS:
            if name != "offers":
                assert getattr(guess, name) == getattr(state, name), name
        assert view_for(guess, seat) == view
