"""The browser log-in refuses bot accounts, with a clear message and no password hash.

Listed first in AUTHENTICATION_BACKENDS (condottiere_site/settings.py). It checks nothing but
"is this username a bot account?": if so it stops authentication (PermissionDenied) and leaves
the refusal on the request, where the log-in form (games.forms.accounts) shows its message in
place of "wrong password"; otherwise it steps aside and the next backend does the real work.
A bot account's password is unusable anyway (games.botapi.accounts), so this is about saying why.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import BotAccount


class BotLoginRefusal:
    """Shaped like games.throttles.Refusal where the log-in form reads it (`.message`)."""

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
