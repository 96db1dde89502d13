"""Forms that open tables: create a table, "Play now", "Play against bots".

Each form turns a request into the arguments of one `games.lobby` function; the rules a table
must obey (seat counts, one seat each, known bot levels) are checked there, not only here.
"""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from games.bot_names import level_with_description
from games.lobby import AUTOFILL_SECONDS, DEFAULT_BOT_LEVEL, SeatPlan, bot_levels
from games.matches.models import NEXT_GAME_SECONDS, TARGET_MAX, TARGET_MIN

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
    """The four optional rules as check boxes; `options()` gives the engine's dict."""

    def add_option_fields(self):
        for name, label in OPTION_LABELS.items():
            self.fields[name] = forms.BooleanField(
                label=label, help_text=OPTION_HELP[name], required=False
            )

    def options(self) -> dict:
        return {name: bool(self.cleaned_data.get(name)) for name in OPTION_LABELS}

    def option_fields(self):
        return [self[name] for name in OPTION_LABELS]


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


class PlayNowForm(OptionsMixin, forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=3,
    )
    autofill = forms.BooleanField(
        label=_("Fill empty seats with bots if nobody comes"),
        help_text=_("After %(seconds)d seconds of waiting.") % {"seconds": AUTOFILL_SECONDS},
        required=False,
        initial=True,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["autofill_level"] = level_field(_("Level of those bots"), required=False)
        self.add_option_fields()


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
