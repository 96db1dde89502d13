"""Table talk: the chat of a game and of its table in the lobby (docs/protocol.md, "Chat").

Every message is stored with its game, in one of three rooms: the table's room while the table
waits in the lobby, then, once the game is played, the players' room (seated players only) and
the spectators' room (everyone else), kept apart as on lichess. Messages are text, never HTML:
clients set them as text. A fixed phrase (a bot's "Good game") is stored by its key and
translated for each reader.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 300


class Room(models.TextChoices):
    TABLE = "table", _("table")
    PLAYERS = "players", _("players")
    SPECTATORS = "spectators", _("spectators")


class Phrase(models.TextChoices):
    """Fixed phrases a bot may say (the only thing bots ever say)."""

    GOOD_GAME = "good_game", _("Good game")


class ChatMessage(models.Model):
    # No index of its own: the index on (game, room, created_at) begins with it.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("game"),
        db_index=False,
    )
    room = models.CharField(_("room"), max_length=12, choices=Room.choices)
    # A person's message has its author; a bot's phrase has none, only its seat.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    phrase = models.CharField(_("phrase"), max_length=20, choices=Phrase.choices, blank=True)
    deleted = models.BooleanField(_("deleted by staff"), default=False)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["game", "room", "created_at"])]
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"#{self.pk} {self.room}: {self.text or self.phrase}"


class ChatMute(models.Model):
    """One person no longer sees another's messages (theirs alone: the other is not told)."""

    # No index of its own: the unique (user, muted) begins with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        db_index=False,
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
        ]

    def __str__(self):
        return f"{self.user} mutes {self.muted}"


class ChatSilence(models.Model):
    """A user staff have silenced site-wide: they may read every chat but post in none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_silence",
        verbose_name=_("user"),
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("silenced by"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("silenced user")
        verbose_name_plural = _("silenced users")

    def __str__(self):
        return str(self.user)
