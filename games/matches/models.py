"""Playing for Points: a match is a series of games among the same seats up to a score.

A match owns no seat of its own: its games are ordinary games (rated, replayed, exported like any
other), tied to the match by `MatchGame`. The seats of the next game are copied from the last
one, so "the same seats" holds by construction. The rules as played: docs/matches.md.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

TARGET_MIN, TARGET_MAX = 5, 100
TARGET_CHOICES = (20, 30)
# Seconds between the end of a game and the start of the next when not everyone says "ready".
NEXT_GAME_SECONDS = 60


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Source(models.TextChoices):
        LIVE = "live", _("Played here")
        IMPORTED = "imported", _("Imported record")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    source = models.CharField(
        _("source"), max_length=10, choices=Source.choices, default=Source.LIVE
    )
    players = models.PositiveSmallIntegerField(_("players"))
    target = models.PositiveSmallIntegerField(_("target score"))
    next_game_seconds = models.PositiveSmallIntegerField(
        _("seconds before the next game"), default=NEXT_GAME_SECONDS
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    # After a game: when the next one starts even if not everyone said "ready"; null otherwise.
    next_game_at = models.DateTimeField(_("next game at"), null=True, blank=True)
    # Seats of people who said "ready for the next game" since the last game ended.
    ready = models.JSONField(_("ready seats"), default=list, blank=True)
    # {"winners": [seat, ...], "points": [total per seat], "decided_by": "points" | "decider"}.
    result = models.JSONField(_("result"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(target__gte=TARGET_MIN, target__lte=TARGET_MAX),
                name="match_target_5_to_100",
            ),
        ]

    def __str__(self) -> str:
        return f"match #{self.pk} (to {self.target}, {self.status})"


class MatchGame(models.Model):
    """One game of a match: a game for points, or the decider among players tied at the top."""

    # No index of its own: the unique (match, number) begins with it.
    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="entries",
        db_index=False,
    )
    game = models.OneToOneField(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="match_entry"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    decider = models.BooleanField(_("decider"), default=False)
    # The match seat of each of the game's seats: [0, 1, ...] for a game for points; the tied
    # players' match seats for a decider, which seats only them.
    seats = models.JSONField(_("match seats"), default=list)
    # Points per match seat once the game is over and scored (null before; a decider scores none).
    points = models.JSONField(_("points"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game of a match")
        verbose_name_plural = _("games of matches")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number}"
