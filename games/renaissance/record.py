"""Renaissance game records, the engine's part: the format, the checks of an imported record,
re-simulating a game, its result, and the comparison of a stored game with its re-simulation.

A record (docs/game-record.md, "Renaissance game record") is a game as JSON: the seed, the
player count, the options given to `new_game`, the seats (the site's, passed through), every
accepted action in order (moves and diplomacy, each with the seat that took it) and the result.
The same seed, options and actions give the same game: every random draw derives from the seed
(docs/renaissance/engine.md, "Randomness and speed").

The names mirror games/engine/record.py, so that the site treats both games' records alike. A
`RecordError`'s message is for the person importing the record: English, marked with
`gettext_noop` (a no-op here, the name Django's makemessages collects), with its `params` apart,
so the site can show it translated (`_(error.message) % error.params`).
"""

from .actions import IllegalAction, apply_action
from .flow import tie_break_key
from .setup import OPTION_KEYS, SCENARIOS, new_game
from .state import OVER

FORMAT = "renaissance-game-record"
VERSION = 1
READABLE_VERSIONS = (1,)
# A random six-player game takes about 500 to 600 moves (the longest of many measured: 594);
# diplomacy comes on top, every offer answered or withdrawn. 5,000 leaves room for some 4,000
# diplomacy actions, far beyond a game's, and replays in a fraction of a second; a longer list
# is refused before any of it is replayed.
MAX_ACTIONS = 5000
SEED_RANGE = range(-(2**63), 2**63)
PLAYERS = range(3, 7)
FIELDS = ("format", "version", "seed", "players", "options", "seats", "actions", "result")
RESULT_KEYS = ("winners", "points", "reason")
# Why the winners won: the first of the rulebook's criteria that set them apart ([rules] most
# Renaissance Points, then fortresses, ramparts, ducats); "shared" when every seat is tied on
# all of them ([ruling] R5).
REASONS = ("points", "fortresses", "ramparts", "ducats")
SHARED = "shared"
REMOVABLE = ("naples", "milan")


def gettext_noop(message: str) -> str:
    """Marks `message` for the site's translation catalogues; returns it unchanged."""
    return message


class RecordError(ValueError):
    """A record that cannot be imported: `message` (English, with %(name)s placeholders) and
    its `params`; str() is the English sentence."""

    def __init__(self, message: str, params: dict | None = None):
        self.message = message
        self.params = params or {}
        super().__init__(message % self.params if self.params else message)


class ReplayError(Exception):
    """An action log that cannot be replayed: an action is illegal, or the game was over."""


# --- Writing a record ----------------------------------------------------------------------------


