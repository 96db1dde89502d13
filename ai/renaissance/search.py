"""The search levels for Renaissance (`medium`, `hard`): a determinized search from the seat's view
only, with the heuristic as its opponent model and the level's own rules of thumb (a
heuristic.Style: the war hand it buys) as its advice and its own seat's rollout policy.

A decision is searched in rounds. Each round draws one determinization of the view (the engine's
`determinize`: the hidden cards dealt at random among what the seat cannot see, the dice seeded
anew) and plays every candidate action of the root from it: the candidate first, then every seat
by the rules of thumb (this one by its level's style, the others by the heuristic's) for
`horizon` decisions; the position reached is scored by the seat's standing there (evaluation.py:
its worth in Renaissance Points to come, less its rivals' average, read from its own view of the
determinization, as its diplomacy judges offers). Every candidate of a round meets the same
hidden cards and the same dice (common random numbers), so the candidates are compared in pairs,
round by round, and a few rounds tell a real difference from the luck of the draw.

The level's own rules' choice is the default: the search plays another candidate only when its
mean reward beats that choice's, paired round by round, by `CONFIDENCE` standard errors and at
least `TRUST`. With many legal actions only `width` candidates are searched (that choice and
others drawn across the action types), so a round fits the budget.

Trivial decisions (one legal action) cost nothing, and the phases whose outcome lies past the
horizon (outside `SEARCHED_PHASES`) are left to the level's rules of thumb. A bot is
deterministic for a given (view, seed) when its budget is in rounds only (no clock): the tests'
way. The search reads only the view it is handed: determinizations are drawn from it, and the
rollouts decide from each seat's view of the determinization.
"""

import math
import time
from dataclasses import dataclass

import games.renaissance as renaissance

from ..seeding import decision_rng
from .evaluation import standing
from .heuristic import ARMED, READY, HeuristicBot
from .situation import Situation

# The non-validating apply, when the engine offers one: the rollouts play only listed actions.
APPLY = getattr(renaissance, "apply_trusted", renaissance.apply_action)


@dataclass(frozen=True)
class Budget:
    """A level's search: `seconds` per decision (a clock), at most `rounds` rounds, `width`
    candidates per round, `horizon` decisions per rollout."""

    seconds: float | None
    rounds: int
    width: int
    horizon: int


# The levels' budgets (docs/ai.md, results table, R-33 and R-35). A level plays its rounds
# (more on a contested decision, CONTESTED_ROUNDS); the clock is a safety net for a loaded
# machine, where the search stops early (and, below MIN_ROUNDS, plays the heuristic's move).
# `hard` must decide within 2 s at p95 on one core; a round costs about width x horizon x 1 ms
# of CPU. `medium` differs from `hard` by its rounds only: with 2 candidates and 6-decision
# rollouts it played below the heuristic (R-27, and 48 wins to the heuristic's 67 on R-29's
# deals).
BUDGETS = {
    "medium": Budget(seconds=0.3, rounds=6, width=3, horizon=12),
    "hard": Budget(seconds=1.0, rounds=10, width=3, horizon=12),
}
# The search overrules the heuristic only with a paired mean gain this many standard errors
# above zero, and at least TRUST (in RP), after at least MIN_ROUNDS rounds. At 1.5 standard
# errors and 3 rounds `hard` lost points to the heuristic it overruled (docs/ai.md, Renaissance:
# 54 games, -0.85 RP a game against the heuristic in its seat on the same deals): with so few
# rounds a lucky draw passes for a better move. Below MIN_ROUNDS (a loaded machine's clock)
# the heuristic's move is played.
CONFIDENCE = 2.0
TRUST = 0.05
MIN_ROUNDS = 6
# A decision still contested after the level's rounds (a candidate ahead of the heuristic's
# move on average, not yet clearly) is searched on, up to this many times the level's rounds:
# the rounds go where they can change the move.
CONTESTED_ROUNDS = 3

# The phases searched: those whose outcome a rollout of a few dozen decisions sees (a battle, a
# city taken or placed). Elsewhere the heuristic decides alone: a purchase or a vote pays off
# over the whole turn, past the horizon, where the evaluation can only count the ducats spent
# (searched, the purchases lost: the search kept ducats instead of buying cards and walls).
SEARCHED_PHASES = frozenset(
    {"expansion", "combat", "attack", "defend", "sign_of_god", "retreat", "corrupt", "neglect"}
)

# The opponent model: the `heuristic` level, without mistakes.
POLICY = HeuristicBot()
# Each level's own rules of thumb (heuristic.Style): its advice at the root, its moves outside
# the searched phases and its own seat's moves in the rollouts. The levels differ in how many
# cards they buy for a war more than in their search: over the armed style, `hard`'s 10 rounds
# gained +0.07 ± 0.54 RP a game on the armed style's own moves (docs/ai.md, R-33, R-34).
OWN_POLICIES = {"medium": HeuristicBot(style=READY), "hard": HeuristicBot(style=ARMED)}


