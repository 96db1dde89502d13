"""Game records, the engine's part: re-simulating a game and checking a record (pure Python).

A game record (docs/game-record.md) is a finished game as JSON, like a chess PGN: the seed, the
options, the first token holder, every action and the result. Here: replaying a seed + options +
action list into the sequence of states (`replay`, `simulate`), the result of a finished state
(`final_result`), the checks of an imported record's game fields (`check_header`,
`parse_options`, `parse_actions`, `current_rule_moves`, `replayed`), the comparison of a stored
game with its re-simulation (`verify_log`), and the upgrade of an action list played under the
old hand-discard rule (`upgrade_discard_asks`: record version 1 to 2). The site's parts (the
seats' colours, names and bot levels; loading and saving rows) are games/history/records.py's and
games/history/replay.py's.

A `RecordError`'s message is for the person importing the record: English, marked with
`gettext_noop` (a no-op here, but the name Django's makemessages collects), so the site can show
it translated (`_(error.message) % error.params`).
"""

from .actions import IllegalAction
from .api import apply_action, current_player, winners
from .moves import DISCARD_NO, legal_moves
from .options import Options
from .setup import new_game
from .show import apply_show, is_show
from .state import DISCARD_HAND, GameState
from .visibility import view_for

FORMAT = "condottiere-game-record"
# Version 2: every seat with cards is asked in the hand-discard step (version 1: only the seats
# without Mercenary were). A version-1 record is read through `upgrade_discard_asks`.
# Version 3: the actions may include shows (`{"type": "show", ...}`, by any seat at any time,
# show.py). A version-2 record holds none, so it reads as it is; and a game without a show is
# still written as version 2 (`record_version`), so that a reader of version 2 still reads it.
VERSION = 3
VERSION_WITHOUT_SHOWS = 2
READABLE_VERSIONS = (1, 2, 3)
DECLINE = {"type": "discard_hand", "discard": False}
MAX_ACTIONS = 5000
SEED_RANGE = range(-(2**63), 2**63)
RESULT_KEYS = {"winners", "regions", "reason"}
FIELDS = {"seed", "players", "first", "options", "seats", "actions", "result"}


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
    """An action log that cannot be replayed: an action is illegal or out of turn."""


# --- Re-simulation -----------------------------------------------------------------------------


def simulate(initial: GameState, moves) -> list[GameState]:
    """The state before the first move, then after each (seat, action) in `moves`.

    Each move must come from the seat whose turn it is and be legal for it, else ReplayError
    (numbered from 1, as the log's seq)."""
    states = [initial]
    state = initial
    for number, (seat, action) in enumerate(moves, start=1):
        state = _replayed_step(state, number, seat, action)
        states.append(state)
    return states


def _replayed_step(state: GameState, number: int, seat: int, action: dict) -> GameState:
    """The state after action `number` of a log, by `seat`; ReplayError if it is out of turn or
    illegal."""
    expected = current_player(state)
    if expected is None:
        raise ReplayError(f"action {number}: the game was already over")
    if is_show(action):  # any seat may show cards, whoever's turn it is
        try:
            return apply_show(state, seat, action)
        except IllegalAction as error:
            raise ReplayError(f"action {number} ({action!r}) is illegal: {error}") from None
    if seat != expected:
        raise ReplayError(f"action {number}: seat {seat} acted, but it was seat {expected}'s turn")
    try:
        return apply_action(state, action)
    except (IllegalAction, KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"action {number} ({action!r}) is illegal: {error}") from None


def replay(players: int, seed: int, options: Options, first: int, moves) -> list[GameState]:
    """The states of a game from its deal (`new_game(players, seed, options, first)`) through
    each (seat, action) of `moves`: index 0 is the deal, index n the state after the n-th."""
    return simulate(new_game(players, seed=seed, options=options, first=first), moves)


def record_version(actions) -> int:
    """The version a record of these action dicts is written in: 3 if it holds a show, else 2."""
    return VERSION if any(is_show(action) for action in actions) else VERSION_WITHOUT_SHOWS


def final_result(state: GameState) -> dict | None:
    """The result of a finished state, as records and the site store it: `winners` (seats),
    `regions` (regions held, per seat), `reason` (how it was won); None while it is still going."""
    if current_player(state) is not None:
        return None
    public = view_for(state, None)
    return {
        "winners": list(winners(state)),
        "regions": [player["regions"] for player in public["players"]],
        "reason": str(public.get("victory") or ""),
    }


def verify_log(
    initial: GameState, log, version: int, snapshot, result, *, finished: bool, playing: bool
) -> list[str]:
    """What differs between a stored game and its re-simulation ([] when all agrees).

    `initial`: the game's deal; `log`: its stored actions as (seq, seat, action); `version`,
    `snapshot` (the state's JSON) and `result`: what was stored; `finished` / `playing`: its
    stored status."""
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


# --- Upgrade from the old hand-discard rule (record version 1) ----------------------------------


def upgrade_discard_asks(initial: GameState, moves) -> list[tuple[int, dict, int | None]]:
    """An action list played under the old hand-discard rule, as the current rule plays it.

    [ruling] Step (4) used to ask only the seats holding cards but no Mercenary; now every seat
    with cards is asked, and one holding a Mercenary can only decline. So the list is replayed
    under the current engine, and whenever the seat asked holds a Mercenary (declining is its
    only legal action) and the next recorded action is not its `discard_hand` decision, the
    decline it was never asked for is inserted. Nothing else changes: a decline changes no card,
    so every state after the insertions is the old game's. At the end of the list the forced
    declines are inserted too, so that a game stopped in this step waits for the seat it waited
    for before. A list already played under the current rule comes back unchanged.

    Returns (seat, action, index) triples: `index` is the action's position in `moves`, None for
    an inserted decline. ReplayError (numbered as in `moves`, from 1) if the list does not replay.
    """
    upgraded = []
    state = initial
    for index in range(len(moves) + 1):
        following = moves[index] if index < len(moves) else None
        while _owes_forced_decline(state, following):
            upgraded.append((state.current, dict(DECLINE), None))
            state = apply_action(state, DECLINE)
        if following is None:
            break
        seat, action = following
        state = _replayed_step(state, index + 1, seat, action)
        upgraded.append((seat, action, index))
    return upgraded


