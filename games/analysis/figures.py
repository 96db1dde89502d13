"""The computer analysis's figures for the staff dashboard: what waits, what failed or stalled,
what an older search made, and what the search cost over the last day (it runs on the same
workers as the bots' turns, so its cost is the operator's to watch)."""

from datetime import timedelta

from django.db.models import Count, Sum
from django.utils import timezone

from ai.analysis import SEARCH_VERSION
from games.analysis.models import Analysis
from games.analysis.runner import ACTIVE
from games.analysis.service import STALLED_AFTER


def analysis_figures(now=None) -> dict:
    """Analyses per status, the stalled and outdated ones, and the last 24 hours' finished
    analyses with their search time (in all, per game and per decision)."""
    now = now or timezone.now()
    per_status = dict(Analysis.objects.values_list("status").annotate(count=Count("pk")).order_by())
    return {
        **{status: per_status.get(status, 0) for status in Analysis.Status.values},
        "stalled": Analysis.objects.filter(
            status__in=ACTIVE, updated_at__lt=now - STALLED_AFTER
        ).count(),
        "outdated": Analysis.objects.filter(
            status=Analysis.Status.DONE, search_version__lt=SEARCH_VERSION
        ).count(),
        "last_24h": finished_since(now - timedelta(hours=24)),
    }


def finished_since(since) -> dict:
    totals = Analysis.objects.filter(status=Analysis.Status.DONE, finished_at__gte=since).aggregate(
        games=Count("pk"), seconds=Sum("cost_seconds"), decisions=Sum("progress")
    )
    games, seconds, decisions = totals["games"], totals["seconds"] or 0.0, totals["decisions"] or 0
    return {
        "games": games,
        "search_seconds": seconds,
        "seconds_per_game": seconds / games if games else None,
        "ms_per_decision": 1000 * seconds / decisions if decisions else None,
    }
