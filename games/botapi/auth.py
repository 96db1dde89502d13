"""Who may authenticate how: the browser log-in refuses bot accounts, and presented tokens are
checked under a limit per client address.

Bad tokens. Every request or socket handshake that presents an access token takes a slot per client
address (IPv6: per /64) before the token is looked up; a token that turns out usable gives its slot
back, so the slots count unknown and revoked tokens: at most BOT_API_BAD_TOKENS_PER_MINUTE in any
minute per address (games/limits/throttles.py; 0: no limit). Past it a request is answered 429
`rate_limited` (a socket: that error frame and close 4008) without looking the token up.

The bot account's log-in.

Listed first in AUTHENTICATION_BACKENDS (condottiere_site/settings.py). It checks nothing but
"is this username a bot account?": if so it stops authentication (PermissionDenied) and leaves
the refusal on the request, where the log-in form (games.forms.accounts) shows its message in
place of "wrong password"; otherwise it steps aside and the next backend does the real work.
A bot account's password is unusable anyway (games.botapi.accounts), so this is about saying why.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from games.limits.throttles import Count, address_key, take

from .models import AccessToken, BotAccount
from .tokens import TokenRefused, token_for

TOO_MANY_REQUESTS = 429


class TooManyBadTokens(TokenRefused):
    """Too many unknown or revoked tokens from this address: the token was not looked up."""

    def __init__(self, seconds_left: int):
        message = _("Too many requests with a bad access token from this address: wait a minute.")
        super().__init__("rate_limited", message, TOO_MANY_REQUESTS)
        self.seconds_left = seconds_left


def limited_token_for(request_or_scope, secret: str, scope: str) -> AccessToken:
    """tokens.token_for under the bad-token limit of the client's address (a request or an ASGI
    scope); raises TokenRefused, TooManyBadTokens past the limit."""
    limit = settings.BOT_API_BAD_TOKENS_PER_MINUTE
    taken = take(Count("bot-api-bad-tokens", address_key(request_or_scope), limit, 60))
    if taken.refusal:
        raise TooManyBadTokens(taken.refusal.seconds_left)
    try:
        token = token_for(secret, scope)
    except TokenRefused as refused:
        if refused.status != 401:  # a real token, only not allowed this: not a guess
            taken.give_back()
        raise
    taken.give_back()
    return token


class BotLoginRefusal:
    """Shaped like games.limits.throttles.Refusal where the log-in form reads it (`.message`)."""

    @property
    def message(self) -> str:
        return _(
            "This is a bot account: it plays through the Bot API with an access token and "
            "cannot log in on the site."
        )


class RefuseBotAccountLogin:
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            return None
        field = get_user_model().USERNAME_FIELD
        if BotAccount.objects.filter(**{f"user__{field}": username}).exists():
            if request is not None:
                request.login_refusal = BotLoginRefusal()
            raise PermissionDenied("bot account")
        return None

    # No get_user(): sessions belong to the next backend (and Django's test client's force_login
    # picks the first backend that has one). A bot's sessions died with its password anyway.
