"""Statistics for the arena: Wilson intervals and a Bradley–Terry rating from pairwise results."""

import math
from collections import defaultdict


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (fractional wins allowed)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def pairwise_scores(games: list[dict]) -> dict:
    """{(a, b): score of bot a against bot b}, over every pair of seats holding different bots
    in a game: 1 when a's seat won a larger share of the victory, half each when the shares are
    equal (a shared victory, or a third seat won)."""
    scores = defaultdict(float)
    for game in games:
        bots, shares = game["bots"], game["shares"]
        for i, a in enumerate(bots):
            for j, b in enumerate(bots):
                if a == b or i == j:
                    continue
                if shares[i] > shares[j]:
                    scores[a, b] += 1.0
                elif shares[i] == shares[j]:
                    scores[a, b] += 0.5
    return dict(scores)


def bradley_terry(scores: dict, iterations: int = 500) -> dict:
    """Ratings on the Elo scale (mean 1500) from pairwise scores, by the MM algorithm
    (Hunter 2004), with a tiny prior (one draw against an average player) so that a bot that
    won or lost everything still gets a finite rating."""
    bots = sorted({a for a, _ in scores} | {b for _, b in scores})
    if not bots:
        return {}
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(iterations):
        updated = {}
        for a in bots:
            wins = 0.5 + sum(s for (x, _), s in scores.items() if x == a)
            denominator = 1.0 / (strength[a] + 1.0)
            for b in bots:
                if b == a:
                    continue
                meetings = scores.get((a, b), 0.0) + scores.get((b, a), 0.0)
                if meetings:
                    denominator += meetings / (strength[a] + strength[b])
            updated[a] = wins / denominator
        mean_log = sum(math.log(v) for v in updated.values()) / len(bots)
        strength = {a: v / math.exp(mean_log) for a, v in updated.items()}
    return {a: 1500 + 400 * math.log10(strength[a]) for a in bots}
