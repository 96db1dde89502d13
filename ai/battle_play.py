"""The heuristic's battle decisions: score each legal play by the chance it leaves us winning the
battle, times what the battle is worth, minus what the card would be worth kept for later.

The chance is a rule of thumb on the strength margin: a lead is safer the fewer rivals can still
answer; a lead we pass on cannot be defended any more. This one formula yields the usual advice —
pass while comfortably ahead, keep Surrender until it wins, Bishop when a rival's top Mercenary
outranks ours, Winter against big Mercenary lines, Spring when we hold the top Mercenary, Scarecrow
to save a big card from a lost battle — because each card's effect on the lines is simulated.
"""

import math
from dataclasses import dataclass
from functools import lru_cache

from games.engine import battle_strengths

from .cards import HAND_VALUE, MERCENARY_VALUES, lines_after_play
from .situation import Situation, hidden_bonus, visible_lines

FINAL_BATTLE_POINTS = 100.0
TOKEN_POINTS = 4.0  # choosing the next region is worth a few card points
POPE_WEIGHT = 0.3  # the Pope shields a region for the future, not in this battle


@dataclass(frozen=True)
class Style:
    """Tunable temper of the heuristic: how dear cards are (how safe a lead must be is fixed in
    `win_chance`)."""

    card_cost: float = 0.7


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def win_chance(margin: float, threats: float, can_answer: bool) -> float:
    """Rough chance of ending on top with `margin` when `threats` rivals may still play."""
    if threats <= 0.01:
        if margin > 0:
            return 1.0
        return 0.15 * math.exp(margin / 5.0) if can_answer else 0.0
    bias = 2.5 * threats - (2.0 if can_answer else 0.0)
    return sigmoid((margin - bias) / (4.0 + 2.0 * threats))


class BattleReader:
    """Everything about the current battle one decision needs, read once from the view."""

    def __init__(self, view: dict, sit: Situation, style: Style):
        self.view, self.sit, self.style = view, sit, style
        self.me = sit.seat
        self.rivals = tuple(sit.rivals())
        self.lines = visible_lines(view)
        self.bonus = hidden_bonus(view)
        self.bonus[self.me] = 0
        players = view["players"]
        # A rival with cards who has not passed can still answer; one with few cards barely.
        self.threats = sum(
            min(1.0, p["hand_size"] / 3.0)
            for p in players
            if p["seat"] != self.me and not p["passed"] and p["hand_size"] > 0
        )
        self.stake = self._stake()
        self.cost_weight = 0.0 if sit.final_battle else style.card_cost
        self._play_scores = {}
        self._play_margins = {}
        self._pope_values = {}
        self._margin_now = None

    def _stake(self) -> float:
        """Card points between us winning and the likeliest rival winning."""
        if self.sit.final_battle or self.sit.region is None:
            return FINAL_BATTLE_POINTS
        region = self.sit.region
        mine = self.sit.value_of_winning(self.me, region)
        strengths = self.strengths(self.lines)
        rival = max(self.sit.rivals(), key=lambda s: (strengths[s], s != self.sit.defender))
        return max(3.0, mine - self.sit.value_of_winning(rival, region))

    def strengths(self, lines) -> list[float]:
        return [s + b for s, b in zip(printed_strengths(lines), self.bonus, strict=True)]

    def margin(self, lines) -> float:
        """Our strength minus the best rival's; ties lean to the defender (Capturing Regions)."""
        strengths = self.strengths(lines)
        best_rival = max(strengths[s] for s in self.rivals)
        margin = strengths[self.me] - best_rival
        if self.sit.defender is not None:
            margin += 0.5 if self.sit.defender == self.me else -0.5
        return margin

    def current_margin(self) -> float:
        """`margin` of the lines as they stand: passing, Surrender and the imitation model's
        features all read it, so it is worked out once per decision."""
        if self._margin_now is None:
            self._margin_now = self.margin(self.lines)
        return self._margin_now

    def score(self, action: dict) -> float:
        if action["type"] == "pass":
            return self._score_pass(action)
        card = action["card"]
        if card == "surrender":
            won = self.current_margin() > 0
            return (self.stake if won else 0.0) - self.cost_weight * HAND_VALUE[card]
        return self._play_score(card, action.get("take")) + self._pope_extra(action)

    def _play_score(self, card: str, taken: str | None) -> float:
        """The score of playing `card` before any Pope placement: a Bishop offers one action per
        region, all with the same effect on the lines, so it is worked out once per decision."""
        key = (card, taken)
        cached = self._play_scores.get(key)
        if cached is None:
            play = {"card": card, "take": taken} if taken else {"card": card}
            after = lines_after_play(self.lines, self.me, play)
            margin = self._play_margins[key] = self.margin(after)
            chance = win_chance(margin, self.threats, can_answer=True)
            cached = chance * self.stake - self.cost_weight * self.card_cost(play)
            if card == "courtesan" and not self.sit.final_battle and self._leads_courtesans(after):
                cached += TOKEN_POINTS
            self._play_scores[key] = cached
        return cached

    def margin_after(self, action: dict) -> float:
        """Our margin once `action` (a play) is on the table: scoring a play works it out, so a
        caller that scored the actions reads it here for free."""
        key = (action["card"], action.get("take"))
        margin = self._play_margins.get(key)
        if margin is None:
            after = lines_after_play(self.lines, self.me, action)
            margin = self._play_margins[key] = self.margin(after)
        return margin

    def _pope_extra(self, action: dict) -> float:
        if action["card"] != "bishop" or "pope" not in action or self.sit.final_battle:
            return 0.0
        region = action["pope"]
        value = self._pope_values.get(region)
        if value is None:
            value = self._pope_values[region] = POPE_WEIGHT * pope_value(self.sit, region)
        return value

    def _score_pass(self, action: dict) -> float:
        chance = win_chance(self.current_margin(), self.threats, can_answer=False)
        score = chance * self.stake
        if action.get("reveal"):
            score -= 0.1  # revealing only tells the rivals what to beat
        return score

    def card_cost(self, action: dict) -> float:
        cost = HAND_VALUE[action["card"]]
        taken = action.get("take")
        if taken:
            cost -= MERCENARY_VALUES[taken]  # the Mercenary comes back to hand
        return cost

    def _leads_courtesans(self, lines) -> bool:
        counts = [line.count("courtesan") for line in lines]
        return all(counts[self.me] > counts[s] for s in self.rivals)


