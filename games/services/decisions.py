"""Which versions a decision may be made against: a show is not a decision.

Any seat may show cards at any time; a show is logged and makes a new version (so that every
view is read afresh), but it changes nothing anyone decides on: not whose turn it is, not the
hands, not the board. So the decision awaited at version V is still the one awaited at every
later version made only by shows, and an action sent against V is judged as if sent against the
newest: the person who chose it, and the bot or turn timer announced at V, are not told `stale`
because someone else showed cards meanwhile. A version after a real move is stale, as always.
"""

from games.models import Action, Game


def decided_since(game_id: int, version: int) -> bool:
    """Whether anything but a show was logged after `version` (seq is the version it made)."""
    later = Action.objects.filter(game_id=game_id, seq__gt=version)
    return later.exclude(action__type="show").exists()


def still_deciding(game: Game, version: int) -> bool:
    """Whether the decision awaited at `version` is the one `game` awaits now: the same
    version, or an older one that only shows came after. (Reads the log only when the versions
    differ.)"""
    if version == game.version:
        return True
    return 0 <= version < game.version and not decided_since(game.pk, version)
