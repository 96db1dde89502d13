"""Bots that play from a seat's view only (`view_for(state, seat)`), never a full state.

bot = make_bot("hard", seed=1, time_limit=1.5)
action = bot.choose(view)          # one of view["legal_actions"]
bot = make_bot("hard", seed=1, game="renaissance")     # Renaissance: ai/renaissance/
answer = bot.answer_offer(view)    # one of the view's diplomacy answers, or None
"""

from .factory import make_bot
from .levels import DEFAULT_BUDGETS, LEVEL_LABELS, LEVELS
from .random_bot import RandomBot

__all__ = ["LEVELS", "LEVEL_LABELS", "DEFAULT_BUDGETS", "RandomBot", "make_bot"]
