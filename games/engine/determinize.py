"""`determinize(view, rng)`: a full state consistent with a view, hidden cards drawn at random.

The unseen cards (110 minus everything the seat sees or knows) are dealt to the other hands (on
top of their known cards), the other face-down line cards, the deck, and the rest of the
discard pile (face down, as `dead`). Constraints the view implies are respected: a face-down
card is of a kind played face down, and in the hand-discard step someone other than the viewer
(who cannot see who) is deciding, so that seat's hand holds no Mercenary.
"""

from .board import REGION_INDEX
from .cards import COPIES, FACE_DOWN_KINDS, KIND
from .options import Options
from .piles import set_hand
from .state import DISCARD_HAND, PHASE_NAMES, VICTORY_NAMES, blank_state

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


def _unseen_pool(view, viewer):
    counts = list(COPIES)
    seen = list(view["discards"])
    for player in view["players"]:
        seen.extend(card for card in player["line"] if card != _HIDDEN)
        if player["seat"] != viewer:
            seen.extend(player["known_hand"])
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


def _hidden_decider(view, viewer, rng):
    """[ruling] In the hand-discard step other seats do not see who decides: pick one of the
    seats that could be deciding (cards in hand, none known to be a Mercenary)."""
    if view["phase"] != PHASE_NAMES[DISCARD_HAND] or view["current_player"] is not None:
        return -1
    candidates = [
        p["seat"]
        for p in view["players"]
        if p["seat"] != viewer and p["hand_size"] and not p["known_hand"]
    ]
    return rng.choice(candidates)


def determinize(view, rng):
    """A full GameState consistent with `view`; view_for(result, view["seat"]) == view."""
    viewer = view["seat"]
    players = view["players"]
    n = len(players)
    opts = Options.from_dict(view["options"]).to_bits()
    state = blank_state(n, opts, rng.randrange(1 << 62))
    _public_fields(state, view)
    pool = _unseen_pool(view, viewer)
    # Sorting by iid uniform keys is a uniform shuffle, several times faster than rng.shuffle
    # (one C call per card instead of a Python-level randbelow): bots determinize constantly.
    draw = rng.random
    pool.sort(key=lambda _card: draw())
    decider = _hidden_decider(view, viewer, rng)
    hands = [None] * n
    if decider >= 0:
        state.current = decider
        hands[decider] = _take(pool, players[decider]["hand_size"], frozenset(range(7, 15)))
    lines, fd = [], []
    for player in players:
        seat, line = player["seat"], player["line"]
        down = player["face_down"]
        face_up = [card for index, card in enumerate(line) if index != down]
        lines.append(tuple(_kinds(face_up)))
        if down is None:
            fd.append(-1)
        elif seat == viewer:
            fd.append(KIND[line[down]])
        else:
            fd.append(_take(pool, 1, FACE_DOWN_KINDS)[0])
    state.lines, state.fd = tuple(lines), tuple(fd)
    for player in players:
        seat = player["seat"]
        if seat == viewer:
            hands[seat] = _kinds(view["hand"])
        elif hands[seat] is None:
            known = _kinds(player["known_hand"])
            hands[seat] = known + _take(pool, player["hand_size"] - len(known))
        set_hand(state, seat, hands[seat])
    state.deck = tuple(_take(pool, view["deck_size"]))
    if viewer is not None:
        own = [()] * n
        own[viewer] = tuple(_kinds(view["own_discards"]))
        state.hidden_discards = tuple(own)
    state.dead = tuple(sorted(pool))
    return state
