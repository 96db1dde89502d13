"""The forms of the bot pages: a new bot account, a token, an upgrade, a challenge."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.lobby import tables as lobby
from games.words.bot_names import LEVEL_NAMES

from .models import SCOPE_CHALLENGE, SCOPE_PLAY, SCOPES


class BotAccountForm(forms.Form):
    username = forms.CharField(label=_("Bot's username"), max_length=150)
    display_name = forms.CharField(label=_("Bot's display name"), max_length=40, required=False)


# What a new token may do unless its owner unticks it: every scope, since the bot the docs start
# from (examples/bot_api_example.py) plays its games and accepts the challenges people send it.
# A token made with the form as it comes must run that bot.
DEFAULT_SCOPES = [SCOPE_PLAY, SCOPE_CHALLENGE]


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"), max_length=60, help_text=_("Where you use it, for example.")
    )
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=list(SCOPES.items()),
        widget=forms.CheckboxSelectMultiple,
        initial=DEFAULT_SCOPES,
    )


class UpgradeForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I understand: this account becomes a bot for good, and can no longer log in here.")
    )


class ChallengeForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, n) for n in range(2, 7)], coerce=int, initial=2
    )
    level = forms.ChoiceField(
        label=_("Site bots in the other seats"),
        choices=lambda: [(level, LEVEL_NAMES.get(level, level)) for level in lobby.bot_levels()],
        initial=lobby.DEFAULT_BOT_LEVEL,
    )
