"""The public history handed to a bot that reads the table (docs/ai.md, "Reading the table"):
the spectator's view after each action of the game so far, oldest first. Every seat watched
those happen, so it reveals no hidden card; it is rebuilt by the game's rules from the stored
log."""

from games.history.game_log import logged_actions
from games.history.replay import replay_states
from games.models import Game
from games.rules_api import ruleset_of


def public_history(game: Game, version: int) -> list[dict]:
    """Spectator views of `game` from its start to its state at `version`."""
    actions = [action for action in logged_actions(game) if action.seq <= version]
    view_for = ruleset_of(game).view_for
    return [view_for(state, None) for state in replay_states(game, actions)]


def bot_choice(bot, view: dict, game_id: int | None, version: int) -> dict:
    """`bot.choose(view)`, with the public history when the bot reads it and the game is known."""
    if not getattr(bot, "uses_history", False) or game_id is None:
        return bot.choose(view)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return bot.choose(view)
    return bot.choose(view, history=public_history(game, version))
