"""One small interface over both rules engines, for the web and the bots: `ruleset(name)`.

Condottiere (`games.engine`) and Renaissance (`games.renaissance`) share a shape: a seeded
`new_game`, dict actions, `view_for(state, seat)`, `determinize(view, rng)` for search, a
lossless JSON round trip. They differ in who may act: Condottiere has one current player,
Renaissance lets several seats act at once (the secret vote). The common shape is therefore
Renaissance's: `acting_seats(state)` is a set, and `legal_actions` / `apply_action` take the
seat. The Condottiere adapter answers with its one current player and refuses any other seat;
for that seat it calls the engine's own functions unchanged, so a game played through the
interface is the very same game as one played on the engine directly.

The site (games/services, records, replay, bots' jobs) reaches a game's rules only through
this module: beyond the shape above, a Ruleset says how the site starts a table's game, checks
its options, words each action for the public log, tells actions any seat may take at any
moment (Renaissance's diplomacy) from moves, says whose decision an action changed (several
seats may be deciding at once), and names its game record's module.

Pure standard library plus the two engines (held by tests/test_architecture.py).
"""

import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import games.engine as condottiere
import games.engine.public_log as condottiere_public_log
import games.engine.record as condottiere_record
import games.renaissance as renaissance
import games.renaissance.diplomacy as renaissance_diplomacy
import games.renaissance.public_log as renaissance_public_log
import games.renaissance.record as renaissance_record


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

    What the site needs besides:
    table_game(players, seed, options) -> the state a table of the site starts from (all its
        randomness from the seed)
    normalize_options(options, players) -> the options as stored (a dict); ValueError with a
        readable message for options this game does not have or that do not fit `players`
    final_result(state) -> the result the site stores once over ({"winners": [...], ...});
        None while playing
    public_record(action, seat, before, after) -> what a spectator may know of `action`
        (JSON-safe), or None for an action a spectator must not learn of at all
    is_side_action(action) -> whether any seat may take it at any moment, not only an acting
        seat (Renaissance's diplomacy); side_actions(state, seat) lists those open to `seat`;
        side_actions_per_seat: how many offers and gifts (`offer_types`) one seat may make in a
        game (the rules set no bound; the site does, so that one seat cannot flood a game's log
        past what its record may hold; answers and withdrawals follow offers, so are not
        counted)
    decision_changed(before, after, seat, actor, action) -> whether `action` by `actor`
        changed the decision `seat` is asked (a vote does not change another seat's vote)
    awaits_answer(state, seat) -> whether an offer waits for `seat`'s answer
    record: the module of its game record (FORMAT, VERSION, simulate, final_result, ...)
    apply_show(state, seat, action) -> a new state with cards shown (Condottiere's table talk;
        None for a game without), refused with `illegal_show`
    plays_matches, analysed: whether the site offers matches for points / computer analysis
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
    table_game: Callable
    normalize_options: Callable
    final_result: Callable
    public_record: Callable
    is_side_action: Callable
    side_actions: Callable
    offer_types: frozenset
    side_actions_per_seat: int
    decision_changed: Callable
    awaits_answer: Callable
    record: ModuleType
    apply_show: Callable | None
    illegal_show: type | None
    plays_matches: bool
    analysed: bool


def _never(*_args) -> bool:
    return False


def _nothing(*_args) -> list:
    return []


def _always(*_args) -> bool:
    return True


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


def first_token_holder(seed: int, players: int) -> int:
    """The seat a Condottiere game of the site starts with the token: drawn from its seed."""
    return random.Random(seed).randrange(players)


def _condottiere_table_game(players, seed, options):
    """The site's deal: the Condottiere token's first holder is drawn from the seed too (so a
    record's `first` follows from its seed for every game played here)."""
    first = first_token_holder(seed, players)
    return _condottiere_new_game(players, seed=seed, options={**(options or {}), "first": first})


def _condottiere_normalize_options(options, players):
    return condottiere.Options.from_dict(options or {}).to_dict()


def _condottiere_public_record(action, seat, before, after):
    return condottiere_public_log.public_record(
        action, seat, condottiere.view_for(before, None), condottiere.view_for(after, None)
    )


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
    table_game=_condottiere_table_game,
    normalize_options=_condottiere_normalize_options,
    final_result=condottiere.final_result,
    public_record=_condottiere_public_record,
    # Showing cards (any seat, any time) is table talk, not an action of the one way in.
    is_side_action=_never,
    side_actions=_nothing,
    offer_types=frozenset(),
    side_actions_per_seat=0,
    # One seat decides at a time: every move asks the table a new decision.
    decision_changed=_always,
    awaits_answer=_never,
    record=condottiere_record,
    apply_show=condottiere.apply_show,
    illegal_show=condottiere.IllegalShow,
    plays_matches=True,
    analysed=True,
)


# --- Renaissance: already of this shape ----------------------------------------------------


def _renaissance_new_game(players, seed=0, options=None):
    """options: games.renaissance's own ({"nations": [...]}, {"remove": ...}, ...)."""
    return renaissance.new_game(players, seed=seed, options=options)


# The options a table of the site may set (the engine's "nations" is drawn by lot from the seed).
RENAISSANCE_TABLE_OPTIONS = ("scenario", "remove", "powers")


def _renaissance_normalize_options(options, players):
    """Only the table's options, checked by the engine itself on a trial deal."""
    options = dict(options or {})
    unknown = set(options) - set(RENAISSANCE_TABLE_OPTIONS)
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)}")
    options = {key: value for key, value in options.items() if value not in (None, "", False)}
    if "remove" in options and players != 4:
        # The engine ignores it there; a table must not claim a choice it does not have.
        raise ValueError('the option "remove" is for four players')
    if players == 4 and "scenario" not in options:
        # [rules] Four players without a scenario: one nation leaves, Naples unless told. Said
        # explicitly, so that two tables of the same rules store the same options.
        options.setdefault("remove", "naples")
    renaissance.new_game(players, seed=0, options=options)
    return options


