"""A learned model of how `hard` plays a battle, for the search to play the other seat with.

The search plays the other seats by a model (opponents.py). The heuristic is the usual one, but
`hard`, the level `expert` must beat, departs from the heuristic's move in about 45% of its
battle decisions, mostly by playing on where the heuristic would pass. This model is a
conditional logit over the legal battle actions, fitted to `hard`'s choices in seeded games
between `hard` bots (train_imitation.py): each action is described by how the heuristic rates
it and what it does (pass or play, which card, the margin after it), and the model's chance of
an action is the softmax of a weighted sum of its features. It is sampled, not maximised: the
same public situation gets different answers from `hard`, whose search depends on the hand.

Other decisions (the region, keeping cards, drawing) are left to the heuristic.
"""

import json
from functools import cache
from pathlib import Path

from ..battle_play import BattleReader, Style, choose_battle_action
from ..cards import MERCENARY_VALUES, hand_value
from ..heuristic import choose_by_phase
from ..situation import Situation
from .value_model import win_chances

DATA_FILE = Path(__file__).with_name("imitation_model.json")
FORMAT = 1
SPECIAL_CARDS = (
    "heroine",
    "scarecrow",
    "drummer",
    "bishop",
    "winter",
    "spring",
    "surrender",
    "courtesan",
)
# Each special card's one-hot flags, and a row's flags for any other card (or a pass).
SPECIAL_FLAGS = {
    card: tuple(float(card == other) for other in SPECIAL_CARDS) for card in SPECIAL_CARDS
}
NO_SPECIAL = (0.0,) * len(SPECIAL_CARDS)
FEATURES = (
    "score_gap",  # the heuristic's score less its best, in units of what the battle is worth
    "heuristic_choice",
    "pass",
    "pass_margin",  # our strength lead over the best rival, when passing
    "pass_own_cards",
    "pass_rival_cards",
    "pass_leading",
    "card_cost",  # the card's worth kept in hand, less a Mercenary it takes back
    "mercenary",
    "mercenary_value",
    "margin_after",
    "leading_after",
    "play_threats",  # rivals who can still answer a play
    "pass_rivals_passed",
    "pass_stake",
    "pass_hand_value",
    "pass_own_line",
    "pass_threats",
    "takes_back",
    "taken_value",
    "heuristic_second",
    "heuristic_third",
    *SPECIAL_CARDS,
)


def is_battle_decision(view: dict) -> bool:
    return view["legal_actions"][0]["type"] in ("play", "pass")


def _clip(value: float, bound: float = 2.0) -> float:
    return max(-bound, min(bound, value))


def battle_features(view: dict) -> list[list[float]]:
    """One row of FEATURES per legal action of a battle decision, in the view's order."""
    sit = Situation.from_view(view)
    style = Style()
    reader = BattleReader(view, sit, style)
    actions = view["legal_actions"]
    scores = [reader.score(action) for action in actions]
    best = max(scores)
    scale = abs(reader.stake) + 3.0
    heuristic = actions.index(choose_battle_action(view, sit, style, reader=reader, scores=scores))
    order = sorted(range(len(actions)), key=lambda i: -scores[i])
    # The actions the heuristic ranks second and third (None when there are fewer).
    second, third = (order + [None, None])[1:3]
    me = view["seat"]
    rivals = [p for p in view["players"] if p["seat"] != me]
    own_cards = len(view["hand"]) / 10
    rival_cards = max(p["hand_size"] for p in rivals) / 10
    margin = reader.current_margin()
    passing_context = [
        _clip(margin / 10),
        own_cards,
        rival_cards,
        float(margin > 0),
    ]
    passing_more = [
        float(all(p["passed"] for p in rivals)),
        min(3.0, reader.stake / 30),
        hand_value(view["hand"]) / 30,
        len(view["players"][me]["line"]) / 5,
        reader.threats / 2,
    ]
    # A play's passing features are the passing ones times False (so -0.0 where they are
    # negative, exactly as the rows were fitted).
    playing_context = [value * False for value in passing_context]
    playing_more = [value * False for value in passing_more]
    rows = []
    for index, action in enumerate(actions):
        passing = action["type"] == "pass"
        card = action.get("card")
        taken = action.get("take")
        after = margin if passing else reader.margin_after(action)
        row = [(scores[index] - best) / scale, float(index == heuristic), float(passing)]
        row += passing_context if passing else playing_context
        row += [
            0.0 if passing else reader.card_cost(action) / 10,
            float(card in MERCENARY_VALUES),
            MERCENARY_VALUES.get(card, 0) / 10,
            _clip(after / 10),
            float(after > 0),
            0.0 if passing else reader.threats / 2,
        ]
        row += passing_more if passing else playing_more
        row += [
            float(bool(taken)),
            MERCENARY_VALUES.get(taken, 0) / 10,
            float(index == second),
            float(index == third),
        ]
        row += SPECIAL_FLAGS.get(card, NO_SPECIAL)
        rows.append(row)
    return rows


def choice_chances(weights: list[float], view: dict) -> list[float]:
    """The model's chance of each legal action of a battle decision (the value model's softmax
    of weighted features, over actions in place of seats)."""
    return win_chances(weights, battle_features(view))


def load_weights(path: Path = DATA_FILE) -> list[float]:
    """The fitted weights; ValueError if the file was fitted to other features."""
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT or tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path} is not an imitation model of these features; retrain it")
    return data["weights"]


@cache
def shipped_weights() -> tuple[float, ...]:
    return tuple(load_weights())


class ImitationModel:
    """Chooses as the fitted model of `hard` does: a battle action drawn from its chances,
    anything else by the heuristic."""

    def __init__(self, weights=None):
        self.weights = list(shipped_weights() if weights is None else weights)
        self.style = Style()

    def choose(self, view: dict, rng) -> dict:
        actions = view["legal_actions"]
        if not is_battle_decision(view):
            return choose_by_phase(view, self.style)
        threshold = rng.random()
        for action, chance in zip(actions, choice_chances(self.weights, view), strict=True):
            threshold -= chance
            if threshold <= 0:
                return action
        return actions[-1]
