"""A hint: the search's suggested move for a person's current decision, from their own view.

Only where it cannot help anyone against another person: the asker is seated in a game being
played whose every other seat is one of the site's bots (a Bot API account or a stand-in for a
person counts as a person). Such a game is never rated (games.ratings rates games that at least
two people played), so a hint changes no rating. Hints are counted per account, at most
`HINTS_PER_MINUTE` in any minute: a slot is taken before the search, in one step shared by every
process (games/throttles.py), so hints asked for together cannot pass the limit.
"""

from django.conf import settings
from django.utils.translation import gettext as _

import ai
from games.actors.public_history import bot_choice
from games.engine import view_for
from games.models import Game
from games.replay import StepLabels, replay_game_info
from games.services import load_state
from games.throttles import Count, Taken, take

DEFAULT_HINT_ITERATIONS = 1000
DEFAULT_HINTS_PER_MINUTE = 6
HINT_SEED = 0


class HintRefused(Exception):
    """A hint refused: `code` (refusal_messages) and the HTTP status."""

    def __init__(self, code: str, status: int):
        super().__init__(code)
        self.code = code
        self.status = status

    @property
    def message(self) -> str:
        return refusal_messages()[self.code]


def refusal_messages() -> dict:
    return {
        "not_playing": _("Hints are given only while the game is being played."),
        "not_seated": _("Only a player seated at this table may ask for a hint."),
        "not_bots_only": _(
            "Hints are given only in unrated games against the site's bots, "
            "never when another person plays."
        ),
        "not_your_turn": _("You have no decision to make right now."),
        "too_many": _("Too many hints: wait a minute before asking again."),
    }


def hint_iterations() -> int:
    return int(getattr(settings, "HINT_ITERATIONS", DEFAULT_HINT_ITERATIONS))


def hints_per_minute() -> int:
    return int(getattr(settings, "HINTS_PER_MINUTE", DEFAULT_HINTS_PER_MINUTE))


def hint_seat(game: Game, user) -> int:
    """The asker's seat if a hint may be given in this game at all; else HintRefused."""
    if game.status != Game.Status.PLAYING:
        raise HintRefused("not_playing", 409)
    seats = list(game.seats.all())
    own = [seat.index for seat in seats if user.is_authenticated and seat.user_id == user.pk]
    if not own:
        raise HintRefused("not_seated", 403)
    others = [seat for seat in seats if seat.index != own[0]]
    if any(seat.user_id is not None or not seat.bot_level for seat in others):
        raise HintRefused("not_bots_only", 403)
    return own[0]


def take_hint_slot(user) -> Taken:
    limit = hints_per_minute()
    return take(Count("analysis-hints", str(user.pk), limit, 60) if limit else None)


def hint(request, game: Game) -> dict:
    """{"version", "seat", "action", "text"}: the suggestion for the asker's decision now."""
    seat = hint_seat(game, request.user)
    taken = take_hint_slot(request.user)
    if taken.refusal:
        raise HintRefused("too_many", 429)
    view = view_for(load_state(game), seat)
    if not view["legal_actions"]:
        taken.give_back()  # no search, no hint
        raise HintRefused("not_your_turn", 409)
    bot = ai.make_bot("hard", seed=HINT_SEED, iterations=hint_iterations())
    action = bot_choice(bot, view, game.pk, game.version)
    move = StepLabels(replay_game_info(game)["seats"]).action(seat, action)
    return {
        "version": game.version,
        "seat": seat,
        "action": action,
        "text": _("The search suggests: %(move)s") % {"move": move},
    }
