"""Matches in the admin: who plays, the standings, each game with a link to its own page, and
an action that aborts a match stuck or abandoned (its current game too). A match holds no
secret of its own, but a URL filter through its games could read one (a game's seed, a face-down
move), so those are refused as on every admin page."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.staff.admin_filters import NumberSearch, SecretsStayHidden

from .models import Match, MatchGame
from .scoring import totals
from .services import abort_match, scored_points


def game_link(game_id: int):
    url = reverse("admin:games_game_change", args=[game_id])
    return format_html('<a href="{}">#{}</a>', url, game_id)


def games_in_order(match: Match) -> list[MatchGame]:
    return sorted(match.entries.all(), key=lambda entry: entry.number)


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    can_delete = False
    fields = ("number", "linked_game", "game_status", "decider", "seats", "points")
    readonly_fields = fields
    ordering = ("number",)

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")

    @admin.display(description=_("game"))
    def linked_game(self, entry):
        return game_link(entry.game_id)

    @admin.display(description=_("status of the game"))
    def game_status(self, entry):
        return entry.game.get_status_display()


@admin.register(Match)
class MatchAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    number_lookup = "pk"  # "42" or "#42" finds match 42
    list_display = (
        "id",
        "status",
        "players",
        "target",
        "seated",
        "standings",
        "games_played",
        "source",
        "created_by",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "source", "players")
    search_fields = ("created_by__username", "entries__game__seats__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    inlines = (MatchGameInline,)
    actions = ("abort_matches",)
    readonly_fields = (
        "status",
        "source",
        "players",
        "target",
        "next_game_seconds",
        "created_by",
        "seated",
        "standings",
        "next_game_at",
        "ready",
        "result",
        "created_at",
        "finished_at",
    )
    fields = (
        ("status", "source"),
        ("players", "target", "next_game_seconds"),
        "created_by",
        "seated",
        "standings",
        ("next_game_at", "ready"),
        "result",
        ("created_at", "finished_at"),
    )

    def has_add_permission(self, request):
        return False  # matches are made through the lobby's forms or a record's import

    def get_queryset(self, request):
        # A list row shows the seats and the points: read them with the matches, not per row.
        return super().get_queryset(request).prefetch_related("entries__game__seats__user")

    @admin.display(description=_("seated"))
    def seated(self, match):
        entries = games_in_order(match)
        seats = sorted(entries[0].game.seats.all(), key=lambda seat: seat.index) if entries else []
        return ", ".join(seat.occupant_name() or "—" for seat in seats) or "—"

    @admin.display(description=_("points"))
    def standings(self, match):
        points = totals(scored_points(games_in_order(match)), match.players)
        return " – ".join(str(total) for total in points)

    @admin.display(description=_("games"))
    def games_played(self, match):
        return len(match.entries.all())

    @admin.action(description=_("Abort selected matches (and their current game)"))
    def abort_matches(self, request, queryset):
        aborted = [match.pk for match in queryset if abort_match(match.pk)]
        self.message_user(
            request,
            ngettext("%(count)d match aborted.", "%(count)d matches aborted.", len(aborted))
            % {"count": len(aborted)},
            messages.SUCCESS if aborted else messages.WARNING,
        )


@admin.register(MatchGame)
class MatchGameAdmin(SecretsStayHidden, NumberSearch, admin.ModelAdmin):
    list_display = ("match", "number", "linked_game", "decider", "seats", "points")
    list_filter = ("decider",)
    search_fields = ("game__seats__user__username",)
    list_select_related = ("match", "game")
    readonly_fields = ("match", "number", "linked_game", "decider", "seats", "points")
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("game"))
    def linked_game(self, entry):
        return game_link(entry.game_id)
