"""The scoring of Playing for Points, as pure functions (docs/matches.md).

[rules] Each game scores 1 point per region a player controls at its end, +5 to a winner by
adjacency (the engine's `match_points`, which Condottiere's ruleset gives as its scores once a
game is over). Once one or more players reach the agreed score, the highest total wins the
match; players tied at the top settle it by a final game among them. Matches are Condottiere's
only (games.rules_api: `plays_matches`).
"""

from dataclasses import dataclass

from games.rules_api import CONDOTTIERE

GO_ON, WON, TIED = "go_on", "won", "tied"


def game_points(state) -> list[int]:
    """The points a finished Condottiere game gives each seat (ValueError for a game not over)."""
    if not CONDOTTIERE.is_terminal(state):
        raise ValueError("points are scored only for a finished game")
    return CONDOTTIERE.scores(state)


def totals(points_per_game: list[list[int]], players: int) -> list[int]:
    """Each seat's total over the games scored so far."""
    sums = [0] * players
    for points in points_per_game:
        for seat, value in enumerate(points):
            sums[seat] += value
    return sums


@dataclass(frozen=True)
class Standing:
    """Where a match stands: go on, won by `seats` (one), or tied at the top among `seats`."""

    outcome: str
    seats: tuple[int, ...] = ()


def standing(points_per_game: list[list[int]], players: int, target: int) -> Standing:
    """Go on while nobody has reached `target`; then the highest total wins, or the players
    tied on it play the decider."""
    sums = totals(points_per_game, players)
    if max(sums) < target:
        return Standing(GO_ON)
    best = max(sums)
    top = tuple(seat for seat, value in enumerate(sums) if value == best)
    return Standing(WON if len(top) == 1 else TIED, top)


def decider_winners(game_winners: list[int], seats: list[int]) -> list[int]:
    """The match seats that won the decider: its game's winners mapped back to the match's
    seats (several when the decider's own final battle was shared)."""
    return sorted(seats[seat] for seat in game_winners)
