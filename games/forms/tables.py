"""Forms that open tables: create a table, "Play now", "Play against bots".

Each form turns a request into the arguments of one `games.lobby.tables` function; the rules a table
must obey (seat counts, one seat each, known bot levels, the game's options) are checked there,
not only here. Here they are said in words: a table's game (Condottiere or Renaissance), its
options, and whether it may be played for points.
"""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.lobby.tables import (
    AUTOFILL_SECONDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_GAME,
    GAME_NAMES,
    LobbyError,
    SeatPlan,
    bot_levels,
    check_players,
    normalize_options,
    option_keys,
    ruleset_for,
)
from games.matches.models import NEXT_GAME_SECONDS, TARGET_MAX, TARGET_MIN
from games.words.bot_names import level_with_description

MAX_SEATS = 6

OPTION_LABELS = {
    "draw_after_battle": _("Draw After Battle"),
    "bigger_kingdoms": _("Bigger Kingdoms"),
    "capturing_regions": _("Capturing Regions"),
    "hidden_cards": _("Hidden Cards"),
}
OPTION_HELP = {
    "draw_after_battle": _(
        "Start with 7 cards and draw up to 3 after every battle, instead of a new hand each round."
    ),
    "bigger_kingdoms": _("One more adjacent region is needed to win."),
    "capturing_regions": _(
        "Battles may be fought over a region someone holds; its defender may pass and still play."
    ),
    "hidden_cards": _("Mercenaries, Drummers, Heroines and Courtesans are played face down."),
}

# Renaissance's options at a table of the site (games.rules_api.RENAISSANCE_TABLE_OPTIONS), and
# the words of each as a chip of the lobby (games.lobby.tables.option_keys).
SCENARIOS = ("1494", "1499", "1515")
SCENARIO_MIN_PLAYERS = 4
LEAVING_NATIONS = {"naples": _("Naples"), "milan": _("Milan")}
# [rules] With four players the players choose which of the two leaves; Naples if nobody says.
DEFAULT_LEAVING = "naples"
LEAVING_PLAYERS = 4
RENAISSANCE_OPTION_WORDS = {
    "powers": _("Nations' powers"),
    "scenario_1494": _("Scenario 1494"),
    "scenario_1499": _("Scenario 1499"),
    "scenario_1515": _("Scenario 1515"),
    "remove_naples": _("Without Naples"),
    "remove_milan": _("Without Milan"),
}
# Every option key of either game, for the lobby's chips.
OPTION_WORDS = {**OPTION_LABELS, **RENAISSANCE_OPTION_WORDS}


def option_words(game: str, options: dict) -> list[str]:
    """A table's options in words, one per chip (none: the game's standard rules)."""
    return [str(OPTION_WORDS.get(key, key)) for key in option_keys(game, options)]


MATCHES_ONLY_CONDOTTIERE = _("Matches for points are played in Condottiere only.")

TURN_TIMER_CHOICES = [
    ("", _("No timer")),
    ("30", _("30 seconds per decision")),
    ("60", _("60 seconds per decision")),
    ("120", _("2 minutes per decision")),
]

SEAT_KIND_CHOICES = [
    ("me", _("You")),
    ("open", _("Open seat")),
    ("bot", _("Bot")),
    ("invite", _("Invited player")),
]


def level_choices() -> list[tuple[str, str]]:
    """Each level with what it does and how strong it is, so people choose knowingly."""
    return [(level, level_with_description(level)) for level in bot_levels()]


