"""The Django admin for every model, with the staff's actions on games and seats.

A game's `snapshot` is never shown: it holds every hidden card. For the same reason the seed and
the private moves of a game still being played stay hidden (the seed alone rebuilds the deal);
once a game is over, staff may see everything (and replay it).
"""

import json

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.forms.tables import OPTION_LABELS
from games.models import Action, Game, Presence, Rating, RatingChange, Seat, User
from games.ratings.rate import recompute_all
from games.services import hand_to_bot
from games.services.errors import ServiceError
from games.services.lifecycle import abort_game
from games.staff.admin_filters import (
    OPTION_FILTERS,
    ActionsWithoutSelection,
    BotLevelFilter,
    NumberSearch,
    SecretsStayHidden,
)
from games.words.bot_names import bot_level_name

# The game page shows at most this many of the latest actions; the rest via the Action list.
ACTIONS_SHOWN = 30
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


@admin.action(description=_("Recompute ratings (all of them, from every finished game)"))
def recompute_ratings(modeladmin, request, queryset):
    games = recompute_all()
    modeladmin.message_user(
        request, _("Ratings recomputed from %(count)d games.") % {"count": games}
    )


# --- Users ---------------------------------------------------------------------------------------


@admin.register(User)
class UserAdmin(SecretsStayHidden, DjangoUserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *DjangoUserAdmin.fieldsets[:1],
        (_("Personal info"), {"fields": ("display_name", "first_name", "last_name", "email")}),
        *DjangoUserAdmin.fieldsets[2:],
    )


# --- Games, seats, actions -----------------------------------------------------------------------


def options_summary(options: dict) -> str:
    """Condottiere's optional rules that are on."""
    names = [str(OPTION_LABELS[key]) for key, on in (options or {}).items() if on]
    return ", ".join(names) or str(_("Standard rules"))


RENAISSANCE_LEFT_OUT = {"naples": _("Naples"), "milan": _("Milan")}


def renaissance_option(key: str, value) -> str:
    """One option of a Renaissance game (docs/renaissance/engine.md, `new_game`), in words."""
    if key == "scenario":
        return str(_("Scenario %(year)s") % {"year": value})
    if key == "powers":
        return str(_("Nations' powers"))
    if key == "remove":
        return str(_("Without %(nation)s") % {"nation": RENAISSANCE_LEFT_OUT.get(value, value)})
    if key == "nations":
        return str(_("Nations: %(nations)s") % {"nations": ", ".join(map(str, value))})
    return f"{key}: {value}"


def renaissance_summary(options: dict) -> str:
    words = [renaissance_option(key, value) for key, value in (options or {}).items() if value]
    return ", ".join(words) or str(_("Standard rules"))


def rules_summary(game: Game) -> str:
    """The game's options in words, each game its own."""
    if game.ruleset == Game.Ruleset.RENAISSANCE:
        return renaissance_summary(game.options)
    return options_summary(game.options)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "user", "bot_level", "reserved_for", "standin", "joined_at", "record_name")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(SecretsStayHidden, ActionsWithoutSelection, NumberSearch, admin.ModelAdmin):
    number_lookup = "pk"
    whole_table_actions = ("recompute_ratings",)
    list_display = (
        "id",
        "ruleset",
        "status",
        "players",
        "occupants",
        "rules",
        "version",
        "source",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )
    list_filter = ("ruleset", "status", "players", "source", *OPTION_FILTERS)
    search_fields = ("invite_code", "created_by__username", "seats__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    inlines = (SeatInline,)
    actions = ("abort_games", recompute_ratings)
    # The snapshot is excluded everywhere: no field, no read-only display.
    exclude = ("snapshot",)
    readonly_fields = (
        "ruleset",
        "status",
        "players",
        "rules",
        "shown_seed",
        "version",
        "source",
        "created_by",
        "invite_code",
        "result",
        "created_at",
        "started_at",
        "finished_at",
        "turn_deadline",
        "recent_actions",
    )
    fields = (
        ("ruleset", "status", "players", "source"),
        "rules",
        ("version", "shown_seed", "invite_code"),
        "created_by",
        ("created_at", "started_at", "finished_at"),
        ("turn_seconds", "turn_deadline"),
        ("autofill_level", "autofill_at"),
        "result",
        "recent_actions",
    )

    def has_add_permission(self, request):
        return False  # games are made through the lobby, where the services keep them whole

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=_("seated"))
    def occupants(self, game):
        return ", ".join(seat.occupant_name() or "—" for seat in game.seats.all())

    @admin.display(description=_("optional rules"))
    def rules(self, game):
        return rules_summary(game)

    @admin.display(description=_("seed"))
    def shown_seed(self, game):
        return game.seed if game.status in OVER else _("hidden while the game is not over")

    @admin.display(description=_("latest actions"))
    def recent_actions(self, game):
        rows = list(Action.objects.filter(game=game).order_by("-seq")[:ACTIONS_SHOWN])
        link = reverse("admin:games_action_changelist") + f"?game__id__exact={game.pk}"
        table = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (a.seq, a.seat, a.get_actor_display(), visible_move(a, game), a.latency_ms or "")
                for a in rows
            ),
        )
        return format_html(
            '<p><a href="{}">{}</a></p><table><thead><tr><th>#</th><th>{}</th><th>{}</th>'
            "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
            link,
            _("All %(count)s actions") % {"count": Action.objects.filter(game=game).count()},
            _("seat"),
            _("played by"),
            _("action"),
            _("latency (ms)"),
            table,
        )

    @admin.action(description=_("Abort selected games"), permissions=["change"])
    def abort_games(self, request, queryset):
        aborted = abort_games([game.pk for game in queryset])
        self.message_user(
            request,
            ngettext("%(count)d game aborted.", "%(count)d games aborted.", len(aborted))
            % {"count": len(aborted)},
            messages.SUCCESS if aborted else messages.WARNING,
        )


