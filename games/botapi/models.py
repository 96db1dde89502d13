"""Bot accounts, their personal access tokens and the challenges people send them.

A bot account is an ordinary user row marked by a `BotAccount`: it sits at tables, is rated and
shows in history like anyone, but it plays through the Bot API only (docs/bot-api.md). Its
password is unusable and its log-in is refused with a clear message (games.botapi.auth).

A token is shown once, when made: only its SHA-256 digest is stored, with a short visible prefix
so that people can tell their tokens apart in lists.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

SCOPE_PLAY = "bot:play"
SCOPE_CHALLENGE = "challenge:write"
SCOPES = {
    SCOPE_PLAY: _("Play: the event stream, game states and moves (HTTP and websocket)"),
    SCOPE_CHALLENGE: _("Tables: accept and decline challenges, open and join tables"),
}


class BotAccount(models.Model):
    """The mark of a bot account. `owner`: the person who made it (None when an account
    upgraded itself: its tokens are then revoked by staff, or through the API)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("bot account"),
        on_delete=models.CASCADE,
        related_name="bot_account",
        primary_key=True,
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_bots",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return self.user.username


class AccessToken(models.Model):
    """A personal access token of a bot account: its digest, its scopes, and whether it was
    revoked (by whom and when)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        related_name="access_tokens",
    )
    name = models.CharField(_("name"), max_length=60)
    # The start of the token as shown in lists ("cdt_Ab3x…"); not enough to use it.
    prefix = models.CharField(_("prefix"), max_length=16)
    digest = models.CharField(_("SHA-256 digest"), max_length=64, unique=True, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id}: {self.name})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes


class Challenge(models.Model):
    """A person's "Play against this bot": a table where the challenger sits and the bot's seat
    is reserved for it, until the bot accepts (it takes the seat) or declines (the table closes)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the bot")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    game = models.OneToOneField(
        "games.Game", verbose_name=_("table"), on_delete=models.CASCADE, related_name="challenge"
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    bot = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("bot account"),
        on_delete=models.CASCADE,
        related_name="challenges",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        return f"#{self.game_id} → {self.bot_id} ({self.status})"
