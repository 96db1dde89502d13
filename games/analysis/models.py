"""One computer analysis per finished game: asked once, run by the job "analysis", kept."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ai.analysis import SEARCH_VERSION
from games.models import Game


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="analysis"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The search's iterations per decision, fixed when asked, so the job's cost and its answers
    # are the same on any machine and on every worker that resumes it.
    iterations = models.PositiveIntegerField(_("iterations per decision"))
    # The search that made it (ai.analysis.SEARCH_VERSION when asked): one made by an older search
    # is shown as outdated and may be asked again. Rows from before this field were made by the
    # first search, hence the default.
    search_version = models.PositiveSmallIntegerField(_("search version"), default=1)
    # Decisions analysed so far, of `total` (the game's non-forced decisions, capped).
    progress = models.PositiveIntegerField(_("decisions analysed"), default=0)
    total = models.PositiveIntegerField(_("decisions to analyse"), default=0)
    # {"decisions": [...], "truncated": bool}: see games/analysis/runner.py.
    results = models.JSONField(_("results"), default=dict, blank=True)
    cost_seconds = models.FloatField(_("seconds of search"), default=0.0)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("requested"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}: {self.status} {self.progress}/{self.total}"

    @property
    def outdated(self) -> bool:
        """Finished by a search older than today's: its marks and "best was ..." are not what
        the site's bot would say now."""
        return self.status == self.Status.DONE and self.search_version < SEARCH_VERSION

    @property
    def restarts_on_request(self) -> bool:
        """Whether a person's request starts it again from the start: it failed, or an older
        search made it (games.analysis.service.request_analysis)."""
        return self.status == self.Status.FAILED or self.outdated