class OptionsMixin:
    """The table's game and its options: Condottiere's four optional rules as check boxes, or
    Renaissance's scenario, nations' powers and, with four players, the nation that leaves.
    `check_game(players, field)` checks them through the lobby (the game's own rules decide);
    then `chosen_game()` and `options()` give what `games.lobby.tables` takes."""

    def add_option_fields(self):
        self.fields["game"] = forms.ChoiceField(
            label=pgettext_lazy("the game a table plays", "Game"),
            choices=list(GAME_NAMES.items()),
            initial=DEFAULT_GAME,
            required=False,  # a form of before the choice existed opens Condottiere's table
        )
        for name, label in OPTION_LABELS.items():
            self.fields[name] = forms.BooleanField(
                label=label, help_text=OPTION_HELP[name], required=False
            )
        self.add_renaissance_fields()

    def add_renaissance_fields(self):
        self.fields["scenario"] = forms.ChoiceField(
            label=_("Scenario"),
            choices=[("", _("None: the game of 1454"))] + [(year, year) for year in SCENARIOS],
            required=False,
            help_text=_("A historical start (1494, 1499 or 1515) for 4 to 6 players."),
        )
        self.fields["powers"] = forms.BooleanField(
            label=RENAISSANCE_OPTION_WORDS["powers"],
            help_text=_("Each nation has a power of its own."),
            required=False,
        )
        self.fields["remove"] = forms.ChoiceField(
            label=_("With four players, the nation that leaves"),
            choices=list(LEAVING_NATIONS.items()),
            initial=DEFAULT_LEAVING,
            required=False,
            help_text=_("The game of 1454 for four players: Genoa and one of these stay out."),
        )

    def chosen_game(self) -> str:
        return self.cleaned_data.get("game") or DEFAULT_GAME

    def options(self) -> dict:
        """The options of the chosen game, checked by check_game."""
        return self.cleaned_data["game_options"]

    def option_fields(self):
        return [self[name] for name in OPTION_LABELS]

    def renaissance_fields(self):
        return [self["scenario"], self["powers"], self["remove"]]

    def check_game(self, players, field: str = "players") -> None:
        """Check the game, its number of players and its options through games.lobby.tables (the
        game's own rules), each refusal said on the field it is about."""
        game = self.chosen_game()
        if players is None:
            return
        try:
            ruleset_for(game)
            check_players(game, players)
        except LobbyError as error:
            self.add_error(field, error.message)
            return
        options = self.chosen_options(game, players)
        if self.errors:
            return
        try:
            self.cleaned_data["game_options"] = normalize_options(options, players, game)
        except LobbyError as error:
            self.add_error(None, error.message)

    def chosen_options(self, game: str, players: int) -> dict:
        if game == DEFAULT_GAME:
            return {name: bool(self.cleaned_data.get(name)) for name in OPTION_LABELS}
        return self.renaissance_options(players)

    def renaissance_options(self, players: int) -> dict:
        """[rules] The scenarios are for 4 to 6 players; with four players and no scenario
        (the game of 1454) the players choose whether Naples or Milan leaves."""
        data = self.cleaned_data
        options = {}
        scenario = data.get("scenario") or ""
        if scenario:
            options["scenario"] = scenario
            if players < SCENARIO_MIN_PLAYERS:
                self.add_error("scenario", _("The scenarios are played by 4 to 6 players."))
        if data.get("powers"):
            options["powers"] = True
        leaving = data.get("remove") or DEFAULT_LEAVING
        if players == LEAVING_PLAYERS and not scenario:
            options["remove"] = leaving
        elif leaving != DEFAULT_LEAVING:
            self.add_error(
                "remove",
                _("Only a game of 1454 for four players chooses the nation that leaves."),
            )
        return options


class MatchMixin:
    """Playing for Points: the choice and the target score; `match_target()` is None for a
    single game. [rules] The rulebook advises against Capturing Regions in a match: said here,
    not forbidden."""

    def add_match_fields(self):
        self.fields["play_for_points"] = forms.BooleanField(
            label=_("Play for points"),
            help_text=_(
                "A match of several games among the same seats: 1 point per region held at the "
                "end of each game, 5 more for winning by adjacency. The next game starts when "
                "everyone is ready, or after %(seconds)d seconds. The rulebook advises against "
                "Capturing Regions in a match."
            )
            % {"seconds": NEXT_GAME_SECONDS},
            required=False,
        )
        self.fields["target"] = forms.IntegerField(
            label=_("Target score"),
            help_text=_("Usually 20 or 30; any score from %(low)d to %(high)d.")
            % {"low": TARGET_MIN, "high": TARGET_MAX},
            min_value=TARGET_MIN,
            max_value=TARGET_MAX,
            initial=20,
            required=False,
        )

    def match_fields(self):
        return [self["play_for_points"], self["target"]]

    def clean_target(self):
        target = self.cleaned_data.get("target")
        if self.data.get(self.add_prefix("play_for_points")) and target is None:
            raise forms.ValidationError(_("Choose the score that ends the match."))
        return target

    def check_match_game(self) -> None:
        """Matches for points are Condottiere's only (games.rules_api: `plays_matches`)."""
        wanted = self.cleaned_data.get("play_for_points")
        if wanted and not ruleset_for(self.chosen_game()).plays_matches:
            self.add_error("play_for_points", MATCHES_ONLY_CONDOTTIERE)

    def match_target(self) -> int | None:
        if not self.cleaned_data.get("play_for_points"):
            return None
        return self.cleaned_data["target"]