# What starts a diplomatic exchange; answers and withdrawals each follow one offer.
RENAISSANCE_OFFERS = frozenset({"give_ducats", "offer_exchange", "offer_condottiere"})
# Six seats at this many offers each, one answer or withdrawal per offer, plus a game's moves
# (about 600 at most) stay inside the 5,000 actions a Renaissance record may hold
# (games.renaissance.record.MAX_ACTIONS): 6 x 250 x 2 + 600 = 3,600.
RENAISSANCE_DIPLOMACY_PER_SEAT = 250


def _renaissance_decision_changed(before, after, seat, actor, action):
    """The actor's own move always starts a new decision for it; any other seat's decision is
    changed only if what it may do changed (a vote leaves the other voters' choices as they
    were, an offer changes nobody's move)."""
    if seat == actor and not renaissance_diplomacy.is_diplomacy(action):
        return True
    return renaissance.legal_actions(before, seat) != renaissance.legal_actions(after, seat)


def _renaissance_awaits_answer(state, seat):
    return any(offer[2] == seat for offer in state.offers)


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
    table_game=_renaissance_new_game,
    normalize_options=_renaissance_normalize_options,
    final_result=renaissance_record.final_result,
    public_record=renaissance_public_log.public_record,
    is_side_action=renaissance_diplomacy.is_diplomacy,
    side_actions=renaissance_diplomacy.diplomacy_actions,
    offer_types=RENAISSANCE_OFFERS,
    side_actions_per_seat=RENAISSANCE_DIPLOMACY_PER_SEAT,
    decision_changed=_renaissance_decision_changed,
    awaits_answer=_renaissance_awaits_answer,
    record=renaissance_record,
    apply_show=None,
    illegal_show=None,
    plays_matches=False,
    analysed=False,
)


RULESETS = {ruleset.name: ruleset for ruleset in (CONDOTTIERE, RENAISSANCE)}


def ruleset(name: str) -> Ruleset:
    """The ruleset of a game by name: "condottiere" or "renaissance"."""
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(RULESETS)}") from None


def ruleset_of(game) -> Ruleset:
    """The ruleset of a game row (anything with a `ruleset` name)."""
    return RULESETS[game.ruleset]


__all__ = [
    "Ruleset",
    "CONDOTTIERE",
    "RENAISSANCE",
    "RULESETS",
    "ruleset",
    "ruleset_of",
    "first_token_holder",
]
