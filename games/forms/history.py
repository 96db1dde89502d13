"""The history's filters (a GET form) and the import form (a file or pasted JSON)."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bot_names import LEVEL_NAMES
from games.forms.tables import OPTION_LABELS
from games.models import Game, Seat

MAX_RECORD_BYTES = 2 * 1024 * 1024
EITHER, ON, OFF = "", "on", "off"
RULE_CHOICES = [(EITHER, _("Either")), (ON, _("On")), (OFF, _("Off"))]
WITH_BOTS, WITHOUT_BOTS = "with", "without"
LIVE, IMPORTED, ALL_SOURCES = "", "imported", "all"


def bot_choices():
    levels = [
        (f"level:{code}", _("With a bot: %(level)s") % {"level": name})
        for code, name in LEVEL_NAMES.items()
    ]
    return [
        ("", _("Any")),
        (WITH_BOTS, _("With bots")),
        (WITHOUT_BOTS, _("People only")),
        *levels,
    ]


class HistoryFilterForm(forms.Form):
    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    bots = forms.ChoiceField(label=_("Bots"), required=False, choices=bot_choices)
    players = forms.TypedChoiceField(
        label=_("Players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Any"))] + [(str(n), str(n)) for n in range(2, 7)],
    )
    source = forms.ChoiceField(
        label=_("Games"),
        required=False,
        choices=[
            (LIVE, _("Played here")),
            (IMPORTED, _("Imported records")),
            (ALL_SOURCES, _("Both")),
        ],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in OPTION_LABELS.items():
            self.fields[name] = forms.ChoiceField(label=label, required=False, choices=RULE_CHOICES)

    def rule_fields(self):
        return [self[name] for name in OPTION_LABELS]

    def filter(self, games):
        """`games` narrowed by every filter given (an invalid form filters nothing further)."""
        if not self.is_valid():
            return games.filter(source=Game.Source.LIVE)
        data = self.cleaned_data
        source = data.get("source") or LIVE
        if source == LIVE:
            games = games.filter(source=Game.Source.LIVE)
        elif source == IMPORTED:
            games = games.filter(source=Game.Source.IMPORTED)
        if data.get("player"):
            games = games.filter(seats__user__username__iexact=data["player"].strip())
        if data.get("players"):
            games = games.filter(players=data["players"])
        games = filter_bots(games, data.get("bots") or "")
        for name in OPTION_LABELS:
            wanted = data.get(name)
            if wanted == ON:
                games = games.filter(**{f"options__{name}": True})
            elif wanted == OFF:
                games = games.exclude(**{f"options__{name}": True})
        return games.distinct()


def filter_bots(games, choice: str):
    bot_seats = Seat.objects.exclude(bot_level="")
    if choice == WITH_BOTS:
        return games.filter(pk__in=bot_seats.values("game"))
    if choice == WITHOUT_BOTS:
        return games.exclude(pk__in=bot_seats.values("game"))
    if choice.startswith("level:"):
        level = choice.removeprefix("level:")
        return games.filter(pk__in=bot_seats.filter(bot_level=level).values("game"))
    return games


class ImportRecordForm(forms.Form):
    file = forms.FileField(label=_("Record file (.json)"), required=False)
    text = forms.CharField(
        label=_("Or paste the record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("file"), (cleaned.get("text") or "").strip()
        if upload and text:
            raise forms.ValidationError(_("Upload a file or paste a record, not both."))
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is larger than 2 MB."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not text:
            raise forms.ValidationError(_("Upload a record file or paste its JSON."))
        if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
            raise forms.ValidationError(_("The record is larger than 2 MB."))
        try:
            cleaned["record"] = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("This is not valid JSON (line %(line)s, column %(column)s: %(error)s).")
                % {"line": error.lineno, "column": error.colno, "error": error.msg}
            ) from None
        return cleaned