def turn_seconds_field():
    return forms.TypedChoiceField(
        label=_("Turn timer"),
        choices=TURN_TIMER_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("When time runs out, a bot makes the move for the absent player."),
    )


def level_field(label, required=True):
    return forms.ChoiceField(
        label=label, choices=level_choices, initial=DEFAULT_BOT_LEVEL, required=required
    )


class PlayAgainstBotsForm(MatchMixin, OptionsMixin, forms.Form):
    bots = forms.TypedChoiceField(
        label=_("Number of bots"),
        choices=[(n, str(n)) for n in range(1, 6)],
        coerce=int,
        initial=2,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["level"] = level_field(_("Bot level"))
        self.fields["turn_seconds"] = turn_seconds_field()
        self.add_option_fields()
        self.add_match_fields()

    def clean(self):
        cleaned = super().clean()
        bots = cleaned.get("bots")
        self.check_game(None if bots is None else bots + 1, field="bots")
        self.check_match_game()
        return cleaned


def autofill_help() -> str:
    """Said in the page's language when the form is shown: a `%` applied to a lazy string here, at
    import time, would fix its words in the language of whoever imported the module first."""
    return _("After %(seconds)d seconds of waiting.") % {"seconds": AUTOFILL_SECONDS}


class PlayNowForm(OptionsMixin, forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=3,
    )
    autofill = forms.BooleanField(
        label=_("Fill empty seats with bots if nobody comes"),
        help_text=lazy(autofill_help, str)(),
        required=False,
        initial=True,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["autofill_level"] = level_field(_("Level of those bots"), required=False)
        self.add_option_fields()

    def clean(self):
        cleaned = super().clean()
        self.check_game(cleaned.get("players"))
        return cleaned


class CreateTableForm(MatchMixin, OptionsMixin, forms.Form):
    """A table of 2–6 seats; each seat is you, open, a bot of some level, or kept for someone."""

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=3,
    )

    def __init__(self, *args, creator=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.creator = creator
        self.fields["turn_seconds"] = turn_seconds_field()
        self.add_option_fields()
        self.add_match_fields()
        for index in range(MAX_SEATS):
            self.fields[f"seat_{index}_kind"] = forms.ChoiceField(
                label=_("Who sits here"),
                choices=SEAT_KIND_CHOICES,
                initial="me" if index == 0 else "open",
                required=False,  # seats beyond the number of players may be left out
            )
            self.fields[f"seat_{index}_level"] = level_field(_("Bot level"), required=False)
            self.fields[f"seat_{index}_username"] = forms.CharField(
                label=_("Username to invite"), max_length=150, required=False
            )

    def seat_rows(self):
        """Per seat: its index and its three fields, for the template."""
        return [
            {
                "index": index,
                "kind": self[f"seat_{index}_kind"],
                "level": self[f"seat_{index}_level"],
                "username": self[f"seat_{index}_username"],
            }
            for index in range(MAX_SEATS)
        ]

    def clean(self):
        cleaned = super().clean()
        players = cleaned.get("players")
        if not players:
            return cleaned
        self.check_game(players)
        self.check_match_game()
        kinds = [cleaned.get(f"seat_{index}_kind") or "open" for index in range(players)]
        if kinds.count("me") > 1:
            self.add_error(None, _("You can take only one seat."))
        invited = {}
        for index in range(players):
            if kinds[index] == "invite":
                invited[index] = self._invited_user(index, invited.values())
        cleaned["seat_plans"] = [
            SeatPlan(
                kind=kinds[index],
                level=cleaned.get(f"seat_{index}_level") or DEFAULT_BOT_LEVEL,
                user=invited.get(index),
            )
            for index in range(players)
        ]
        return cleaned

    def _invited_user(self, index, already):
        field = f"seat_{index}_username"
        username = (self.cleaned_data.get(field) or "").strip()
        if not username:
            self.add_error(field, _("Whom do you invite to this seat?"))
            return None
        user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
        if user is None:
            self.add_error(field, _("There is no player called “%(name)s”.") % {"name": username})
        elif self.creator is not None and user.pk == self.creator.pk:
            self.add_error(field, _("Choose “You” for your own seat."))
        elif any(other is not None and other.pk == user.pk for other in already):
            self.add_error(field, _("This player is already invited to another seat."))
        else:
            return user
        return None
