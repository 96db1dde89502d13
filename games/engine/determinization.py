"""`determinize(view, rng)`: a full state consistent with a view, hidden cards drawn at random.

The unseen cards (110 minus everything the seat sees or knows) are dealt to the other hands (on
top of their known cards), the other face-down line cards, the deck, and the rest of the
discard pile (face down, as `dead`). The constraint the view implies is respected: a face-down
card is of a kind played face down. [ruling] The hand-discard step implies nothing about a hand:
every seat with cards is asked (Mercenary or not) and is shown; a seat that declined may hold
Mercenaries or not, and one that discarded (it held none) has an empty hand. [rules] Cards a
seat was shown (show.py) are in that hand, as a Scarecrow's take-back is: the hidden cards are
drawn around them.
"""

from .board import REGION_INDEX
from .cards import CODES, COPIES, FACE_DOWN_KINDS, KIND
from .options import Options
from .piles import set_hand
from .state import PHASE_NAMES, VICTORY_NAMES, blank_state, clone

_HIDDEN = "hidden"


def _kinds(codes):
    return [KIND[code] for code in codes]


def _take(pool, count, allowed=None):
    """Remove and return `count` cards from the shuffled list `pool` (only `allowed` kinds)."""
    if count <= 0:
        return []
    if allowed is None:
        if count > len(pool):
            raise ValueError("this view is not consistent with the 110-card deck")
        taken = pool[-count:]
        del pool[-count:]
        return taken
    taken = []
    index = len(pool) - 1
    while len(taken) < count:
        if index < 0:
            raise ValueError("this view is not consistent with the 110-card deck")
        if pool[index] in allowed:
            taken.append(pool.pop(index))
        index -= 1
    return taken


def _public_fields(state, view):
    players = view["players"]
    state.phase = PHASE_NAMES.index(view["phase"])
    state.token = view["condottiere"]
    state.region = -1 if view["region"] is None else REGION_INDEX[view["region"]]
    state.pope = -1 if view["pope"] is None else REGION_INDEX[view["pope"]]
    owners = [-1] * 17
    for name, seat in view["owners"].items():
        owners[REGION_INDEX[name]] = seat
    state.owners = tuple(owners)
    state.counts = tuple(player["regions"] for player in players)
    state.passed = sum(1 << p["seat"] for p in players if p["passed"])
    state.known = tuple(tuple(sorted(_kinds(p["known_hand"]))) for p in players)
    state.discards = tuple(_kinds(view["discards"]))
    state.defender = -1 if view["defender"] is None else view["defender"]
    state.defender_played = int(view["defender_played"])
    state.winners = tuple(view["winners"])
    state.victory = VICTORY_NAMES.index(view["victory"])
    state.final_players = tuple(view["final_battle_players"])
    last = view["last_battle"]
    if last is not None:
        winner = -1 if last["winner"] is None else last["winner"]
        region = -1 if last["region"] is None else REGION_INDEX[last["region"]]
        state.last_battle = (winner, tuple(last["strengths"]), region)
    state.current = -1 if view["current_player"] is None else view["current_player"]


def _fixed_cards(player):
    """The kinds a hand certainly holds: the multiset union of what everybody knows (a
    Scarecrow's take-back) and what it showed this viewer (either may be the same card)."""
    counts = [0] * 15
    for known in (player["known_hand"], player.get("shown_to_you", ())):
        kinds = _kinds(known)
        for kind in set(kinds):
            counts[kind] = max(counts[kind], kinds.count(kind))
    return [kind for kind in range(15) for _ in range(counts[kind])]


def _shown_entries(view, viewer):
    """`state.shown` as far as the viewer knows it: what others showed it, what it showed."""
    if viewer is None:
        return ()
    entries = [
        (player["seat"], viewer, tuple(sorted(_kinds(player["shown_to_you"]))))
        for player in view["players"]
        if player.get("shown_to_you")
    ]
    entries += [
        (viewer, shown["to"], tuple(sorted(_kinds(shown["cards"]))))
        for shown in view.get("shown_by_you", ())
    ]
    return tuple(sorted(entries))


