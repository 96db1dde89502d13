"""A learned cut-off evaluation: each seat's chance to win the game, from a position where a
battle has just ended (where the search stops its simulations).

The model is a conditional logit, one per player count: each seat's value is a weighted sum of
public-shape features of its position (progress toward the win targets, what its hand holds, the
Condottiere token), and the win chances are the softmax of the values. It has the same shape as
the hand-built `Evaluator` (progress plus a share of each card point, through a softmax), with
the weights fitted to who went on to win seeded self-play games (`python -m ai.search.train_value`)
instead of tuned by hand. The weights ship in `value_model.json`.
"""

import json
import math
from operator import mul
from pathlib import Path

from games.engine import (
    BISHOP,
    COURTESAN,
    DRUMMER,
    HEROINE,
    OVER,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
    largest_group,
)

from ..board import win_targets
from .evaluation import finished_rewards, hand_worth, kept_value

DATA_FILE = Path(__file__).with_name("value_model.json")
FORMAT = 1
PRINTED = (1, 2, 3, 4, 5, 6, 10)
CARD_POINTS = 60.0  # a scale for card points, so that every feature is of order one

FEATURES = (
    "progress",  # the nearer of regions / total target and largest group / connected target
    "regions",  # regions / total target
    "group",  # largest connected group / connected target
    "progress_squared",  # the last region counts for more than the first
    "one_away",  # one region short of a win target
    "token",  # holds the Condottiere token: chooses where the next battle is
    "hand_worth",  # card points of the hand for the rest of the round (evaluation.hand_worth)
    "cards",  # cards in hand / 10
    "mercenary_points",  # printed Mercenary points in hand
    "heroines",
    "courtesans",
    "drummers",
    "scarecrows",
    "surrenders",
    "bishops",
    "seasons",  # Winter and Spring
    "kept_worth",  # the round is over: the two kept cards' edge (evaluation.kept_value)
)


def seat_features(state, seat: int, mask: int, total: int, connected: int, round_over: bool):
    """The features of one seat (FEATURES order). The hand features are 0 once the round is
    over, when the hands are about to be replaced, except the two cards the last holder keeps."""
    count = mask.bit_count()
    group = largest_group(mask)
    regions, grouped = count / total, group / connected
    progress = min(0.99, max(regions, grouped))
    one_away = 1.0 if count == total - 1 or group == connected - 1 else 0.0
    token = 1.0 if state.token == seat else 0.0
    hand = state.hands[seat]
    shape = [progress, regions, grouped, progress * progress, one_away, token]
    if round_over:
        return shape + [0.0] * 10 + [kept_value(hand) / CARD_POINTS]
    mercenaries = sum(points * hand[kind] for kind, points in enumerate(PRINTED))
    return shape + [
        hand_worth(hand) / CARD_POINTS,
        state.sizes[seat] / 10,
        mercenaries / CARD_POINTS,
        hand[HEROINE],
        hand[COURTESAN],
        hand[DRUMMER],
        hand[SCARECROW],
        hand[SURRENDER],
        hand[BISHOP],
        hand[WINTER] + hand[SPRING],
        0.0,
    ]


def position_features(state, total: int, connected: int) -> list[list[float]]:
    """Every seat's features (a list per seat) in a position that is not over."""
    masks = [0] * state.n
    for region, owner in enumerate(state.owners):
        if owner >= 0:
            masks[owner] |= 1 << region
    round_over = sum(1 for size in state.sizes if size) <= 1
    return [
        seat_features(state, seat, masks[seat], total, connected, round_over)
        for seat in range(state.n)
    ]


def softmax(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp(value - top) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def win_chances(weights: list[float], features: list[list[float]]) -> list[float]:
    """The softmax of each row's weighted sum. The search calls this for every modelled move,
    so the sums use map (twice as fast as a generator, the same products in the same order)."""
    for row in features:
        if len(row) != len(weights):
            raise ValueError(f"{len(row)} features for {len(weights)} weights")
    return softmax([sum(map(mul, weights, row)) for row in features])


def load_weights(path: Path = DATA_FILE) -> dict[int, list[float]]:
    """{player count: weights} from the shipped model; ValueError if its features differ."""
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT or tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path} is not a value model of these features; retrain it")
    return {int(players): weights for players, weights in data["weights"].items()}


_SHIPPED = {}


def shipped_weights(players: int) -> list[float]:
    if not _SHIPPED:
        _SHIPPED.update(load_weights())
    if players not in _SHIPPED:
        raise ValueError(f"the value model has no weights for {players} players")
    return _SHIPPED[players]


class LearnedEvaluator:
    """`Evaluator`'s interface (`rewards(state)`), with the learned win chances as rewards."""

    def __init__(self, players: int, bigger_kingdoms: bool, weights: list[float] | None = None):
        self.players = players
        self.total, self.connected = win_targets(players, bigger_kingdoms)
        self.weights = shipped_weights(players) if weights is None else weights

    def rewards(self, state) -> list[float]:
        if state.phase == OVER:
            return finished_rewards(state, self.players)
        return win_chances(self.weights, position_features(state, self.total, self.connected))
