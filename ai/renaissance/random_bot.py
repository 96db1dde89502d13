"""The `random` level for Renaissance: the same uniform, reproducible choice among the seat's
legal actions as Condottiere's (it reads only `view["legal_actions"]`)."""

from ai.random_bot import RandomBot

__all__ = ["RandomBot"]
