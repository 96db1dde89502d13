"""The staff dashboard: the site's figures on one page, for staff only; the figures that count
games are given for each game too."""

from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.analysis.figures import analysis_figures
from games.models import Game
from games.staff import dashboard


@staff_member_required
def staff_dashboard(request):
    per_day = dashboard.finished_per_day()
    context = {
        "playing": list(dashboard.games_in_progress()),
        "open_tables": dashboard.open_tables_count(),
        "per_game": dashboard.games_per_ruleset(),
        "connected": dashboard.people_connected(),
        "per_day": per_day,
        "finished_total": sum(point["count"] for point in per_day),
        "chart": dashboard.chart_bars(per_day),
        "latency_rows": latency_rows(dashboard.bot_latency()),
        "queues": dashboard.queue_depths(),
        "analysis": analysis_figures(),
        "win_rates": win_rate_rows(),
    }
    return render(request, "staff/dashboard.html", context)


def win_rate_rows() -> list[dict]:
    """Each game's bot win rates by level (a level's strength at one game says nothing of the
    other), the game named on each row."""
    return [
        {**row, "game": label, "win_percent": 100 * row["win_rate"]}
        for name, label in Game.Ruleset.choices
        for row in dashboard.bot_win_rates(name)
    ]


def latency_rows(latency: dict) -> list[tuple[str, dict]]:
    return [(_("Last 24 hours"), latency["last_24h"]), (_("All time"), latency["all_time"])]
