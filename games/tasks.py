"""The named jobs, the one list of them: each is a plain idempotent function, registered with the
job port (`games.jobs`) for both runners and as the Celery task "games.<name>".

Who announces each: the services after a commit ("bot_turn", "turn_expiry", "rating"), a bot
turn ("bot_move", after the bot's pause), the lobby ("autofill"), Celery beat or the embedded
timer ("sweep"), a match's finished game and its "next game" timer ("match_next_game"), and the
job port itself ("relay", the hops of a long delay), a request for a finished game's computer
analysis and each of its slices ("analysis", games/analysis/runner.py), a hint asked for in a
game against the site's bots ("hint", games/analysis/hint_search.py), and a password reset
request ("password_reset_mail", games/accounts/email.py).

Every job goes to the "play" queue unless it says `queue=jobs.BACKGROUND`: heavy work that no
live game waits on (an analysis, a hint's search) goes there, so that it never delays a bot's
reply. An analysis's slices also yield to the rest of that queue, so that a hint or a mail is
served before the slices announced ahead of it.
"""

from games import jobs
from games.accounts.email import RESET_MAIL_JOB, send_password_reset
from games.actors.bot_turn import play_bot_move, run_bot_turn
from games.actors.turn_expiry import expire_turn
from games.analysis.hint_search import JOB as HINT_JOB
from games.analysis.hint_search import run_hint
from games.analysis.runner import JOB as ANALYSIS_JOB
from games.analysis.runner import run_slice
from games.jobs import job, sweep
from games.lobby.tables import autofill_table
from games.matches.services import NEXT_GAME_JOB, advance
from games.ratings.rate import rate_and_tell
from games.sockets import presence


@job("bot_turn")
def bot_turn(
    game_id: int,
    version: int,
    scheduled_at: float | None = None,
    level: str | None = None,
    seed: int | None = None,
    snapshot: str | None = None,
    game_name: str = "condottiere",
    since: int | None = None,
) -> str:
    """The bots' moves at (game, version); a no-op if that version is gone. When one bot acts,
    the move that made the version passes its level, the game's seed and the snapshot
    (server-side only: the bot still sees nothing but its seat's view). `since`: serve the bot
    seats whose decision began at that version or later (None: this version)."""
    known = (seed, snapshot) if seed is not None and snapshot else None
    return run_bot_turn(game_id, version, scheduled_at, level, known, game_name, since)


@job("bot_move")
def bot_move(game_id: int, version: int, seat: int, action: dict, asked_at: float) -> str:
    """A bot's chosen move, due once its pause is over; a no-op if the game moved on."""
    return play_bot_move(game_id, version, seat, action, asked_at)


@job("turn_expiry")
def turn_expiry(game_id: int, version: int) -> str:
    """A turn timer ran out at (game, version); a no-op if the game moved on or it is not due."""
    return expire_turn(game_id, version)


@job("rating")
def rating(game_id: int) -> bool:
    """Rate a finished game and tell its sockets; a no-op when it was rated already."""
    return rate_and_tell(game_id)


@job("autofill")
def autofill(game_id: int) -> bool:
    """Fill a table's open seats with bots once its wait is over; a no-op before or after."""
    return autofill_table(game_id)


@job(NEXT_GAME_JOB)
def match_next_game(game_id: int) -> str:
    """A game of a match is over, or its "next game" timer ran out: score the game once, and
    open the match's next game when everyone is ready or the timer is over (games.matches)."""
    return advance(game_id)


@job("sweep")
def sweep_due_work() -> dict[str, list[int]]:
    """Announce again whatever is overdue: turn timers, bot turns, autofills and matches' next
    games (games.jobs.sweep); and delete the presence rows that crashed servers left behind
    (games.sockets.presence)."""
    due = sweep.sweep()
    due["match_next_game"] = sweep.due_match_games()
    presence.purge_stale()
    return due


@job(jobs.RELAY)
def relay(name: str, args: list, due_at: float) -> None:
    """A job whose delay is longer than one message may wait on the broker, after one hop
    (games.jobs.longest_countdown): sent on for the rest of its delay."""
    jobs.relay(name, args, due_at)


@job(ANALYSIS_JOB, queue=jobs.BACKGROUND, yields=True)
def analysis(analysis_id: int) -> str:
    """One slice of a finished game's computer analysis (a few seconds of search from each
    deciding seat's view); it announces the next slice itself, behind the work queued
    meanwhile (games.analysis.runner)."""
    return run_slice(analysis_id)


@job(HINT_JOB, queue=jobs.BACKGROUND)
def hint(token: str) -> str:
    """A hint's search for a person playing the site's bots, off the web process; the asker's
    page reads the answer (games.analysis.hint_search)."""
    return run_hint(token)


@job(RESET_MAIL_JOB, queue=jobs.BACKGROUND)
def password_reset_mail(address: str, domain: str, use_https: bool, language: str) -> None:
    """The reset link mailed to the accounts of a verified address, off the request: an SMTP
    server's second must not tell the asker whether an account has the address."""
    send_password_reset(address, domain, use_https, language)
