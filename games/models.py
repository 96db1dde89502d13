"""The platform's models: players, games, their seats and the append-only action log.

The database is the truth. A game's `snapshot` is the engine's full JSON state (every hidden
card): it never leaves the server. Clients and bots only ever receive `view_for(state, seat)`.
"""

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.ratings.scale import display_change, display_rating
from games.words.bot_names import bot_level_name, bot_seat_name, condottiere_name

SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
SEAT_COLOUR_LABELS = {
    "red": _("Red"),
    "blue": _("Blue"),
    "green": _("Green"),
    "yellow": _("Yellow"),
    "purple": _("Purple"),
    "orange": _("Orange"),
}


class User(AbstractUser):
    """A person who plays. A custom user model from the start, as Django advises."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see. Your username is used when empty."),
    )
    # `email` (Django's field) holds only an address proven by its verification link, so that
    # password resets go to verified addresses alone; a new address waits here until its link
    # is followed (docs/accounts.md).
    pending_email = models.EmailField(_("e-mail address to verify"), blank=True)
    # Set when the person deleted their account: the row stays, scrubbed, so that their seats,
    # games and everyone's ratings stay as they were (games/accounts/deletion.py).
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)

    class Meta(AbstractUser.Meta):
        constraints = [
            # One account per verified address, whatever its case (the reset form matches
            # addresses case-insensitively).
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="user_unique_verified_email",
            ),
        ]

    @property
    def public_name(self) -> str:
        if self.deleted_at:
            # Not lazy: the name goes into JSON frames and records as well as pages.
            return gettext("Deleted player")
        return self.display_name or self.username

    @property
    def is_bot_account(self) -> bool:
        """A bot account of the public Bot API (games.botapi marks it with a BotAccount row,
        reached here by its reverse one-to-one name, so the core imports nothing of the app).
        Select it with `user__bot_account` to spare a query."""
        return hasattr(self, "bot_account")


def new_seed() -> int:
    """A random 63-bit seed: every shuffle of the game derives from it."""
    return secrets.randbits(63)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Game(models.Model):
    class Ruleset(models.TextChoices):
        # The names of games.rules_api.RULESETS; a game's is chosen at creation, never changed.
        CONDOTTIERE = "condottiere", "Condottiere"
        RENAISSANCE = "renaissance", "Renaissance"

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    ruleset = models.CharField(
        _("game"),
        max_length=16,
        choices=Ruleset.choices,
        default=Ruleset.CONDOTTIERE,
        db_index=True,
        editable=False,
    )
    players = models.PositiveSmallIntegerField(_("players"))
    # The engine's Options as a dict (draw_after_battle, bigger_kingdoms, ...).
    options = models.JSONField(_("optional rules"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"), default=new_seed)
    # Number of actions applied; every accepted action adds one (the log's last seq).
    version = models.PositiveIntegerField(_("version"), default=0)
    # The engine's full state as JSON text (GameState.to_json()); empty until the game starts.
    snapshot = models.TextField(_("snapshot"), blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    invite_code = models.CharField(
        _("invite code"), max_length=16, unique=True, default=new_invite_code
    )
    # Seconds per decision before a stand-in bot moves for an absent player; null = no timer.
    turn_seconds = models.PositiveIntegerField(_("seconds per decision"), null=True, blank=True)
    # The earliest deadline of a person's decision now awaited (the sweep looks for it).
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    # Per seat: the version at which the decision that seat is asked now began (a decision
    # may be made against any version since: games/services/decisions.py), and the moment it
    # times out as epoch seconds (null: no timer). Several seats may decide at once (the
    # Renaissance vote), each on its own clock.
    seat_versions = models.JSONField(default=list, blank=True, editable=False)
    seat_deadlines = models.JSONField(default=list, blank=True, editable=False)
    # "Play now": after autofill_at, the remaining open seats are filled with bots of this level.
    autofill_level = models.CharField(_("fill with bots"), max_length=16, blank=True)
    autofill_at = models.DateTimeField(_("fill with bots at"), null=True, blank=True)
    # The sweep's claim on this game's overdue work (games/jobs/sweep.py): until then, nobody else
    # announces it again.
    due_claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    # {"winners": [seat, ...], "regions": [count per seat], "reason": "..."} once finished.
    result = models.JSONField(_("result"), null=True, blank=True)

    class Source(models.TextChoices):
        LIVE = "live", _("Played here")
        IMPORTED = "imported", _("Imported record")

    # Imported records replay like any finished game but count for no one's history or rating.
    source = models.CharField(
        _("source"), max_length=10, choices=Source.choices, default=Source.LIVE, db_index=True
    )
    # The finished game this table replays with the same seats and settings: one rematch per
    # game, so a second request (or a second seat asking) finds it instead of opening another.
    rematch_of = models.OneToOneField(
        "self",
        verbose_name=_("rematch of"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=6), name="game_players_2_to_6"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} ({self.players}p, {self.status})"

    def group_name(self) -> str:
        """The channel-layer group of everyone watching this game."""
        return Game.group_name_of(self.pk)

    @staticmethod
    def group_name_of(game_id: int) -> str:
        """The group of the game `game_id`, without making a Game (its defaults draw a seed and
        an invitation code): every move's notice names it."""
        return f"game-{game_id}"


