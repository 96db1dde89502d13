"""One small interface over both rules engines, for the web and the bots: `ruleset(name)`.

Condottiere (`games.engine`) and Renaissance (`games.renaissance`) share a shape: a seeded
`new_game`, dict actions, `view_for(state, seat)`, `determinize(view, rng)` for search, a
lossless JSON round trip. They differ in who may act: Condottiere has one current player,
Renaissance lets several seats act at once (the secret vote). The common shape is therefore
Renaissance's: `acting_seats(state)` is a set, and `legal_actions` / `apply_action` take the
seat. The Condottiere adapter answers with its one current player and refuses any other seat;
for that seat it calls the engine's own functions unchanged, so a game played through the
interface is the very same game as one played on the engine directly.

Pure standard library plus the two engines (held by tests/test_architecture.py).
"""

from collections.abc import Callable
from dataclasses import dataclass

import games.engine as condottiere
import games.renaissance as renaissance


@dataclass(frozen=True)
class Ruleset:
    """A game's rules behind one shape. Every function is the engine's or a thin adapter.

    new_game(players, seed=0, options=None) -> state    options: the game's own (see below)
    acting_seats(state) -> frozenset of seats that may act now (empty once over)
    legal_actions(state, seat) -> list of action dicts ([] for a seat that may not act)
    apply_action(state, seat, action) -> a new state; raises `illegal` (a ValueError) and
        leaves the state unchanged for anything not legal for that seat now
    view_for(state, seat) -> JSON-safe dict of what seat (None: a spectator) may know; it
        carries that seat's "legal_actions"
    determinize(view, rng) -> a full state consistent with the view (for search)
    is_terminal(state) -> bool
    scores(state) -> per seat: the game's points (final once over, see each game's docs)
    winners(state) -> winning seats ([] while playing; several on a shared victory)
    to_json(state) -> str; from_json(text) -> state    (lossless)
    """

    name: str
    players: range
    new_game: Callable
    acting_seats: Callable
    legal_actions: Callable
    apply_action: Callable
    view_for: Callable
    determinize: Callable
    is_terminal: Callable
    scores: Callable
    winners: Callable
    to_json: Callable
    from_json: Callable
    illegal: type


# --- Condottiere: one current player ------------------------------------------------------

_NOBODY = frozenset()
# frozenset({seat}) built once per seat: acting_seats is called on every step of every game.
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(6))


def _condottiere_new_game(players, seed=0, options=None):
    """options: None, a games.engine.Options, or a dict of its flags (e.g. {"hidden_cards":
    True}) with an optional "first" (the seat holding the Condottiere token, 0 by default)."""
    first = 0
    if isinstance(options, dict):
        options = dict(options)
        first = options.pop("first", 0)
        options = condottiere.Options.from_dict(options)
    return condottiere.new_game(players, seed=seed, options=options, first=first)


def _condottiere_acting_seats(state):
    seat = condottiere.current_player(state)
    return _NOBODY if seat is None else _ONE_SEAT[seat]


def _condottiere_legal_actions(state, seat):
    if seat != condottiere.current_player(state):
        return []
    return condottiere.legal_actions(state)


def _condottiere_apply_action(state, seat, action):
    current = condottiere.current_player(state)
    if seat != current:
        raise condottiere.IllegalAction(
            "the game is over" if current is None else f"it is seat {current}'s turn, not {seat}'s"
        )
    return condottiere.apply_action(state, action)


def _condottiere_scores(state):
    """Match points once over (regions, +5 for a win by adjacency); regions held before."""
    if condottiere.is_terminal(state):
        return condottiere.match_points(state)
    return [player["regions"] for player in condottiere.view_for(state, None)["players"]]


CONDOTTIERE = Ruleset(
    name="condottiere",
    players=range(2, 7),
    new_game=_condottiere_new_game,
    acting_seats=_condottiere_acting_seats,
    legal_actions=_condottiere_legal_actions,
    apply_action=_condottiere_apply_action,
    view_for=condottiere.view_for,
    determinize=condottiere.determinize,
    is_terminal=condottiere.is_terminal,
    scores=_condottiere_scores,
    winners=condottiere.winners,
    to_json=condottiere.GameState.to_json,
    from_json=condottiere.GameState.from_json,
    illegal=condottiere.IllegalAction,
)


# --- Renaissance: already of this shape ----------------------------------------------------


def _renaissance_new_game(players, seed=0, options=None):
    """options: games.renaissance's own ({"nations": [...]}, {"remove": ...}, ...)."""
    return renaissance.new_game(players, seed=seed, options=options)


RENAISSANCE = Ruleset(
    name="renaissance",
    players=range(3, 7),
    new_game=_renaissance_new_game,
    acting_seats=renaissance.acting_seats,
    legal_actions=renaissance.legal_actions,
    apply_action=renaissance.apply_action,
    view_for=renaissance.view_for,
    determinize=renaissance.determinize,
    is_terminal=renaissance.is_terminal,
    scores=renaissance.final_scores,
    winners=renaissance.winners,
    to_json=renaissance.State.to_json,
    from_json=renaissance.State.from_json,
    illegal=renaissance.IllegalAction,
)


RULESETS = {ruleset.name: ruleset for ruleset in (CONDOTTIERE, RENAISSANCE)}


def ruleset(name: str) -> Ruleset:
    """The ruleset of a game by name: "condottiere" or "renaissance"."""
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(RULESETS)}") from None


__all__ = ["Ruleset", "CONDOTTIERE", "RENAISSANCE", "RULESETS", "ruleset"]