class RenaissanceSearchBot:
    """`choose(view)` by the search above; `answer_offer(view)` and `make_offer(view)` by the
    heuristic's rules."""

    def __init__(self, seed=None, *, level="hard", budget: Budget | None = None):
        self.seed = seed
        self.level = level
        self.budget = budget or BUDGETS[level]
        self.last_rounds = 0
        self.policy = OWN_POLICIES[level]
        # The heuristic bot of this seat's diplomacy (its own: it remembers its offers).
        self.diplomat = HeuristicBot(seed)

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("this seat has nothing to decide in this view")
        self.last_rounds = 0
        if len(legal) == 1:
            return legal[0]
        advice = self.policy.choose(view)
        if view["phase"] not in SEARCHED_PHASES or most_rounds(self.budget) < MIN_ROUNDS:
            # Outside the searched phases, or with rounds too few ever to overrule the advice
            # (the arena's `hard:1`: the level's own rules of thumb, at their cost).
            return advice
        rng = decision_rng(self.seed, view)
        candidates = root_candidates(legal, advice, self.budget.width, rng)
        if len(candidates) == 1:
            return advice
        table = self.search(view, candidates, rng)
        self.last_rounds = len(table)
        return candidates[preferred(table)]

    def answer_offer(self, view: dict) -> dict | None:
        """Offers are answered by the heuristic's rule (ai/renaissance/offers.py)."""
        return self.diplomat.answer_offer(view)

    def make_offer(self, view: dict, made=()) -> dict | None:
        """Offers are made by the heuristic's rule too (`HeuristicBot.make_offer`); the
        diplomat remembers the offers it made, as the heuristic bot does."""
        return self.diplomat.make_offer(view, made)

    def search(self, view: dict, candidates: list, rng) -> list[list[float]]:
        """Rounds of rewards, one per candidate each; a round the clock cut short is dropped,
        so every kept round compares all candidates on the same determinization."""
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        seat = view["seat"]
        table = []
        most = most_rounds(budget)
        while len(table) < budget.rounds or (len(table) < most and contested(table)):
            state = renaissance.determinize(view, rng)
            row = []
            for action in candidates:
                if deadline is not None and time.perf_counter() >= deadline:
                    return table
                row.append(rollout(state, seat, action, budget.horizon, self.policy))
            table.append(row)
        return table


def rollout(state, seat: int, action: dict, horizon: int, own_policy) -> float:
    """`seat` plays `action`, then everyone plays by the rules of thumb for `horizon` decisions
    (`seat` by `own_policy`, the others by the opponent model, POLICY): this seat's reward
    there."""
    state = APPLY(state, seat, action)
    for _ in range(horizon):
        if renaissance.is_terminal(state):
            break
        # In the secret vote several seats act: they vote one by one (the order changes nothing).
        actor = min(renaissance.acting_seats(state))
        policy = own_policy if actor == seat else POLICY
        state = APPLY(state, actor, policy.choose(renaissance.view_for(state, actor)))
    return standing(Situation(renaissance.view_for(state, seat)), seat)


def most_rounds(budget: Budget) -> int:
    """The rounds a contested decision may take: CONTESTED_ROUNDS times the level's, if that
    reaches MIN_ROUNDS; else the level's own, since below MIN_ROUNDS the heuristic's move is
    played whatever the rounds say (the arena's `hard:1`, the heuristic in a search's seat)."""
    most = budget.rounds * CONTESTED_ROUNDS
    return most if most >= MIN_ROUNDS else budget.rounds


def root_candidates(legal: list, advice: dict, width: int, rng) -> list:
    """The heuristic's action first, then up to `width - 1` others, drawn one action type at a
    time in turn (an attack, a raid, the end of the turn...), so that a narrow search still
    weighs the different kinds of move rather than many variants of one."""
    by_type = {}
    for action in legal:
        if action != advice:
            by_type.setdefault(action["type"], []).append(action)
    groups = [rng.sample(actions, len(actions)) for actions in by_type.values()]
    rng.shuffle(groups)
    chosen = [advice]
    while len(chosen) < width and any(groups):
        for group in groups:
            if group and len(chosen) < width:
                chosen.append(group.pop())
    return chosen


def preferred(table: list[list[float]]) -> int:
    """The candidate to play: 0 (the heuristic's) unless another's reward, paired round by
    round, is clearly higher (CONFIDENCE, TRUST, MIN_ROUNDS); then the highest such."""
    if len(table) < MIN_ROUNDS:
        return 0
    best, best_gain = 0, 0.0
    for candidate, mean, margin in paired_gains(table):
        if mean > margin and mean > best_gain:
            best, best_gain = candidate, mean
    return best


def contested(table: list[list[float]]) -> bool:
    """Whether another round may still settle the choice: some candidate gains on the
    heuristic's move on average, but not yet clearly (`preferred` would not play it)."""
    if len(table) < MIN_ROUNDS:
        return True
    gains = paired_gains(table)
    clear = any(mean > margin for _candidate, mean, margin in gains)
    return not clear and any(mean > 0 for _candidate, mean, _margin in gains)


def paired_gains(table: list[list[float]]) -> list[tuple[int, float, float]]:
    """(candidate, mean gain on the heuristic's move paired round by round, the margin it must
    exceed: CONFIDENCE standard errors and at least TRUST) for each candidate but the first."""
    rounds = len(table)
    found = []
    for candidate in range(1, len(table[0])):
        gains = [row[candidate] - row[0] for row in table]
        mean = sum(gains) / rounds
        variance = sum((gain - mean) ** 2 for gain in gains) / (rounds - 1)
        found.append((candidate, mean, max(TRUST, CONFIDENCE * math.sqrt(variance / rounds))))
    return found