class Seat(models.Model):
    """One place at a table: a person, a bot, an invitation, or still open."""

    # No index of its own: the unique (game, index) begins with it.
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    # A bot seat has a level (random, easy, heuristic, medium, hard, expert) and no user.
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True)
    # An invitation keeps the seat for one user until they take it.
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reserved for"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations",
    )
    # A stand-in bot plays for a person who handed over the seat or let the timer run out.
    standin = models.BooleanField(_("stand-in bot playing"), default=False)
    joined_at = models.DateTimeField(_("joined"), null=True, blank=True)
    # The name an imported record gives this seat (no user, no bot behind it).
    record_name = models.CharField(_("name in the record"), max_length=60, blank=True)
    # The condottiere a bot seat is named after, when not the one drawn from the game's id
    # (games.words.bot_names): a bot of a match keeps the name of the match's first game.
    bot_name = models.CharField(_("bot's name"), max_length=30, blank=True)

    class Meta:
        ordering = ["game", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.index} {self.occupant_name()}"

    @property
    def colour(self) -> str:
        return SEAT_COLOURS[self.index]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def plays_as_bot(self) -> bool:
        """A bot chooses this seat's moves: a bot seat, or a person's seat with a stand-in."""
        return self.is_bot or self.standin

    def occupant_name(self) -> str:
        if self.user_id:
            return self.user.public_name
        if self.bot_level:
            return bot_seat_name(self.bot_level, self.condottiere)
        return self.record_name

    @property
    def condottiere(self) -> str:
        """The condottiere a bot seat is named after ("Colleoni"): the same on every page."""
        return self.bot_name or condottiere_name(self.game_id, self.index)


class Action(models.Model):
    """The append-only log: one row per accepted action, written before anyone is told."""

    class Actor(models.TextChoices):
        HUMAN = "human", _("Player")
        BOT = "bot", _("Bot")
        STANDIN = "standin", _("Stand-in bot")
        TIMER = "timer", _("Timer")

    # No index of its own (every move would write it): the unique (game, seq) begins with it.
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="actions",
        db_index=False,
    )
    # The game's version after this action: 1 for the first, unique per game.
    seq = models.PositiveIntegerField(_("sequence number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    # What a spectator may know of this action (a face-down card is "hidden"); null = nothing.
    public = models.JSONField(_("public record"), null=True, blank=True)
    actor = models.CharField(_("played by"), max_length=8, choices=Actor.choices)
    # For bots: milliseconds from scheduling the turn to submitting the move.
    latency_ms = models.PositiveIntegerField(_("latency (ms)"), null=True, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.action}"


class Rating(models.Model):
    """An OpenSkill (Plackett-Luce) rating in one game: of a person, or of a bot level as a
    whole. Each game has its own: one per (person, game) and per (bot level, game)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True)
    # The game rated (games.rules_api.RULESETS); the ratings from before Renaissance are
    # Condottiere's.
    ruleset = models.CharField(
        _("game"),
        max_length=16,
        choices=Game.Ruleset.choices,
        default=Game.Ruleset.CONDOTTIERE,
        db_index=True,
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, bot_level="")
                    | models.Q(user__isnull=True) & ~models.Q(bot_level="")
                ),
                name="rating_user_xor_bot",
            ),
            models.UniqueConstraint(
                fields=["user", "ruleset"],
                condition=models.Q(user__isnull=False),
                name="rating_one_per_user_and_game",
            ),
            models.UniqueConstraint(
                fields=["bot_level", "ruleset"],
                condition=models.Q(user__isnull=True),
                name="rating_one_per_bot_level_and_game",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.public_name if self.user_id else bot_level_name(self.bot_level)
        return f"{who}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """The raw conservative estimate, mu - 3 sigma (the admin and the ranking use it)."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The rating people read: 1500 for a newcomer (games.ratings.scale.display_rating)."""
        return display_rating(self.mu, self.sigma)


class RatingChange(models.Model):
    """One seat's rating change from one finished game: at most one per (game, seat)."""

    # No index of its own: the unique (game, seat) begins with it.
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.CASCADE, related_name="changes"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="rating_change_once_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat} {self.delta_text}"

    @property
    def ordinal_delta(self) -> float:
        return (self.mu_after - 3 * self.sigma_after) - (self.mu_before - 3 * self.sigma_before)

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def display_delta(self) -> int:
        """The change on the display scale: after minus before, as both are shown."""
        return display_change(self.mu_before, self.sigma_before, self.mu_after, self.sigma_after)

    @property
    def delta_text(self) -> str:
        """The change as players read it on the display scale, in the active language: whole
        points, "+" above zero, "0" for no change."""
        delta = self.display_delta
        return ("+" if delta > 0 else "") + number_format(delta)


class Presence(models.Model):
    """An open websocket: who is connected, to the lobby or to a game (for the dashboard)."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE)
    connected_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("connection")
        verbose_name_plural = _("connections")

    def __str__(self) -> str:
        return f"{self.user_id or 'anonymous'} @ {self.game_id or 'lobby'}"
