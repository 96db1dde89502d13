"""Asking for a game's analysis (once per game) and reading it back."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext

from ai.analysis import SEARCH_VERSION
from games import jobs
from games.accounts.quotas import OverQuota, QuotaRefusal, analysis_refusal
from games.analysis.marks import MARKS, seat_accuracy
from games.analysis.models import Analysis
from games.analysis.runner import ACTIVE, JOB, budget_iterations
from games.history.replay import StepLabels, replay_game_info
from games.models import Game
from games.rules_api import ruleset_of

# An analysis still queued or running that nothing has saved for this long was lost (a broker
# flushed, a worker killed before it announced the next slice): a new request announces it again.
STALLED_AFTER = timedelta(minutes=10)


class NotFinished(Exception):
    """Only a finished game is analysed (a game in progress would reveal its hidden cards)."""


# The computer's search knows Condottiere only (games.rules_api: `analysed`).
ONLY_CONDOTTIERE = gettext_lazy("Computer analysis is given for Condottiere games only.")
# The analysis.json status of such a game: none is asked, none may be.
NOT_OFFERED = "not_offered"


class NotAnalysed(Exception):
    """A game whose rules the computer's search does not know: never analysed, never hinted."""

    code = "not_analysed"
    message = ONLY_CONDOTTIERE


def check_analysed(game: Game) -> None:
    if not ruleset_of(game).analysed:
        raise NotAnalysed(game.pk)


def announce(analysis: Analysis) -> None:
    pk = analysis.pk
    transaction.on_commit(lambda: jobs.later(JOB, pk))


def request_analysis(game: Game, user) -> tuple[Analysis, bool]:
    """The game's analysis, asked for now if it never was: (analysis, whether this asked).

    A second request changes nothing, unless the analysis failed or is outdated (made by an older
    search: asked again from the start) or stalled (announced again where it stopped). Asking
    for new work is within the asker's quotas (`admit`), or OverQuota and nothing changes.
    NotAnalysed for a game of other rules than Condottiere's."""
    check_analysed(game)
    if game.status != Game.Status.FINISHED:
        raise NotFinished(game.pk)
    with transaction.atomic():
        # The asker's row first, then the analysis's: the order an account's deletion takes.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        analysis = Analysis.objects.select_for_update().filter(game=game).first()
        if analysis is not None and not analysis.restarts_on_request:
            if stalled(analysis):
                analysis.save(update_fields=["updated_at"])
                announce(analysis)
            return analysis, False
        admit(user)
        if analysis is not None:
            restart(analysis, user)
            return analysis, True
        analysis, created = Analysis.objects.get_or_create(
            game=game,
            defaults={
                "requested_by": user,
                "iterations": budget_iterations(),
                "search_version": SEARCH_VERSION,
            },
        )
        if created:
            announce(analysis)
    return analysis, created


def admit(user) -> None:
    """Let `user` queue one more analysis, or raise OverQuota: at most
    ANALYSES_QUEUED_PER_ACCOUNT of theirs queued or running, ANALYSES_PER_HOUR asked for.

    Called inside the request's transaction with the asker's row locked (as the lobby's table
    caps are), so that two requests of one account count one after the other and cannot both
    take the last place; the hourly slot is taken in one atomic step (games/accounts/quotas.py),
    only once the request is let into the queue."""
    cap = settings.ANALYSES_QUEUED_PER_ACCOUNT
    if cap and waiting_for(user) >= cap:
        raise OverQuota(queue_full(cap))
    refusal = analysis_refusal(user)
    if refusal is not None:
        raise OverQuota(refusal)


def waiting_for(user) -> int:
    """The analyses `user` asked for that are queued or running (a stalled one, lost with its
    job, no longer holds a place)."""
    return Analysis.objects.filter(
        requested_by=user,
        status__in=ACTIVE,
        updated_at__gte=timezone.now() - STALLED_AFTER,
    ).count()


def queue_full(cap: int) -> QuotaRefusal:
    message = ngettext(
        "You already have %(count)d computer analysis waiting: ask for another once it is done.",
        "You already have %(count)d computer analyses waiting: ask for another once one is done.",
        cap,
    ) % {"count": cap}
    return QuotaRefusal("too_many_waiting", message)


def stalled(analysis: Analysis) -> bool:
    return analysis.status in ACTIVE and analysis.updated_at < timezone.now() - STALLED_AFTER


def restart(analysis: Analysis, user) -> None:
    analysis.status = Analysis.Status.QUEUED
    analysis.requested_by = user
    analysis.progress = analysis.total = 0
    analysis.results = {}
    analysis.error = ""
    analysis.iterations = budget_iterations()
    analysis.search_version = SEARCH_VERSION
    analysis.cost_seconds = 0.0
    analysis.finished_at = None
    analysis.save()
    announce(analysis)


def seat_accuracies(decisions: list[dict], players: int) -> list[dict]:
    """Per seat: its accuracy (games.analysis.marks.seat_accuracy), its analysed moves and
    marks."""
    rows = []
    for seat in range(players):
        own = [entry for entry in decisions if entry["seat"] == seat]
        value = seat_accuracy(own)
        rows.append(
            {
                "seat": seat,
                "accuracy": None if value is None else round(value, 1),
                "moves": len(own),
                **{mark: sum(1 for entry in own if entry["mark"] == mark) for mark in MARKS},
            }
        )
    return rows


def analysis_payload(game: Game, analysis: Analysis | None, user) -> dict:
    """The analysis.json answer (docs/protocol.md, section 13); a game of other rules than
    Condottiere's has none and may not ask for one, and says why."""
    if not ruleset_of(game).analysed:
        return {"status": NOT_OFFERED, "can_request": False, "message": str(ONLY_CONDOTTIERE)}
    can_request = bool(user and user.is_authenticated)
    if analysis is None:
        return {"status": "none", "can_request": can_request}
    payload = {
        "status": analysis.status,
        "can_request": can_request and analysis.restarts_on_request,
        "outdated": analysis.outdated,
        "progress": analysis.progress,
        "total": analysis.total,
        "iterations": analysis.iterations,
        "cost_seconds": round(analysis.cost_seconds, 2),
    }
    if analysis.status != Analysis.Status.DONE:
        return payload
    decisions = (analysis.results or {}).get("decisions", [])
    labels = StepLabels(replay_game_info(game)["seats"])
    payload["truncated"] = bool((analysis.results or {}).get("truncated"))
    payload["decisions"] = [
        {**entry, "best_label": labels.action(entry["seat"], entry["best"])} for entry in decisions
    ]
    payload["accuracy"] = seat_accuracies(decisions, game.players)
    return payload
