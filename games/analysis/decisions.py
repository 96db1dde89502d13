"""The decisions of a finished game that an analysis searches: every logged action of a seat
that had a real choice, with the view that seat had just before it.

A show of cards is no decision (it is not a move); a decision with one legal action (a forced
pass, a hand holding a Mercenary answering "keep") says nothing of the player and is skipped.
"""

from dataclasses import dataclass

from games.history.game_log import logged_actions
from games.history.replay import replay_states
from games.models import Game
from games.rules_api import Ruleset, ruleset_of


@dataclass(frozen=True)
class Decision:
    seq: int  # the action's place in the log (the replay's step after it)
    seat: int
    view: dict  # view_for(state before the action, seat): all the search may see
    action: dict  # what the seat played


def is_choice(rules: Ruleset, action: dict, before, seat: int) -> tuple[bool, dict]:
    """(whether the seat chose among two or more actions, the seat's view before it)."""
    if action.get("type") == "show":
        return False, {}
    view = rules.view_for(before, seat)
    return len(view["legal_actions"]) >= 2, view


def game_decisions(game: Game, limit: int) -> tuple[list[Decision], bool]:
    """The game's real decisions in log order, at most `limit`, and whether there were more.
    Raises the game's ReplayError (its ruleset's record) if the log does not replay."""
    rules = ruleset_of(game)
    actions = logged_actions(game)
    states = replay_states(game, actions)
    found = []
    for logged, before in zip(actions, states, strict=False):
        chose, view = is_choice(rules, logged.action, before, logged.seat)
        if chose:
            found.append(Decision(logged.seq, logged.seat, view, logged.action))
            if len(found) > limit:
                return found[:limit], True
    return found, False
