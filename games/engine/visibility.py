"""What one seat may know: `view_for(state, seat)`, a JSON-safe dict (see the contract's Views)."""

from functools import lru_cache

from .aftermath import targets
from .api import legal_actions
from .board import REGIONS, largest_group_mask, owned_mask
from .cards import CODES, line_strengths
from .options import Options
from .piles import discard_pile_size, expand
from .shown import shown_by, shown_to
from .state import BATTLE, FINAL_BATTLE, PHASE_NAMES, VICTORY_NAMES

HIDDEN = "hidden"
# The engine keeps its mask of passed seats until the next battle starts; between battles it is
# stale (protocol: "passed for good in this battle"), so outside a battle nobody shows as passed.
BATTLE_PHASES = (BATTLE, FINAL_BATTLE)


def _codes(kinds):
    return [CODES[kind] for kind in kinds]


def _player(state, seat, viewer, announced, shown):
    in_battle = state.phase in BATTLE_PHASES
    line = _codes(state.lines[seat])
    face_down = None
    if state.fd[seat] >= 0:
        face_down = len(line)
        line.append(CODES[state.fd[seat]] if seat == viewer else HIDDEN)
    return {
        "seat": seat,
        "hand_size": state.sizes[seat],
        "line": line,
        "face_down": face_down,
        "passed": in_battle and bool(state.passed >> seat & 1),
        "strength": announced[seat],
        "regions": state.counts[seat],
        "known_hand": _codes(state.known[seat]),
        "shown_to_you": _codes(shown.get(seat, ())),
        "chain": _chain(state, seat),
    }


def _shown_by_you(state, seat):
    """The cards this seat has shown that are still known to be in its hand, per viewer."""
    if not state.shown:
        return []
    shown = shown_by(state, seat)
    return [{"to": viewer, "cards": _codes(kinds)} for viewer, kinds in shown.items()]


def _chain(state, seat):
    """The seat's largest group of adjacent regions, in board order (public: markers are)."""
    return list(_chain_names(state.owners, seat))


# Memoised: bots build views inside their searches, where the same boards recur all the time.
@lru_cache(maxsize=1 << 14)
def _chain_names(owners, seat):
    group = largest_group_mask(owned_mask(owners, seat))
    return tuple(name for index, name in enumerate(REGIONS) if group >> index & 1)


def _targets(state):
    total, adjacent = targets(state)
    return {"regions": total, "adjacent": adjacent}


def _last_battle(state):
    if state.last_battle is None:
        return None
    winner, strengths, region = state.last_battle
    return {
        "winner": None if winner < 0 else winner,
        "strengths": list(strengths),
        "region": None if region < 0 else REGIONS[region],
    }


@lru_cache(maxsize=64)
def _options_dict(bits):
    # dataclasses.asdict is slow and views are built per decision inside searches; callers get
    # a copy, since a view is theirs to change.
    return Options.from_bits(bits).to_dict()


def view_for(state, seat):
    """[ruling] Everything `seat` may know (None: a spectator) and nothing that would reveal
    another hand, a face-down card or the deck order. Whoever acts is public, in every phase:
    [ruling] in the hand-discard step every seat with cards is asked, so who is asked reveals
    nothing about a hand. [rules] Hidden Cards: the announced strength counts face-up cards only.
    [rules] Shown cards (show.py): each player's `shown_to_you` lists what it showed this seat
    (still in its hand); `shown_by_you`, what this seat showed, per viewer."""
    if seat is not None and (isinstance(seat, bool) or seat not in range(state.n)):
        raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
    announced = line_strengths(state.lines)
    shown = shown_to(state, seat) if seat is not None and state.shown else {}
    current = None if state.current < 0 else state.current
    view = {
        "phase": PHASE_NAMES[state.phase],
        "current_player": current,
        "seat": seat,
        "hand": None if seat is None else _codes(expand(state.hands[seat])),
        "players": [_player(state, other, seat, announced, shown) for other in range(state.n)],
        "region": None if state.region < 0 else REGIONS[state.region],
        "condottiere": state.token,
        "pope": None if state.pope < 0 else REGIONS[state.pope],
        "owners": {REGIONS[r]: owner for r, owner in enumerate(state.owners) if owner >= 0},
        "deck_size": len(state.deck),
        "discard_pile_size": discard_pile_size(state),
        "discards": _codes(state.discards),
        "legal_actions": [],
        "winners": list(state.winners),
        "victory": VICTORY_NAMES[state.victory],
        "options": dict(_options_dict(state.opts)),
        "defender": None if state.defender < 0 else state.defender,
        "defender_played": bool(state.defender_played),
        "final_battle_players": list(state.final_players),
        "last_battle": _last_battle(state),
        "targets": _targets(state),
    }
    if seat is not None:
        view["own_discards"] = _codes(state.hidden_discards[seat])
        view["shown_by_you"] = _shown_by_you(state, seat)
        if current == seat:
            view["legal_actions"] = legal_actions(state)
    return view
