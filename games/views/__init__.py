"""The platform's pages. Each module holds one family of views; urls.py imports them from here."""

from .accounts import LogoutWithMessageView, PasswordChangeWithMessageView, SignUpView
from .home import home
from .players import games_played, own_profile, player_profile

__all__ = [
    "LogoutWithMessageView",
    "PasswordChangeWithMessageView",
    "SignUpView",
    "games_played",
    "home",
    "own_profile",
    "player_profile",
]
