"""Building blocks of the admin pages: list filters and list behaviours shared by several
models' pages (games/admin.py registers the pages)."""

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.utils.translation import gettext_lazy as _

from ai import LEVELS
from games.bot_names import LEVEL_NAMES
from games.engine import Options
from games.forms.tables import OPTION_LABELS

# --- Filters -------------------------------------------------------------------------------------


def option_filter(name: str, label) -> type[admin.SimpleListFilter]:
    """A yes/no filter on one optional rule (a key of Game.options; missing means off)."""

    class OptionFilter(admin.SimpleListFilter):
        title = label
        parameter_name = f"option_{name}"

        def lookups(self, request, model_admin):
            return (("yes", _("On")), ("no", _("Off")))

        def queryset(self, request, queryset):
            on = {f"options__{name}": True}
            if self.value() == "yes":
                return queryset.filter(**on)
            if self.value() == "no":
                return queryset.exclude(**on)
            return queryset

    OptionFilter.__name__ = f"{name.title().replace('_', '')}Filter"
    return OptionFilter


OPTION_FILTERS = [option_filter(name, OPTION_LABELS[name]) for name in Options().to_dict()]


class BotLevelFilter(admin.SimpleListFilter):
    """Seats by bot level; "none" is a person's or an open seat."""

    title = _("bot level")
    parameter_name = "bot_level"

    def lookups(self, request, model_admin):
        return [
            ("none", _("No bot")),
            *((level, LEVEL_NAMES.get(level, level)) for level in LEVELS),
        ]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(bot_level="")
        if self.value():
            return queryset.filter(bot_level=self.value())
        return queryset


class GameIdSearch:
    """Search also finds rows of a game by its number ("42" or "#42")."""

    game_id_lookup = "game_id"

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            results |= queryset.filter(**{self.game_id_lookup: int(term)})
            duplicates = True
        return results, duplicates


class ActionsWithoutSelection:
    """Lets the actions named in `whole_table_actions` run with no row ticked (they act on the
    whole table): Django otherwise refuses an action on an empty selection."""

    whole_table_actions: tuple[str, ...] = ()

    def changelist_view(self, request, extra_context=None):
        wanted = request.POST.get("action")
        if wanted in self.whole_table_actions and not request.POST.getlist(ACTION_CHECKBOX_NAME):
            post = request.POST.copy()
            # "All rows" (select_across) with a placeholder tick, which select_across ignores.
            post["select_across"] = "1"
            post.setlist(ACTION_CHECKBOX_NAME, ["0"])
            request.POST = post
        return super().changelist_view(request, extra_context)
