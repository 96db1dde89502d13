"""The errors of the one way in: each has a stable `code` that the websocket protocol sends."""

from django.utils.translation import gettext_lazy as _


class ServiceError(Exception):
    """A refused request. Nothing was changed. `version` is the game's current version, if known."""

    code = "error"
    default_message = _("The request was refused.")

    def __init__(self, message=None, *, version: int | None = None):
        self.message = str(message if message is not None else self.default_message)
        self.version = version
        super().__init__(self.message)


class StaleVersion(ServiceError):
    """The action was made against an older version: someone else moved first."""

    code = "stale"
    default_message = _("The game moved on before your action arrived.")


class IllegalMove(ServiceError):
    """The engine refused the action; the message is the engine's, readable by the player."""

    code = "illegal"
    default_message = _("That move is not allowed.")


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class NotBotTurn(ServiceError):
    """A bot's move arrived for a seat no bot plays any more (the person took it back)."""

    code = "not_bot_turn"
    default_message = _("No bot plays this seat now.")


class NotSeated(ServiceError):
    code = "not_seated"
    default_message = _("You have no seat in this game.")


class GameNotPlaying(ServiceError):
    code = "not_playing"
    default_message = _("This game is not being played.")