def printed_strengths(lines) -> tuple[int, ...]:
    """`battle_strengths` of visible lines (lists of card codes), memoised."""
    return _printed_strengths(tuple(map(tuple, lines)))


# Battle lines are public, so the same few recur across decisions: a search's heuristic opponents
# score them thousands of times a move.
@lru_cache(maxsize=50_000)
def _printed_strengths(lines: tuple) -> tuple[int, ...]:
    return tuple(battle_strengths(lines))


# Memoised: bishops offer one action per region, and a Situation is an immutable value that a
# search's heuristic opponents meet again and again.
@lru_cache(maxsize=1 << 16)
def pope_value(sit: Situation, region: str | None) -> float:
    """[rules] The Pope shields a region from battle: best on the one a rival needs most."""
    if region is None:
        return 0.0
    denied = max(-sit.value_of_winning(s, region) for s in sit.rivals())
    own_need = sit.value_of_winning(sit.seat, region)
    return denied - own_need


def defender_may_wait(view: dict, sit: Situation) -> bool:
    """[rules] Capturing Regions: a defender who has not played may pass without leaving, so
    waiting until the attackers have committed costs nothing."""
    if sit.defender != sit.seat or view["players"][sit.seat]["line"]:
        return False
    return any(not p["passed"] for p in view["players"] if p["seat"] != sit.seat)


def uncontested_win(view: dict, reader: BattleReader) -> dict | None:
    """The cheapest card that wins a battle nobody has fought: every rival has passed and no card
    lies on the table. Passing there ends the battle without a winner and changes nothing, so
    players who all wait for a better moment would pass battle after battle for ever (an
    all-pass stalemate: a lone Mercenary 10 kept against a rival's hand of small ones); a
    region for one card is worth taking."""
    players = view["players"]
    if any(p["line"] for p in players):
        return None
    if not all(p["passed"] for p in players if p["seat"] != reader.me):
        return None
    if reader.current_margin() > 0:  # a defender already keeps the region by passing
        return None
    winning = [
        action
        for action in view["legal_actions"]
        if action["type"] == "play"
        and action["card"] != "surrender"
        and reader.margin(lines_after_play(reader.lines, reader.me, action)) > 0
    ]
    return min(winning, key=reader.card_cost, default=None)


def choose_battle_action(
    view: dict, sit: Situation, style: Style, rng=None, noise=0.0, reader=None, scores=None
) -> dict:
    """The heuristic's battle action. `reader`: this view's BattleReader when the caller has
    one; `scores`: its score of each legal action, in the view's order, when the caller has
    them too (the imitation model scores every action for its features)."""
    actions = view["legal_actions"]
    if defender_may_wait(view, sit):
        return next(a for a in actions if a["type"] == "pass" and not a.get("reveal"))
    if reader is None:
        reader = BattleReader(view, sit, style)
    free_region = uncontested_win(view, reader)
    if free_region is not None:
        return free_region

    if not noise:
        if scores is not None:
            return actions[scores.index(max(scores))]  # the first best, as max() picks
        return max(actions, key=reader.score)

    def noisy(action):
        return reader.score(action) + rng.gauss(0.0, noise * (abs(reader.stake) + 3.0))

    return max(actions, key=noisy)