def make_record(players: int, seed: int, options: dict, seats, moves, result) -> dict:
    """The record of a game: `options` as given to new_game, `seats` as the site describes them,
    `moves` its (seat, action) pairs in order, `result` final_result's (None while playing)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": seed,
        "players": players,
        "options": {key: _json_safe(value) for key, value in (options or {}).items()},
        "seats": list(seats),
        "actions": [{"seat": seat, "action": action} for seat, action in moves],
        "result": result,
    }


def _json_safe(value):
    return list(value) if isinstance(value, tuple) else value


# --- Re-simulation --------------------------------------------------------------------------------


def simulate(initial, moves) -> list:
    """The state before the first move, then after each (seat, action) of `moves`.

    Each action must be legal for its seat at that moment (a move of an acting seat, or any
    seat's diplomacy), else ReplayError, numbered from 1."""
    states = [initial]
    state = initial
    for number, (seat, action) in enumerate(moves, start=1):
        state = _replayed_step(state, number, seat, action)
        states.append(state)
    return states


def _replayed_step(state, number: int, seat: int, action: dict):
    if state.phase == OVER:
        raise ReplayError(f"action {number}: the game was already over")
    try:
        return apply_action(state, seat, action)
    except (IllegalAction, KeyError, TypeError, ValueError) as error:
        message = f"action {number} ({action!r}) by seat {seat} is illegal: {error}"
        raise ReplayError(message) from None


def replay(players: int, seed: int, options: dict, moves) -> list:
    """The states of a game from `new_game(players, seed, options)` through each (seat, action)
    of `moves`: index 0 is the set-up, index n the state after the n-th action."""
    return simulate(new_game(players, seed=seed, options=options), moves)


def final_result(state) -> dict | None:
    """The result of a finished game as records and the site store it: `winners` (seats),
    `points` (Renaissance Points per seat), `reason` (see REASONS); None while it goes on."""
    if state.phase != OVER:
        return None
    return {
        "winners": list(state.winners),
        "points": list(state.points),
        "reason": victory_reason(state),
    }


def victory_reason(state) -> str:
    """The first criterion on which the winners beat every other seat ("shared" if none)."""
    keys = [tie_break_key(state, seat) for seat in range(state.n)]
    best = max(keys)
    beaten = [key for key in keys if key != best]
    if not beaten:
        return SHARED
    runner_up = max(beaten)
    return next(REASONS[i] for i in range(len(REASONS)) if best[i] != runner_up[i])


def verify_log(
    initial, log, version: int, snapshot, result, *, finished: bool, playing: bool
) -> list[str]:
    """What differs between a stored game and its re-simulation ([] when all agrees).

    `initial`: the game's set-up state; `log`: its stored actions as (seq, seat, action);
    `version`, `snapshot` (the state's JSON) and `result`: what was stored; `finished` /
    `playing`: its stored status."""
    problems = []
    if [seq for seq, _seat, _action in log] != list(range(1, len(log) + 1)):
        problems.append("the action log's sequence numbers are not 1, 2, 3, ...")
    if version != len(log):
        problems.append(f"version is {version} but the log holds {len(log)} actions")
    try:
        states = simulate(initial, [(seat, action) for _seq, seat, action in log])
    except ReplayError as error:
        return [*problems, f"the log does not replay: {error}"]
    last = states[-1]
    if snapshot != last.to_json():
        problems.append("the stored snapshot differs from the re-simulated state")
    if finished and result != final_result(last):
        problems.append(f"the stored result {result!r} differs from {final_result(last)!r}")
    if playing and final_result(last) is not None:
        problems.append("the game is stored as playing but its log ends the game")
    return problems


# --- Checks of an imported record (each raises RecordError) ---------------------------------------


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def require(condition: bool, message: str, params: dict | None = None) -> None:
    if not condition:
        raise RecordError(message, params)


def check_header(data) -> None:
    """The record's format and version, its fields, the seed and the player count."""
    require(isinstance(data, dict), gettext_noop("A game record is a JSON object."))
    require(
        data.get("format") == FORMAT,
        gettext_noop("This is not a Renaissance game record (its “format” is not “%(format)s”)."),
        {"format": FORMAT},
    )
    require(
        is_int(data.get("version")) and data.get("version") in READABLE_VERSIONS,
        gettext_noop(
            "Unsupported record version %(version)r: this site reads version %(supported)s."
        ),
        {"version": data.get("version"), "supported": VERSION},
    )
    missing = [field for field in FIELDS if field not in data]
    require(
        not missing, gettext_noop("The record lacks: %(fields)s."), {"fields": ", ".join(missing)}
    )
    require(
        is_int(data["seed"]) and data["seed"] in SEED_RANGE,
        gettext_noop("The seed must be a 64-bit integer."),
    )
    require(
        is_int(data["players"]) and data["players"] in PLAYERS,
        gettext_noop("“players” must be a number from 3 to 6."),
    )


def parse_options(options, players: int) -> dict:
    """The options to give new_game, checked as new_game checks them (RecordError with the
    reason): `nations` (a nation per seat), `remove` ("naples" or "milan", four players),
    `scenario` ("1494", "1499" or "1515"), `powers` (true or false)."""
    require(isinstance(options, dict), gettext_noop("“options” must be an object."))
    unknown = sorted(set(options) - OPTION_KEYS)
    require(
        not unknown,
        gettext_noop("Unknown option %(unknown)s; the options are: %(names)s."),
        {"unknown": ", ".join(map(str, unknown)), "names": ", ".join(sorted(OPTION_KEYS))},
    )
    _check_option_types(options)
    scenario = options.get("scenario")
    require(
        scenario is None or players >= 4,
        gettext_noop("The historical scenarios are for 4 to 6 players."),
    )
    require(
        scenario is None or "remove" not in options,
        gettext_noop("“remove” is an option of the 1454 game only, not of a scenario."),
    )
    parsed = {key: list(value) if key == "nations" else value for key, value in options.items()}
    try:
        new_game(players, seed=0, options=parsed)
    except ValueError as error:
        raise RecordError(
            gettext_noop("The options do not fit a %(players)s-player game: %(error)s."),
            {"players": players, "error": str(error)},
        ) from None
    return parsed


def _check_option_types(options: dict) -> None:
    nations = options.get("nations", [])
    require(
        isinstance(nations, list) and all(isinstance(nation, str) for nation in nations),
        gettext_noop("“nations” must be a list of nations, one per seat."),
    )
    require(
        options.get("remove", "naples") in REMOVABLE,
        gettext_noop("“remove” must be “naples” or “milan”."),
    )
    require(
        options.get("scenario", SCENARIOS[0]) in SCENARIOS,
        gettext_noop("“scenario” must be one of %(scenarios)s."),
        {"scenarios": ", ".join(SCENARIOS)},
    )
    require(
        isinstance(options.get("powers", False), bool),
        gettext_noop("“powers” must be true or false."),
    )


def parse_actions(actions, players: int) -> list[tuple[int, dict]]:
    """The record's actions as (seat, action) pairs, each checked for its shape only (the
    replay checks that it is legal). A list longer than MAX_ACTIONS is refused at once."""
    require(isinstance(actions, list), gettext_noop("“actions” must be a list."))
    require(
        len(actions) <= MAX_ACTIONS,
        gettext_noop("The record holds more than %(max)s actions."),
        {"max": MAX_ACTIONS},
    )
    return [_parsed_entry(position, entry, players) for position, entry in enumerate(actions, 1)]


def _parsed_entry(position: int, entry, players: int) -> tuple[int, dict]:
    where = {"number": position}
    require(isinstance(entry, dict), gettext_noop("Action %(number)s is not an object."), where)
    seat = entry.get("seat")
    require(
        is_int(seat) and 0 <= seat < players,
        gettext_noop("Action %(number)s: “seat” is not a seat of this game."),
        where,
    )
    action = entry.get("action")
    require(
        isinstance(action, dict) and isinstance(action.get("type"), str),
        gettext_noop("Action %(number)s: “action” must be an object with a “type”."),
        where,
    )
    return seat, action


def replayed(data: dict, options: dict, moves, *, finished: bool = True) -> list:
    """The record's game replayed: every action legal in its turn and the stated result the
    re-simulation's (null for a game still going). With `finished`, the actions must play the
    game to its end. Returns the states (index 0: the set-up)."""
    try:
        states = replay(data["players"], data["seed"], options, moves)
    except ReplayError as error:
        raise RecordError(
            gettext_noop("The actions do not replay: %(error)s."), {"error": str(error)}
        ) from None
    result = final_result(states[-1])
    require(
        result is not None or not finished,
        gettext_noop("The record does not play the game to its end."),
    )
    stated = data["result"]
    require(
        stated is None or (isinstance(stated, dict) and set(stated) >= set(RESULT_KEYS)),
        gettext_noop("“result” must be null or an object with winners, points and reason."),
    )
    if stated is not None:
        stated = {key: stated[key] for key in RESULT_KEYS}
    require(
        stated == result,
        gettext_noop(
            "The stated result %(stated)s is not the game's: replaying it gives %(actual)s."
        ),
        {"stated": stated, "actual": result},
    )
    return states
