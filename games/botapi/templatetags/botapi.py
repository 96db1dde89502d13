"""Template tags of the Bot API: the bot badge, the profile's bot sections, bot-ness of a user."""

from django import template

from games.lobby.tables import DEFAULT_BOT_LEVEL

from ..accounts import bots_owned_by, is_bot_account
from ..forms import BotAccountForm, ChallengeForm, TokenForm, UpgradeForm

register = template.Library()


@register.filter
def is_bot(user) -> bool:
    """{% if user|is_bot %}: whether this user is a bot account."""
    return is_bot_account(user)


@register.inclusion_tag("botapi/_badge.html")
def bot_badge(user):
    """A "Bot" badge after a bot account's name; nothing for a person. The page links
    botapi/botapi.css."""
    return {"show": is_bot_account(user)}


@register.inclusion_tag("botapi/_profile_top_section.html", takes_context=True)
def bot_profile_top(context, player):
    """On any profile: the bot badge, and "Play against this bot" for a signed-in person."""
    viewer = context["request"].user
    bot = is_bot_account(player)
    may_challenge = (
        bot and viewer.is_authenticated and viewer.pk != player.pk and not is_bot_account(viewer)
    )
    return {
        "player": player,
        "is_bot": bot,
        "may_challenge": may_challenge,
        "challenge_form": ChallengeForm(initial={"level": DEFAULT_BOT_LEVEL})
        if may_challenge
        else None,
        "request": context["request"],
    }


@register.inclusion_tag("botapi/_tokens_section.html", takes_context=True)
def bot_tokens_section(context):
    """On the owner's own profile: their bot accounts and tokens, and the upgrade of a fresh
    account."""
    user = context["request"].user
    return {
        "bots": bots_owned_by(user),
        "bot_form": BotAccountForm(),
        "token_form": TokenForm(),
        "may_upgrade": not user.is_staff and not user.seats.exists(),
        "upgrade_form": UpgradeForm(),
        "csrf_token": context.get("csrf_token"),
    }
