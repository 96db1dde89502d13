"""The job "hint": a hint's search, run by a worker of the background queue, never by the web
process (a search takes about a second of CPU; eight at once in Daphne made every page wait).

A hint asked for is an entry in the cache (Redis in production, shared by the web processes and
the workers) under a random token that only the asker is given: who asked, for which game, seat
and version, and once the search is done, its action. The entry lapses after KEEP_SECONDS. The
job is idempotent: a second run finds the entry done and does nothing; a game that moved on
before the search makes the entry stale instead (the hint would be for a decision gone by).
"""

import secrets

from django.conf import settings
from django.core.cache import cache

from ai.analysis import analyse_view
from games.models import Game
from games.rules_api import ruleset_of
from games.services import load_state

JOB = "hint"
PENDING, DONE, STALE = "pending", "done", "stale"
# The asker reads the answer within seconds; an entry nobody read goes away after this long.
KEEP_SECONDS = 300
DEFAULT_HINT_ITERATIONS = 1000
HINT_SEED = 0


def hint_iterations() -> int:
    return int(getattr(settings, "HINT_ITERATIONS", DEFAULT_HINT_ITERATIONS))


def entry_key(token: str) -> str:
    return f"hint:{token}"


def open_entry(user, game: Game, seat: int) -> str:
    """A pending hint of `user` for `seat` of `game` at its current version; returns its token."""
    token = secrets.token_urlsafe(16)
    entry = {
        "user": user.pk,
        "game": game.pk,
        "seat": seat,
        "version": game.version,
        "status": PENDING,
    }
    cache.set(entry_key(token), entry, KEEP_SECONDS)
    return token


def read_entry(token: str) -> dict | None:
    return cache.get(entry_key(token))


def run_hint(token: str) -> str:
    """The job: search the pending hint `token` and keep what it found; returns its status."""
    entry = read_entry(token)
    if entry is None or entry["status"] != PENDING:
        return "nothing to do"
    found = search(entry)
    cache.set(entry_key(token), {**entry, **found}, KEEP_SECONDS)
    return found["status"]


def search(entry: dict) -> dict:
    """{"status": "done", "action", "chance", "other"} for the decision the entry was asked at
    (the move `hard`'s search plays, the estimated win chance after it and after the best other
    move the search tried, None if none), or stale."""
    game = Game.objects.filter(pk=entry["game"]).first()
    if game is None or game.status != Game.Status.PLAYING or game.version != entry["version"]:
        return {"status": STALE}
    view = ruleset_of(game).view_for(load_state(game), entry["seat"])
    if not view["legal_actions"]:
        return {"status": STALE}
    if len(view["legal_actions"]) == 1:
        return {"status": DONE, "action": view["legal_actions"][0], "chance": None, "other": None}
    found = analyse_view(view, iterations=hint_iterations(), seed=HINT_SEED)
    return {
        "status": DONE,
        "action": found.best,
        "chance": found.best_value,
        "other": found.runner_up_value(),
    }