def _unseen_pool(view, viewer):
    counts = list(COPIES)
    seen = list(view["discards"])
    for player in view["players"]:
        seen.extend(card for card in player["line"] if card != _HIDDEN)
        if player["seat"] != viewer:
            seen.extend(CODES[kind] for kind in _fixed_cards(player))
    if viewer is not None:
        seen.extend(view["hand"])
        seen.extend(view["own_discards"])
    for code in seen:
        counts[KIND[code]] -= 1
    if min(counts) < 0:
        raise ValueError("this view shows more cards than the deck holds")
    pool = []
    for kind, count in enumerate(counts):
        pool.extend((kind,) * count)
    return pool


def _prepare(view):
    """Everything `determinize` needs that does not depend on the random draw."""
    viewer = view["seat"]
    players = view["players"]
    n = len(players)
    template = blank_state(n, Options.from_dict(view["options"]).to_bits(), 0)
    _public_fields(template, view)
    lines, fd, hidden_face_down = [], [], []
    for player in players:
        seat, line, down = player["seat"], player["line"], player["face_down"]
        lines.append(tuple(_kinds(card for index, card in enumerate(line) if index != down)))
        fd.append(KIND[line[down]] if down is not None and seat == viewer else -1)
        if down is not None and seat != viewer:
            hidden_face_down.append(seat)
    template.lines, template.fd = tuple(lines), tuple(fd)
    template.sizes = tuple(player["hand_size"] for player in players)
    others = []
    for player in players:
        seat = player["seat"]
        if seat == viewer:
            set_hand(template, seat, _kinds(view["hand"]))
        else:
            fixed = _fixed_cards(player)
            others.append((seat, fixed, player["hand_size"] - len(fixed)))
    if viewer is not None:
        own = [()] * n
        own[viewer] = tuple(_kinds(view["own_discards"]))
        template.hidden_discards = tuple(own)
    template.shown = _shown_entries(view, viewer)
    pool = _unseen_pool(view, viewer)
    return template, pool, hidden_face_down, others, view["deck_size"]


# Bots determinize the same view many times in a row: keep the last preparation, reused only
# while the very same view object still has the same content. One tuple, read and replaced whole,
# so that threads never see a mixture.
_last = (None, None, None)


def _json_copy(value):
    """A deep copy of JSON-like data (much cheaper than copy.deepcopy)."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


def _prepared(view):
    global _last
    last_view, snapshot, prepared = _last
    if view is last_view and view == snapshot:
        return prepared
    prepared = _prepare(view)
    _last = (view, _json_copy(view), prepared)
    return prepared


def _counts(kinds):
    hand = [0] * 15
    for kind in kinds:
        hand[kind] += 1
    return tuple(hand)


def determinize(view, rng):
    """A full GameState consistent with `view`; view_for(result, view["seat"]) == view."""
    template, base_pool, hidden_face_down, others, deck_size = _prepared(view)
    state = clone(template)
    state.seed = rng.randrange(1 << 62)
    pool = list(base_pool)
    # Sorting by iid uniform keys is a uniform shuffle, several times faster than rng.shuffle
    # (one C call per card instead of a Python-level randbelow): bots determinize constantly.
    draw = rng.random
    pool.sort(key=lambda _card: draw())
    hands = list(template.hands)
    if hidden_face_down:
        fd = list(template.fd)
        for seat in hidden_face_down:
            fd[seat] = _take(pool, 1, FACE_DOWN_KINDS)[0]
        state.fd = tuple(fd)
    for seat, known, unknown in others:
        hands[seat] = _counts(known + _take(pool, unknown))
    state.hands = tuple(hands)
    state.deck = tuple(_take(pool, deck_size))
    state.dead = tuple(sorted(pool))
    return state
