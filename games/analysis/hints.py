"""A hint: the search's suggested move for a person's current decision, from their own view.

Only where it cannot help anyone against another person: the asker is seated in a game being
played whose every other seat is one of the site's bots (a Bot API account or a stand-in for a
person counts as a person). Such a game is never rated (games.ratings.rate rates games that at least
two people played), so a hint changes no rating. Hints are counted per account, at most
`HINTS_PER_MINUTE` in any minute: a slot is taken before the search, in one step shared by every
process (games/limits/throttles.py), so hints asked for together cannot pass the limit.

The search itself is a job on the background queue (games/analysis/hint_search.py): the asker is
given a URL where the answer appears once a worker found it (static/js/game/hint.js reads it).
"""

from django.conf import settings
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from games import jobs
from games.analysis import hint_search
from games.analysis.hint_words import hint_text
from games.limits.throttles import Count, Taken, take
from games.models import Game
from games.rules_api import ruleset_of
from games.services import load_state

DEFAULT_HINTS_PER_MINUTE = 6


class HintRefused(Exception):
    """A hint refused: `code` (refusal_messages) and the HTTP status."""

    def __init__(self, code: str, status: int):
        super().__init__(code)
        self.code = code
        self.status = status

    @property
    def message(self) -> str:
        return refusal_messages()[self.code]


def refusal_messages() -> dict:
    return {
        "not_analysed": _("Hints are given in Condottiere games only."),
        "not_playing": _("Hints are given only while the game is being played."),
        "not_seated": _("Only a player seated at this table may ask for a hint."),
        "not_bots_only": _(
            "Hints are given only in unrated games against the site's bots, "
            "never when another person plays."
        ),
        "not_your_turn": _("You have no decision to make right now."),
        "too_many": _("Too many hints: wait a minute before asking again."),
    }


def hints_per_minute() -> int:
    return int(getattr(settings, "HINTS_PER_MINUTE", DEFAULT_HINTS_PER_MINUTE))


def hint_seat(game: Game, user) -> int:
    """The asker's seat if a hint may be given in this game at all; else HintRefused. The
    computer's search knows Condottiere only (games.rules_api: `analysed`)."""
    if not ruleset_of(game).analysed:
        raise HintRefused("not_analysed", 409)
    if game.status != Game.Status.PLAYING:
        raise HintRefused("not_playing", 409)
    seats = list(game.seats.all())
    own = [seat.index for seat in seats if user.is_authenticated and seat.user_id == user.pk]
    if not own:
        raise HintRefused("not_seated", 403)
    others = [seat for seat in seats if seat.index != own[0]]
    if any(seat.user_id is not None or not seat.bot_level for seat in others):
        raise HintRefused("not_bots_only", 403)
    return own[0]


def take_hint_slot(user) -> Taken:
    return take(Count("analysis-hints", str(user.pk), hints_per_minute(), 60))


def ask(request, game: Game) -> dict:
    """Ask for a hint at the asker's decision now: checked and counted here, searched by the
    job "hint" on the background queue (games.analysis.hint_search), never by this process.
    Returns {"status": "pending", "version", "seat", "url"}: the URL to read the answer at."""
    seat = hint_seat(game, request.user)
    taken = take_hint_slot(request.user)
    if taken.refusal:
        raise HintRefused("too_many", 429)
    view = ruleset_of(game).view_for(load_state(game), seat)
    if not view["legal_actions"]:
        taken.give_back()  # no search, no hint
        raise HintRefused("not_your_turn", 409)
    token = hint_search.open_entry(request.user, game, seat)
    jobs.later(hint_search.JOB, token)
    return {
        "status": hint_search.PENDING,
        "version": game.version,
        "seat": seat,
        "url": reverse("analysis_hint_answer", args=[game.pk, token]),
    }


def answer(request, game: Game, token: str) -> tuple[dict, int]:
    """The hint `token` as its asker reads it, and the HTTP status: 202 while it is searched,
    200 with {"version", "seat", "action", "advice", "reason", "text", "mark"} once
    found (games.analysis.hint_words), 409 if the game moved on first;
    404 for a hint that is not the asker's (or no longer kept)."""
    entry = hint_search.read_entry(token)
    if entry is None or entry["user"] != request.user.pk or entry["game"] != game.pk:
        raise Http404("no such hint")
    if entry["status"] == hint_search.PENDING:
        return {"status": hint_search.PENDING}, 202
    if entry["status"] == hint_search.STALE:
        return {"error": "stale", "message": _("The game moved on: ask again.")}, 409
    view = ruleset_of(game).view_for(load_state(game), entry["seat"])
    words = hint_text(view, entry["action"], entry.get("chance"), entry.get("other"))
    found = {
        "status": hint_search.DONE,
        "version": entry["version"],
        "seat": entry["seat"],
        "action": entry["action"],
        **words,
    }
    return found, 200
