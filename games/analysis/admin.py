"""The analyses in the admin: what each cost, which failed and why, and an action that asks the
failed, outdated or stalled ones again (as a person's request would). Only finished games are
ever analysed, so nothing here is secret; the URL filters are still refused on a game's secrets,
as on every admin page."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.analysis.models import Analysis
from games.analysis.service import request_analysis, stalled
from games.staff.admin_filters import NumberSearch, SecretsStayHidden


def needs_asking_again(analysis: Analysis) -> bool:
    return analysis.restarts_on_request or stalled(analysis)


@admin.action(description=_("Analyse again (the failed, outdated or stalled ones)"))
def analyse_again(modeladmin, request, queryset):
    chosen = [
        analysis for analysis in queryset.select_related("game") if needs_asking_again(analysis)
    ]
    for analysis in chosen:
        request_analysis(analysis.game, request.user)
    left = queryset.count() - len(chosen)
    modeladmin.message_user(
        request,
        ngettext(
            "%(count)d analysis asked again (%(left)d unchanged).",
            "%(count)d analyses asked again (%(left)d unchanged).",
            len(chosen),
        )
        % {"count": len(chosen), "left": left},
    )


@admin.register(Analysis)
class AnalysisAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    list_display = (
        "game",
        "status",
        "search_version",
        "decisions",
        "iterations",
        "cost_seconds",
        "requested_by",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "search_version")
    search_fields = ("requested_by__username", "error")
    list_select_related = ("game", "requested_by")
    raw_id_fields = ("game", "requested_by")
    date_hierarchy = "created_at"
    actions = [analyse_again]
    # Written by the job alone: staff read them, and act through "Analyse again".
    readonly_fields = (
        "status",
        "iterations",
        "search_version",
        "progress",
        "total",
        "results",
        "cost_seconds",
        "error",
        "created_at",
        "updated_at",
        "finished_at",
    )

    @admin.display(description=_("decisions"))
    def decisions(self, analysis):
        return f"{analysis.progress}/{analysis.total}"
