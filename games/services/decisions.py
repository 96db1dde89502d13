"""Which versions a seat's decision may be made against: only a change of that decision makes a
version stale.

Every accepted action makes a new version, so that every view is read afresh. But not every
action changes what every seat is deciding: a Condottiere show changes nothing anyone decides
on; in the Renaissance vote each seat votes on its own, so one seat's vote leaves another's
choice as it was; an offer of diplomacy changes nobody's move. The game row keeps, per seat, the
version at which the decision that seat is asked now began (`Game.seat_versions`, set by the one
way in with the ruleset's `decision_changed`). An action sent against any version since is
judged against the newest: the person who chose it, and the bot or turn timer announced for it,
are not told `stale` because another seat acted meanwhile. A version older than the seat's
decision is stale, as always.

Games stored before seat versions existed have none: for them only shows pass (the log says
which actions were shows), as before.
"""

from games.models import Action, Game


def decided_since(game_id: int, version: int) -> bool:
    """Whether anything but a show was logged after `version` (seq is the version it made)."""
    later = Action.objects.filter(game_id=game_id, seq__gt=version)
    return later.exclude(action__type="show").exists()


def decision_began(game: Game, seat: int) -> int | None:
    """The version at which `seat`'s current decision began, or None if the game row does not
    say (a game stored before seat versions)."""
    versions = game.seat_versions
    return versions[seat] if versions and 0 <= seat < len(versions) else None


def still_deciding(game: Game, version: int, seat: int | None = None) -> bool:
    """Whether the decision `seat` was asked at `version` is the one it is asked now. Without a
    seat: whether the game awaits the same decisions as at `version` (nobody's changed)."""
    if version == game.version:
        return True
    if not 0 <= version < game.version:
        return False
    if not game.seat_versions:
        return not decided_since(game.pk, version)
    seats = range(len(game.seat_versions)) if seat is None else (seat,)
    return all(version >= decision_began(game, index) for index in seats)


def next_seat_versions(ruleset, game: Game, before, after, actor: int, action, version: int):
    """Every seat's decision version once `action` by `actor` made `version`: the new version
    for each seat whose decision the action changed, the old one for the others."""
    old = game.seat_versions or [game.version] * game.players
    return [
        version if ruleset.decision_changed(before, after, seat, actor, action) else old[seat]
        for seat in range(game.players)
    ]
