"""Building blocks of the admin pages: list filters and list behaviours shared by several
models' pages (games/admin.py registers the pages)."""

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.utils.translation import gettext_lazy as _

from ai import LEVELS
from games.forms.tables import OPTION_LABELS
from games.models import Game
from games.rules_api import CONDOTTIERE
from games.words.bot_names import LEVEL_NAMES

# --- Filters -------------------------------------------------------------------------------------


# The game filter's parameter (Django's for a field's choices: `list_filter = ("ruleset", ...)`).
RULESET_PARAMETER = "ruleset__exact"


def option_filter(name: str, label) -> type[admin.SimpleListFilter]:
    """A yes/no filter on one of Condottiere's optional rules (a key of Game.options; missing
    means off). Only Condottiere games have them: either answer lists Condottiere games only,
    and the filter is not offered while the list is filtered to another game."""

    class OptionFilter(admin.SimpleListFilter):
        title = label
        parameter_name = f"option_{name}"

        def __init__(self, request, params, model, model_admin):
            self.game_chosen = request.GET.get(RULESET_PARAMETER)
            super().__init__(request, params, model, model_admin)

        def has_output(self):
            return self.game_chosen in (None, "", CONDOTTIERE.name)

        def lookups(self, request, model_admin):
            return (("yes", _("On")), ("no", _("Off")))

        def queryset(self, request, queryset):
            on = {f"options__{name}": True}
            condottiere = queryset.filter(ruleset=Game.Ruleset.CONDOTTIERE)
            if self.value() == "yes":
                return condottiere.filter(**on)
            if self.value() == "no":
                return condottiere.exclude(**on)
            return queryset

    OptionFilter.__name__ = f"{name.title().replace('_', '')}Filter"
    return OptionFilter


# Condottiere's optional rules, as its games store them (every one off).
CONDOTTIERE_OPTIONS = CONDOTTIERE.normalize_options({}, min(CONDOTTIERE.players))
OPTION_FILTERS = [option_filter(name, OPTION_LABELS[name]) for name in CONDOTTIERE_OPTIONS]


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


class NumberSearch:
    """Search also finds rows by a number ("42" or "#42"): those of the game with that number, or
    with `number_lookup = "pk"` the row that has it (a game, a match)."""

    number_lookup = "game_id"

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            results |= queryset.filter(**{self.number_lookup: int(term)})
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


# --- Secrets -------------------------------------------------------------------------------------

# Fields that hold what no one may learn while a game is played: the snapshot (every hand and the
# deck's order), the seed (the whole deal) and a move as made (a face-down card).
SECRET_FIELDS = {"games.game": {"snapshot", "seed"}, "games.action": {"action"}}


def touches_secret(model, lookup: str) -> bool:
    """Does this URL lookup (``seats__game__seed__gt``) read a secret field of any model on
    its path?"""
    for part in lookup.split(LOOKUP_SEP):
        if part in SECRET_FIELDS.get(model._meta.label_lower, ()):
            return True
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:  # a lookup or a transform (gt, contains, a JSON key): done
            return False
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class SecretsStayHidden:
    """No filter in the URL may read a secret: asked yes or no often enough, ``?seed__gt=`` or
    ``?action__card=`` would tell a live game's seed or a face-down card (Django allows URL
    lookups on a model's own fields by default). Such a request is refused (400)."""

    def lookup_allowed(self, lookup, value, request):
        if touches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)
