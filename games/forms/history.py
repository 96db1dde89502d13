"""The history's filters (a GET form) and the import form (a file or pasted JSON)."""

import json
import math

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms.tables import OPTION_LABELS
from games.models import Game, Seat
from games.words.bot_names import LEVEL_NAMES

MAX_RECORD_BYTES = 2 * 1024 * 1024
# A record is at most a few levels deep and its numbers fit in 64 bits: anything beyond these is
# refused before Python's json (recursion) or int() (4,300 digits) can fail on it.
MAX_RECORD_DEPTH = 32
MAX_NUMBER_DIGITS = 40
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
            # Refused by the size the upload handler counted, before reading; and never read
            # past the limit, whatever that size said.
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is larger than 2 MB."))
            content = upload.read(MAX_RECORD_BYTES + 1)
            if len(content) > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is larger than 2 MB."))
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not text:
            raise forms.ValidationError(_("Upload a record file or paste its JSON."))
        if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
            raise forms.ValidationError(_("The record is larger than 2 MB."))
        cleaned["record"] = parse_record(text)
        return cleaned


class Unreadable(ValueError):
    """JSON that is well formed but that no record holds (a message for people)."""


def parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise Unreadable(
            _("The record holds a number with too many digits (more than %(digits)s).")
            % {"digits": MAX_NUMBER_DIGITS}
        )
    return int(digits)


def parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise Unreadable(not_a_value(text))
    return number


def parse_constant(name: str):
    raise Unreadable(not_a_value(name))


def not_a_value(text: str) -> str:
    return _("%(value)s is not a JSON value.") % {"value": text}


def too_deep() -> str:
    return _("The record is nested too deeply (more than %(depth)s levels).") % {
        "depth": MAX_RECORD_DEPTH
    }


def depth_within(value, limit: int) -> bool:
    """Whether `value` (parsed JSON) nests at most `limit` lists or objects (without recursion)."""
    pending = [(value, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, (list, dict)):
            if depth > limit:
                return False
            items = value.values() if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
    return True


def holds_nul(value) -> bool:
    """Whether a string or key anywhere in `value` (parsed JSON) holds a NUL character: JSON
    allows "\\u0000", PostgreSQL's text columns refuse it (a 500 on saving, not a message)."""
    pending = [value]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def parse_record(text: str):
    """The parsed JSON of `text`, or a ValidationError that says what is wrong with it."""
    try:
        record = json.loads(
            text, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant
        )
    except json.JSONDecodeError as error:
        raise forms.ValidationError(
            _("This is not valid JSON (line %(line)s, column %(column)s: %(error)s).")
            % {"line": error.lineno, "column": error.colno, "error": error.msg}
        ) from None
    except Unreadable as error:
        raise forms.ValidationError(str(error)) from None
    except RecursionError:
        raise forms.ValidationError(too_deep()) from None
    if not depth_within(record, MAX_RECORD_DEPTH):
        raise forms.ValidationError(too_deep())
    if holds_nul(record):
        raise forms.ValidationError(_("The record holds a NUL character (\\u0000)."))
    return record
