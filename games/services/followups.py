"""What happens around an accepted change: the turn deadline, the result, and — after the
commit — the notice to the sockets and the announcement of the work now due (a bot's turn, a turn
timer, a rating) through the job port, which alone knows who runs it."""

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.utils import timezone

from ai.levels import DEFAULT_BUDGETS
from games import jobs
from games.jobs import bot_chain, pending_bot_turns
from games.matches.models import MatchGame
from games.models import Game, Seat
from games.rules_api import ruleset, ruleset_of

from .frames import STANDIN_LEVEL
from .notify import notify_game, notify_lobby_now

# NextTurn.bot_level when several bots decide at once (the Renaissance vote).
SEVERAL_BOTS = "*"


def decision_clocks(
    game: Game, state, seats: list[Seat], versions: list[int], version: int, old=None
):
    """Per seat, when the decision it is asked now times out (epoch seconds, None: no timer),
    and the earliest of them as a datetime (the game row's `turn_deadline`, which the sweep
    reads). A timer runs only for a person's seat; a decision that the change at `version` left
    as it was keeps its clock (`old`: the clocks until now, the game row's by default).
    ([ruling] The seat asked in Condottiere's hand-discard step is
    public like any other turn, so a deadline that appears only for people reveals nothing
    there either.)"""
    if not game.turn_seconds:
        return [None] * game.players, None
    acting = ruleset_of(game).acting_seats(state)
    old = (game.seat_deadlines if old is None else old) or []
    fresh = time.time() + game.turn_seconds
    deadlines = []
    for seat in range(game.players):
        if seat not in acting or seats[seat].plays_as_bot:
            deadlines.append(None)
            continue
        kept = old[seat] if seat < len(old) and versions[seat] != version else None
        deadlines.append(fresh if kept is None else kept)
    earliest = min((d for d in deadlines if d is not None), default=None)
    return deadlines, None if earliest is None else datetime.fromtimestamp(earliest, tz=UTC)


def bot_level(seat: Seat) -> str:
    """The level of the bot that plays `seat` (a stand-in's for a person's seat handed to it)."""
    return seat.bot_level or STANDIN_LEVEL


def bots_due(game: Game, before, after, seats, versions, version, actor=None, action=None):
    """The bot seats that have something new to decide at `version`: a decision that began
    there, or (after an action of diplomacy) an offer waiting for their answer."""
    ruleset = ruleset_of(game)
    acting = ruleset.acting_seats(after)
    side = action is not None and ruleset.is_side_action(action)
    return tuple(
        seat.index
        for seat in seats
        if seat.plays_as_bot
        and (
            (seat.index in acting and versions[seat.index] == version)
            or (side and ruleset.awaits_answer(after, seat.index))
        )
    )


def next_turn_for(game: Game, version: int, due: tuple, state, seats, deadline, snapshot):
    """What to announce after a commit. One bot asked a move while nobody else acts: its
    level and the snapshot spare its job a read. Several bots, or an answer to an offer: the
    job reads the game and serves each bot whose decision began at this version."""
    if not due:
        return NextTurn(None, deadline)
    ruleset = ruleset_of(game)
    (first, *others) = due
    alone = ruleset.acting_seats(state) == {first}
    if not others and alone and not ruleset.awaits_answer(state, first):
        level = bot_level(seats[first])
        return NextTurn(level, deadline, game.seed, snapshot, game_name=game.ruleset)
    return NextTurn(SEVERAL_BOTS, deadline, game_name=game.ruleset, since=version)


@dataclass(frozen=True)
class NextTurn:
    """Who acts after a commit, as the committing transaction saw it: the bot's level (None: a
    person, or nobody), the turn's deadline, and the game's seed and snapshot at the new
    version, so that a bot's job need not read them again."""

    bot_level: str | None  # or SEVERAL_BOTS
    deadline: object = None
    seed: int | None = None
    snapshot: str | None = None
    game_name: str = "condottiere"
    # The oldest decision version the bot job serves (None: every bot seat still asked).
    since: int | None = None


def after_change(
    game_id: int, version: int, finished: bool, next_turn: NextTurn, change: dict | None = None
) -> None:
    """After the commit: tell the sockets (with the move's `change`, which spares them a read),
    then set the next decision in motion."""
    kept = not finished and kept_by_the_chain(game_id, version, next_turn)
    if kept:  # the chain's next move, a few milliseconds away, tells this one with its own
        bot_chain.hold_notice(game_id, version, change)
    else:
        notify_game(Game.group_name_of(game_id), version, change, earlier=held_moves(game_id))
    if finished:
        notify_lobby_now()
        jobs.later("rating", game_id)
        announce_match_job(game_id)
        return
    announce_next(game_id, version, next_turn, kept=kept)