def abort_games(game_ids) -> list[int]:
    """Abort those of these games still open or being played, each through the service (which
    tells the game's sockets and the lobby after its commit). Returns the ids aborted (finished
    games are left as they are)."""
    return [game_id for game_id in game_ids if abort_game(game_id)]


def visible_move(action: Action, game: Game) -> str:
    """The move itself once the game is over; until then only what a spectator may know."""
    return json.dumps(action.action if game.status in OVER else action.public)


@admin.register(Seat)
class SeatAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    list_display = (
        "game",
        "index",
        "occupant",
        "bot_level",
        "standin",
        "reserved_for",
        "joined_at",
    )
    list_filter = (BotLevelFilter, "standin", "game__status", "game__ruleset")
    search_fields = ("user__username", "user__display_name", "reserved_for__username")
    list_select_related = ("game", "user", "reserved_for")
    raw_id_fields = ("game", "user", "reserved_for")
    actions = ("hand_to_standin",)

    @admin.display(description=_("occupant"))
    def occupant(self, seat):
        return seat.occupant_name() or _("open")

    @admin.action(description=_("Hand seat to a stand-in bot"), permissions=["change"])
    def hand_to_standin(self, request, queryset):
        handed, refused = 0, []
        for seat in queryset.select_related("user"):
            if seat.user_id is None:
                refused.append(f"{seat.game_id}:{seat.index}")
                continue
            try:
                hand_to_bot(seat.game_id, seat.user)
            except ServiceError:
                refused.append(f"{seat.game_id}:{seat.index}")
            else:
                handed += 1
        self.message_user(
            request, _("%(count)d seats handed to a stand-in bot.") % {"count": handed}
        )
        if refused:
            self.message_user(
                request,
                _("Not handed (no person seated, or the game is not being played): %(seats)s")
                % {"seats": ", ".join(refused)},
                messages.WARNING,
            )


@admin.register(Action)
class ActionAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "actor", "move", "latency_ms", "created_at")
    list_filter = ("actor", "game__status", "game__ruleset")
    search_fields = ("game__invite_code",)
    date_hierarchy = "created_at"
    list_select_related = ("game",)
    list_per_page = 100
    fields = ("game", "seq", "seat", "actor", "move", "latency_ms", "created_at")
    readonly_fields = fields

    @admin.display(description=_("action"))
    def move(self, action):
        return visible_move(action, action.game)

    # The log is append-only: only the services write it.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- Ratings -------------------------------------------------------------------------------------


@admin.register(Rating)
class RatingAdmin(SecretsStayHidden, ActionsWithoutSelection, admin.ModelAdmin):
    whole_table_actions = ("recompute_ratings",)
    list_display = ("who", "ruleset", "ordinal_shown", "mu", "sigma", "games", "updated_at")
    list_filter = ("ruleset", BotLevelFilter)
    search_fields = ("user__username", "user__display_name", "bot_level")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    actions = (recompute_ratings,)

    @admin.display(description=_("player"))
    def who(self, rating):
        return rating.user.public_name if rating.user_id else bot_level_name(rating.bot_level)

    @admin.display(description=_("rating"))
    def ordinal_shown(self, rating):
        return f"{rating.ordinal:.1f}"

    @admin.action(description=_("Recompute ratings (all of them, from every finished game)"))
    def recompute_ratings(self, request, queryset):
        games = recompute_all()
        self.message_user(request, _("Ratings recomputed from %(count)d games.") % {"count": games})


@admin.register(RatingChange)
class RatingChangeAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    list_display = ("game", "seat", "rating", "delta", "mu_after", "sigma_after", "created_at")
    list_filter = ("rating__ruleset", ("rating__bot_level", admin.EmptyFieldListFilter))
    search_fields = ("rating__user__username", "rating__bot_level")
    list_select_related = ("game", "rating__user")
    raw_id_fields = ("game", "rating")
    date_hierarchy = "created_at"

    @admin.display(description=_("change"))
    def delta(self, change):
        return change.delta_text


# --- Presence ------------------------------------------------------------------------------------


@admin.register(Presence)
class PresenceAdmin(SecretsStayHidden, admin.ModelAdmin):
    list_display = ("channel_name", "user", "game", "connected_at", "seen_at")
    list_filter = (("user", admin.EmptyFieldListFilter), ("game", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "channel_name")
    list_select_related = ("user", "game")
    raw_id_fields = ("user", "game")
