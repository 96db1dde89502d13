"""Pages of bot accounts: made and managed from the owner's profile, challenged from the bot's.

Each view is one POST that calls this app's services; their refusal is shown as a message and
changes nothing. A new token's secret is shown once, on a page that is never cached.
"""

from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.lobby.tables import LobbyError

from . import accounts, challenges, tokens
from .forms import BotAccountForm, ChallengeForm, TokenForm, UpgradeForm
from .models import SCOPES, AccessToken


def refuse(request, message):
    messages.error(request, message)
    return redirect("profile")


def show_token(request, new: tokens.NewToken, upgraded: bool = False):
    context = {"new": new, "bot": new.token.user, "upgraded": upgraded, "scopes": SCOPES}
    return render(request, "botapi/token_created.html", context)


@login_required
@require_POST
def create_bot(request):
    form = BotAccountForm(request.POST)
    if not form.is_valid():
        return refuse(request, _("Give the bot a username."))
    try:
        bot = accounts.create_bot_account(
            request.user, form.cleaned_data["username"], form.cleaned_data["display_name"]
        )
    except accounts.BotAccountRefused as refused:
        return refuse(request, refused.message)
    messages.success(
        request,
        _("The bot account “%(name)s” is ready: make it a token.") % {"name": bot.public_name},
    )
    return redirect("profile")


def owned_bot(request, username: str):
    return get_object_or_404(get_user_model(), username=username, bot_account__owner=request.user)


@never_cache
@login_required
@require_POST
def create_token(request, username: str):
    bot = owned_bot(request, username)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return refuse(request, _("Name the token and choose at least one scope."))
    try:
        new = tokens.create_token(bot, form.cleaned_data["name"], form.cleaned_data["scopes"])
    except tokens.TokenRefused as refused:
        return refuse(request, refused.message)
    return show_token(request, new)


@login_required
@require_POST
def revoke_token(request, token_id: int):
    token = get_object_or_404(AccessToken, pk=token_id, user__bot_account__owner=request.user)
    tokens.revoke(token, request.user)
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("profile")


@never_cache
@login_required
@require_POST
def upgrade(request):
    """This fresh account becomes a bot: its first token is shown once and the session ends."""
    form = UpgradeForm(request.POST)
    if not form.is_valid():
        return refuse(request, _("Tick the box to confirm the upgrade."))
    user = request.user
    try:
        accounts.upgrade_to_bot(user)
    except accounts.BotAccountRefused as refused:
        return refuse(request, refused.message)
    new = tokens.create_token(user, _("First token"), list(SCOPES))
    logout(request)
    return show_token(request, new, upgraded=True)


@login_required
@require_POST
def challenge(request, username: str):
    bot = get_object_or_404(get_user_model(), username=username, bot_account__isnull=False)
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the number of players and the site bots' level."))
        return redirect("player", username=username)
    try:
        game = challenges.challenge_bot(
            request.user, bot, form.cleaned_data["players"], form.cleaned_data["level"]
        )
    except LobbyError as refused:
        messages.error(request, refused.message)
        return redirect("player", username=username)
    messages.info(
        request,
        _("Challenge sent: the game starts when %(name)s accepts.") % {"name": bot.public_name},
    )
    return redirect("table_detail", game_id=game.pk)