def _owes_forced_decline(state: GameState, following) -> bool:
    """The asked seat holds a Mercenary (it can only decline) and `following`, the next recorded
    (seat, action) or None, is not that seat's decision: the old rule never asked it."""
    if state.phase != DISCARD_HAND or legal_moves(state) != (DISCARD_NO,):
        return False
    if following is None:
        return True
    seat, action = following
    answers = isinstance(action, dict) and action.get("type") == "discard_hand"
    return not (seat == state.current and answers)


# --- Checks of an imported record (each raises RecordError) ------------------------------------


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def require(condition: bool, message: str, params: dict | None = None) -> None:
    if not condition:
        raise RecordError(message, params)


def check_header(data) -> None:
    """The record's format and version, its fields, the seed, the players, the first seat."""
    require(isinstance(data, dict), gettext_noop("A game record is a JSON object."))
    require(
        data.get("format") == FORMAT,
        gettext_noop("This is not a Condottiere game record (its “format” is not “%(format)s”)."),
        {"format": FORMAT},
    )
    require(
        is_int(data.get("version")) and data.get("version") in READABLE_VERSIONS,
        gettext_noop(
            "Unsupported record version %(version)r: this site reads version %(supported)s."
        ),
        {"version": data.get("version"), "supported": VERSION},
    )
    missing = sorted(FIELDS - set(data))
    require(
        not missing, gettext_noop("The record lacks: %(fields)s."), {"fields": ", ".join(missing)}
    )
    require(
        is_int(data["seed"]) and data["seed"] in SEED_RANGE,
        gettext_noop("The seed must be a 64-bit integer."),
    )
    players = data["players"]
    require(
        is_int(players) and 2 <= players <= 6,
        gettext_noop("“players” must be a number from 2 to 6."),
    )
    require(
        is_int(data["first"]) and 0 <= data["first"] < players,
        gettext_noop("“first” must be a seat from 0 to %(last)s."),
        {"last": players - 1},
    )


def parse_options(options) -> Options:
    require(isinstance(options, dict), gettext_noop("“options” must be an object."))
    require(
        all(isinstance(value, bool) for value in options.values()),
        gettext_noop("Each optional rule must be true or false."),
    )
    try:
        return Options.from_dict(options)
    except ValueError:
        names = ", ".join(Options().to_dict())
        raise RecordError(
            gettext_noop("Unknown optional rule in “options”; the rules are: %(names)s."),
            {"names": names},
        ) from None


def parse_actions(actions, players: int, version: int = VERSION) -> list[tuple[int, dict]]:
    """The record's actions as (seat, action) pairs, each checked for its shape only (`replayed`
    checks that it is legal). Shows exist from version 3 on."""
    require(isinstance(actions, list), gettext_noop("“actions” must be a list."))
    require(
        len(actions) <= MAX_ACTIONS,
        gettext_noop("The record holds more than %(max)s actions."),
        {"max": MAX_ACTIONS},
    )
    moves = []
    for position, entry in enumerate(actions, start=1):
        where = {"number": position}
        require(isinstance(entry, dict), gettext_noop("Action %(number)s is not an object."), where)
        require(
            entry.get("seq") == position,
            gettext_noop("Action %(number)s must have seq %(number)s."),
            where,
        )
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
        require(
            version >= VERSION or not is_show(action),
            gettext_noop("Action %(number)s: a show needs a record of version 3."),
            where,
        )
        moves.append((seat, action))
    return moves


def current_rule_moves(data: dict, options: Options, moves) -> list[tuple[int, dict]]:
    """The record's (seat, action) pairs as the current rule plays them: a version-1 record's
    get the hand-discard declines it lacks (`upgrade_discard_asks`); a version-2 record's are
    returned as they are."""
    if data["version"] != 1:
        return moves
    initial = new_game(data["players"], seed=data["seed"], options=options, first=data["first"])
    try:
        upgraded = upgrade_discard_asks(initial, moves)
    except ReplayError as error:
        raise RecordError(
            gettext_noop("The actions do not replay: %(error)s."), {"error": str(error)}
        ) from None
    return [(seat, action) for seat, action, _index in upgraded]


def replayed(data: dict, options: Options, moves) -> list[GameState]:
    """The record's game replayed: every action in turn and legal, the game played to its end,
    and the stated result the re-simulation's. Returns the states (index 0: the deal)."""
    try:
        states = replay(data["players"], data["seed"], options, data["first"], moves)
    except ReplayError as error:
        raise RecordError(
            gettext_noop("The actions do not replay: %(error)s."), {"error": str(error)}
        ) from None
    result = final_result(states[-1])
    require(result is not None, gettext_noop("The record does not play the game to its end."))
    stated = data["result"]
    require(
        isinstance(stated, dict) and set(stated) >= RESULT_KEYS,
        gettext_noop("“result” must be an object with winners, regions and reason."),
    )
    stated = {key: stated[key] for key in RESULT_KEYS}
    require(
        stated == result,
        gettext_noop(
            "The stated result %(stated)s is not the game's: replaying it gives %(actual)s."
        ),
        {"stated": stated, "actual": result},
    )
    return states
