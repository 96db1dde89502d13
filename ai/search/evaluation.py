"""Cut-off evaluation: how good a (determinized) position is for each seat, as rewards in [0, 1].

Playouts stop at the end of a battle instead of the end of the game (whole games are far too
long to simulate thousands of times a second). The position is then scored from what decides
games: progress toward the win targets (regions owned, the largest connected group) and the
cards left in hand for the rest of the round. The per-seat values go through a softmax so that
rewards add up to 1, like the shared 1/k of a finished game.
"""

import math

from games.engine import COURTESAN, HEROINE, MERCENARY_KINDS, OVER, largest_group

from ..board import win_targets
from ..cards import HAND_VALUE
from ..situation import POINTS_PER_PROGRESS

STRENGTH_KINDS = (*MERCENARY_KINDS, HEROINE, COURTESAN)

HAND_VALUE_BY_KIND = (
    *(HAND_VALUE[f"m{v}"] for v in (1, 2, 3, 4, 5, 6, 10)),
    HAND_VALUE["winter"],
    HAND_VALUE["spring"],
    HAND_VALUE["bishop"],
    HAND_VALUE["courtesan"],
    HAND_VALUE["drummer"],
    HAND_VALUE["heroine"],
    HAND_VALUE["scarecrow"],
    HAND_VALUE["surrender"],
)


# How much of a card point's worth (POINTS_PER_PROGRESS) a card in hand keeps, measured with the
# arena (docs/ai.md, "Tried and dropped", one hand weight for every table size). With 2 or 3
# players 0.3 did as well as or better than 0.5 and 0.7; with 4 players 0.7 won the most (0.3,
# 0.5 and 1.0 less), and with 5 it beat 0.3. A likely reason: a round goes on until all hands
# but one are empty, which with more players takes more battles, so a card in hand has more
# chances to be used.
HAND_WEIGHT_FEW_PLAYERS = 0.3
HAND_WEIGHT_MANY_PLAYERS = 0.7
MANY_PLAYERS = 4


class Evaluator:
    """Scores positions of one game (player count and options fixed)."""

    def __init__(
        self,
        players: int,
        bigger_kingdoms: bool,
        *,
        hand_weight=None,
        sharpness=6.0,
        round_end=True,
    ):
        self.players = players
        self.round_end = round_end
        self.total, self.connected = win_targets(players, bigger_kingdoms)
        if hand_weight is None:
            many = players >= MANY_PLAYERS
            hand_weight = HAND_WEIGHT_MANY_PLAYERS if many else HAND_WEIGHT_FEW_PLAYERS
        # A card point in hand is worth this much progress: cards last only until the round ends.
        self.card_progress = hand_weight / POINTS_PER_PROGRESS
        self.sharpness = sharpness
        self._progress_cache = {}

    def progress(self, mask: int) -> float:
        cached = self._progress_cache.get(mask)
        if cached is None:
            count = mask.bit_count()
            cached = min(0.99, max(count / self.total, largest_group(mask) / self.connected))
            self._progress_cache[mask] = cached
        return cached

    def rewards(self, state) -> list[float]:
        if state.phase == OVER:
            return finished_rewards(state, self.players)
        masks = [0] * self.players
        for region, owner in enumerate(state.owners):
            if owner >= 0:
                masks[owner] |= 1 << region
        round_over = self.round_end and sum(1 for size in state.sizes if size) <= 1
        values = []
        for seat in range(self.players):
            hand = state.hands[seat]
            cards = kept_value(hand) if round_over else hand_worth(hand)
            values.append(self.progress(masks[seat]) + self.card_progress * cards)
        top = max(values)
        weights = [math.exp(self.sharpness * (value - top)) for value in values]
        total = sum(weights)
        return [weight / total for weight in weights]


def finished_rewards(state, players: int) -> list[float]:
    """A finished game's rewards: 1/k to each of its k winners."""
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(players)]


# A dealt card's worth on average (in HAND_VALUE points): kept cards replace dealt ones.
AVERAGE_DEALT_VALUE = 3.5


def kept_value(hand) -> float:
    """What a hand is worth when the round is over: its holder keeps its best two cards in place
    of two dealt ones (every seat is dealt up to 10), so only their edge over average counts."""
    best = sorted(
        (HAND_VALUE_BY_KIND[kind] for kind, count in enumerate(hand) for _ in range(count)),
        reverse=True,
    )[:2]
    return max(0.0, sum(best) - AVERAGE_DEALT_VALUE * len(best))


def hand_worth(hand) -> float:
    """Card points of a hand for the rest of the round. A hand with no card that adds strength
    (Mercenary, Heroine, Courtesan) can never win a battle, only spoil others': worth nothing,
    which also keeps the search from hoarding such scraps (a hand nobody plays or discards
    would keep the round going for ever)."""
    if not any(hand[kind] for kind in STRENGTH_KINDS):
        return 0.0
    return sum(count * HAND_VALUE_BY_KIND[kind] for kind, count in enumerate(hand) if count)