def held_moves(game_id: int) -> list[tuple[int, dict | None]]:
    """(version, change) of the running bot chain's moves in the game not told yet."""
    return [
        (version, change)
        for held_game, version, change in bot_chain.take_held()
        if held_game == game_id
    ]


def tell_held_notices(chain: bot_chain.Chain) -> None:
    """At a bot chain's end: tell the moves still held (the turn kept after them was not
    played: stale, refused, failed), in one notice."""
    held = bot_chain.take_held(chain)
    if held:
        game_id, version, change = held[-1]
        earlier = [(held_version, held_change) for _, held_version, held_change in held[:-1]]
        notify_game(Game.group_name_of(game_id), version, change, earlier=earlier)


def announce_match_job(game_id: int) -> None:
    """After a game of a match ends (finished or aborted): the match's job scores it, or ends
    the match, and sees to its next game (#15). A game of no match announces nothing."""
    if MatchGame.objects.filter(game_id=game_id).exists():
        jobs.later("match_next_game", game_id)


def announce_next(
    game_id: int, version: int, next_turn: NextTurn, kept: bool | None = None
) -> None:
    """A bot's turn if a bot plays the seat to act, and the turn timer if a deadline is set.
    A bot's turn is kept by the bot job that made this version when it may play it itself
    (games/jobs/bot_chain.py; `kept`: already asked); else it is sent only if none of the
    game's waits in the queue: the waiting one plays the newest version announced
    (games/jobs/pending_bot_turns.py)."""
    if kept is None:
        kept = kept_by_the_chain(game_id, version, next_turn)
    if next_turn.bot_level and not kept:
        announce_bot_turn(game_id, version, next_turn)
    if next_turn.deadline is not None:
        seconds = (next_turn.deadline - timezone.now()).total_seconds()
        jobs.later("turn_expiry", game_id, version, delay=seconds)


def kept_by_the_chain(game_id: int, version: int, next_turn: NextTurn) -> bool:
    """One bot with a known snapshot acts next, and the bot job that made this version may play
    its turn itself (games/jobs/bot_chain.py): no message, no mark."""
    lone_bot = next_turn.bot_level and next_turn.bot_level != SEVERAL_BOTS
    if not lone_bot or next_turn.snapshot is None:
        return False
    turn = (
        game_id,
        version,
        time.time(),
        next_turn.bot_level,
        (next_turn.seed, next_turn.snapshot),
        next_turn.game_name,
    )
    return bot_chain.keep(turn)


def announce_bot_turn(game_id: int, version: int, next_turn: NextTurn) -> None:
    """The job "bot_turn", unless one of the game's waits in the queue (it plays the newest)."""
    if not pending_bot_turns.announce(game_id, version):
        return
    # The time of the announcement: the bot's latency is measured from it.
    level = None if next_turn.bot_level == SEVERAL_BOTS else next_turn.bot_level
    args = [game_id, version, time.time(), level]
    known = level is not None and next_turn.snapshot is not None
    if known:
        args += [next_turn.seed, next_turn.snapshot]
    if (next_turn.game_name, next_turn.since) != ("condottiere", None):
        if not known:
            args += [None, None]
        args += [next_turn.game_name, next_turn.since]
    jobs.later("bot_turn", *args, delay=pause_before_choosing(level, next_turn.game_name))


def pause_before_choosing(level: str | None, game_name: str) -> float:
    """How long a bot turn's job waits before it is sent. Every bot decision is shown
    BOT_MOVE_DELAY after it was asked for. A bot that does not search chooses in well under a
    millisecond, so its job is sent when that pause is over and plays at once: one job a move,
    where choosing first needs a second to play the move when the pause ends
    (games/actors/bot_turn.py): a sixth of the workers' CPU at the site's pace (operations.md).
    A searching bot thinks through the pause; several bots are served together and may search;
    and a game of diplomacy shows a bot's offer before its move: those jobs are sent at once."""
    if level is None or level in DEFAULT_BUDGETS or ruleset(game_name).offer_types:
        return 0.0
    return settings.BOT_MOVE_DELAY


def new_clock(deadlines: list, versions: list[int], version: int):
    """The deadline of the clocks that started at `version` (they all start together), as a
    datetime, or None if none did: only a new clock needs a timer announced."""
    started = [d for seat, d in enumerate(deadlines) if d is not None and versions[seat] == version]
    return datetime.fromtimestamp(min(started), tz=UTC) if started else None
