"""Bot turns: one plain function, two runners.

`run_bot_turn(game_id, version)` is the whole of a bot's turn. It is idempotent, keyed by
(game, version): it returns at once if the game moved on, is not being played, or the seat to act
is not played by a bot. Otherwise it asks the seat's bot for a move from that seat's VIEW only,
waits so that every bot decision takes `BOT_MOVE_DELAY` in all (thinking included — the same for
every decision, so that the pause never tells anyone what was decided), and submits through the one
way in. A StaleVersion there is normal: someone else moved first.

Runners: with `BOT_TURNS == "celery"` the Celery task `ai.tasks.play_bot_turn` (on any worker);
with "in_process" a small thread pool in this process, off the event loop — never Celery's eager
mode.
"""

import hashlib
import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.models import Q
from django.utils import timezone

from games.engine import current_player, view_for
from games.models import Game, Seat
from games.services.errors import ServiceError, StaleVersion
from games.services.frames import STANDIN_LEVEL, load_state

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "random"
# Seconds beyond a bot's move delay and thinking time after which its turn counts as lost.
STALLED_AFTER = 30
# Bot turns of every game in this process share these threads (embedded profile only).
IN_PROCESS_WORKERS = 4
_executor = ThreadPoolExecutor(max_workers=IN_PROCESS_WORKERS, thread_name_prefix="bot-turn")


def derived_seed(game_seed: int, version: int) -> int:
    """The bot's seed for the decision at this version: reproducible, different every turn."""
    digest = hashlib.blake2b(f"{game_seed}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def make_seat_bot(level: str, seed: int):
    """The bot of this level, or the random bot while that level is not written yet."""
    import ai

    try:
        return ai.make_bot(level, seed=seed, time_limit=settings.BOT_THINK_SECONDS)
    except (NotImplementedError, ValueError):
        log.warning("bot level %r is not available: playing %r", level, FALLBACK_LEVEL)
        return ai.make_bot(FALLBACK_LEVEL, seed=seed)


def choose_move(game: Game, state, seat: int, level: str, version: int) -> dict:
    """A bot's move for `seat`, chosen from that seat's view and nothing else."""
    bot = make_seat_bot(level, derived_seed(game.seed, version))
    return bot.choose(view_for(state, seat))


def acting_seat(game: Game, version: int):
    """(state, seat row) of the seat that must act, if the game still waits at `version`."""
    if game.status != Game.Status.PLAYING or game.version != version:
        return None
    state = load_state(game)
    index = current_player(state)
    if index is None:
        return None
    seat = Seat.objects.filter(game=game, index=index).first()
    return None if seat is None else (state, seat)


def run_bot_turn(game_id: int, version: int, *, scheduled_at: float | None = None) -> str:
    """Play the bot's move at `version`, if it is still a bot's turn there. Returns what happened
    ("moved", "stale", "not_bot_turn", "refused: <code>") for logs and tests."""
    from games.services import submit_action  # services schedules us: import late

    started = time.monotonic()
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "no_game"
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    state, seat = found
    if not seat.plays_as_bot:
        return "not_bot_turn"
    action = choose_move(game, state, seat.index, seat.bot_level or STANDIN_LEVEL, version)
    time.sleep(max(0.0, settings.BOT_MOVE_DELAY - (time.monotonic() - started)))
    latency_ms = int(1000 * (time.time() - scheduled_at)) if scheduled_at else None
    try:
        submit_action(
            game_id,
            seat.index,
            action,
            expected_version=version,
            actor="bot" if seat.is_bot else "standin",
            latency_ms=max(0, latency_ms) if latency_ms is not None else None,
        )
    except StaleVersion:
        return "stale"
    except ServiceError as error:
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    return "moved"


def in_thread(function, *args, **kwargs):
    """Run a job on this thread with its own database connection, closed afterwards."""
    close_old_connections()
    try:
        return function(*args, **kwargs)
    except Exception:
        log.exception("%s%s failed", function.__name__, args)
        raise
    finally:
        connections.close_all()


# Jobs submitted to the pool and not finished yet (for wait_until_idle).
_running: set[Future] = set()
_running_lock = threading.Lock()


def _submit(function, *args, **kwargs) -> None:
    future = _executor.submit(in_thread, function, *args, **kwargs)
    with _running_lock:
        _running.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future) -> None:
    with _running_lock:
        _running.discard(future)


def run_in_process(function, *args, delay: float = 0.0, **kwargs) -> None:
    """Run `function` in the pool, after `delay` seconds if any (a daemon Timer waits)."""
    if delay <= 0:
        _submit(function, *args, **kwargs)
        return
    timer = threading.Timer(delay, _submit, (function, *args), kwargs)
    timer.daemon = True
    timer.start()


def wait_until_idle(timeout: float = 30.0) -> bool:
    """Wait until no job submitted to the in-process pool is queued or running; True if so.

    Follow-up jobs (the next bot turn, a rating update) keep being added while a game plays, so
    this waits in rounds. Tests call it before the test database is emptied, which must not
    race a job that still writes.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _running_lock:
            pending = list(_running)
        if not pending:
            return True
        wait(pending, timeout=max(0.0, deadline - time.monotonic()))
    return False


def schedule_bot_turn(game_id: int, version: int) -> None:
    """Have the bot that must act at `version` move, on the configured runner."""
    scheduled_at = time.time()
    if settings.BOT_TURNS == "celery":
        from ai.tasks import play_bot_turn

        play_bot_turn.apply_async(
            (game_id, version),
            {"scheduled_at": scheduled_at},
            task_id=f"bot-turn-{game_id}-{version}",
        )
    else:
        run_in_process(run_bot_turn, game_id, version, scheduled_at=scheduled_at)


def bot_patience() -> float:
    """Seconds a bot may keep a game waiting before its turn counts as lost."""
    return settings.BOT_MOVE_DELAY + settings.BOT_THINK_SECONDS + STALLED_AFTER


def resume_stalled_bot_turn(game_id: int) -> bool:
    """Send again the turn of a bot that has kept a game waiting far longer than a move takes.

    A queued bot turn can be lost (a Redis restart before a worker took it); the game would
    then wait for ever. The game consumer calls this when a socket connects or asks to sync,
    so anyone opening the game wakes it. Safe to repeat: a turn is keyed by (game, version),
    and a duplicate finds the version moved on. Returns whether a turn was sent.
    """
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and resume_if_stalled(game)


def resume_if_stalled(game: Game) -> bool:
    """`resume_stalled_bot_turn` for a game already loaded."""
    if (timezone.now() - game.updated_at).total_seconds() < bot_patience():
        return False
    found = acting_seat(game, game.version)
    if found is None or not found[1].plays_as_bot:
        return False
    log.warning("game %s waited on a bot at v%s: sending its turn again", game.pk, game.version)
    schedule_bot_turn(game.pk, game.version)
    return True


def resume_stalled_games() -> list[int]:
    """Send again every lost bot turn, including in games nobody is watching (a periodic Celery
    beat task; see CELERY_BEAT_SCHEDULE). Returns the games whose turn was sent."""
    waiting_since = timezone.now() - timedelta(seconds=bot_patience())
    # Only games a bot plays in: a people-only game where someone thinks long is no candidate,
    # and each candidate costs a state load.
    may_have_bots = Q(seats__bot_level__gt="") | Q(seats__standin=True)
    candidates = (
        Game.objects.filter(status=Game.Status.PLAYING, updated_at__lt=waiting_since)
        .filter(may_have_bots)
        .distinct()
    )
    return [game.pk for game in candidates if resume_if_stalled(game)]
