"""The state frames of a six-player Renaissance game, as its sockets receive them.

`play(options, seed)` plays a whole game of heuristic bots (each seat choosing from its own view,
as the site's bot turns do), optionally with random diplomacy beside it (gifts, offers, answers:
what people add to a bots' game), and keeps every version's state and public log.
`table_at(game, version)` is the `games.services.frames.Table` a socket process holds at that
version, built in memory (no database) from a fresh copy of the state, as a process builds it
from a move's snapshot; `Table.text_for(seat)` is then the very text a seat's socket is sent.

Shared by `tests/bench/bench_frames.py` (sizes and build times) and the frame-size bound test.
"""

import random
from dataclasses import dataclass, field

import ai
from games.models import Game, Seat
from games.rules_api import RENAISSANCE
from games.services.frames import LOG_LENGTH, Table

PLAYERS = 6
LEVEL = "heuristic"
GAME_ID = 123456  # any id: the bots' seat names are drawn from it
TURN_SECONDS = 120  # a timed table: each acting seat's deadline is in the frame too
# With diplomacy, the chance after each move that some seat makes a random diplomacy action.
DIPLOMACY_CHANCE = 0.08
# Stays inside the site's bound per seat (games.rules_api: RENAISSANCE_DIPLOMACY_PER_SEAT).
DIPLOMACY_PER_SEAT = 100
# The points of a game a frame is measured at, by what its spectator's view shows.
POINTS = ("set-up", "vote", "battle", "last turn", "whole game")


@dataclass
class PlayedGame:
    """A game's every version: `states[v]` and `logs[v]` (the public log a frame at v carries)."""

    options: dict
    seed: int
    states: list = field(default_factory=list)
    logs: list = field(default_factory=list)

    @property
    def last_version(self) -> int:
        return len(self.states) - 1


def play(options: dict | None = None, seed: int = 1, diplomacy: bool = False) -> PlayedGame:
    """A whole six-player game of heuristic bots, every version kept."""
    rules, options = RENAISSANCE, dict(options or {})
    state = rules.table_game(PLAYERS, seed, options)
    bots = [ai.make_bot(LEVEL, seed=seed * 10 + seat, game=rules.name) for seat in range(PLAYERS)]
    rng = random.Random(seed)
    played = PlayedGame(options, seed, [state], [[]])
    side_actions = [0] * PLAYERS
    while not rules.is_terminal(state):
        seat, action = next_move(rules, state, bots, rng, side_actions if diplomacy else None)
        after = rules.apply_action(state, seat, action)
        public = rules.public_record(action, seat, state, after)
        log = played.logs[-1]
        if public is not None:
            log = (log + [{**public, "seq": len(played.states), "seat": seat}])[-LOG_LENGTH:]
        played.states.append(after)
        played.logs.append(log)
        state = after
    return played


def next_move(rules, state, bots, rng, side_actions) -> tuple[int, dict]:
    """An answer to a waiting offer first (bots never leave an offer waiting), then, now and
    then, a random diplomacy action, else the lowest acting seat's bot move."""
    for seat in range(PLAYERS):
        answer = bots[seat].answer_offer(rules.view_for(state, seat))
        if answer is not None:
            return seat, answer
    if side_actions is not None and rng.random() < DIPLOMACY_CHANCE:
        seat = rng.randrange(PLAYERS)
        offered = rules.side_actions(state, seat)
        if offered and side_actions[seat] < DIPLOMACY_PER_SEAT:
            side_actions[seat] += 1
            return seat, rng.choice(offered)
    seat = min(rules.acting_seats(state))
    return seat, bots[seat].choose(rules.view_for(state, seat))


def game_row(played: PlayedGame, version: int) -> Game:
    """The game row at `version`, unsaved: what `Table` reads of it."""
    state = played.states[version]
    over = RENAISSANCE.is_terminal(state)
    acting = RENAISSANCE.acting_seats(state)
    deadline = 1_900_000_000.0  # any moment: only its digits count
    return Game(
        pk=GAME_ID,
        ruleset=RENAISSANCE.name,
        players=PLAYERS,
        options=played.options,
        seed=played.seed,
        status=Game.Status.FINISHED if over else Game.Status.PLAYING,
        version=version,
        turn_seconds=TURN_SECONDS,
        seat_deadlines=[deadline if seat in acting else None for seat in range(PLAYERS)],
        result=RENAISSANCE.final_result(state) if over else None,
    )


def seat_rows(game: Game) -> list[Seat]:
    return [Seat(game=game, index=index, bot_level=LEVEL) for index in range(PLAYERS)]


def table_at(played: PlayedGame, version: int) -> Table:
    """The Table a socket process holds at `version`: a fresh state from the snapshot (no
    cached legal list), the game's row and seats, its log."""
    game = game_row(played, version)
    snapshot = RENAISSANCE.to_json(played.states[version])
    return Table(
        version=version,
        game=game,
        seats=seat_rows(game),
        rating_changes=[],
        state=RENAISSANCE.from_json(snapshot),
        log=played.logs[version],
        read_at=0.0,
    )


def audience() -> list[int | None]:
    """Everyone a state frame is built for: the spectators (None), then each seat."""
    return [None, *range(PLAYERS)]


def frame_sizes(played: PlayedGame, version: int) -> dict:
    """Bytes of the JSON text each of `audience()` receives at `version` (UTF-8)."""
    table = table_at(played, version)
    return {seat: len(table.text_for(seat).encode()) for seat in audience()}


def points_of(played: PlayedGame, version: int) -> list[str]:
    """The points of the game `version` belongs to (see POINTS), from the spectator's view."""
    view = RENAISSANCE.view_for(played.states[version], None)
    # The final version is past the last turn ("over", the turn counted on): the one before
    # it is in the last turn.
    last_turn = RENAISSANCE.view_for(played.states[-2], None)["public"]["turn"]
    found = []
    if view["phase"].startswith("setup"):
        found.append("set-up")
    if view["phase"] == "vote":
        found.append("vote")
    if view["public"]["battle"] is not None:
        found.append("battle")
    if view["public"]["turn"] == last_turn:
        found.append("last turn")
    return [*found, "whole game"]
