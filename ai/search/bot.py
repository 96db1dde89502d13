"""The search levels: ISMCTS bots that decide from a view, within an iteration or time budget."""

import time

from games.engine import action_to_move, determinize

from ..battle_play import Style
from ..heuristic import choose_by_phase, choose_discard
from ..inference import weighted_determinizations
from ..seeding import decision_rng
from .coalition import suspects_coalition
from .evaluation import Evaluator
from .opponents import check_opponent_model, opponent_model
from .tree import Search
from .value_model import LearnedEvaluator

EVALUATORS = {"hand-built": Evaluator, "learned": LearnedEvaluator}

# Determinizations drawn fresh before the search cycles through them again. More change a
# 10,000-iteration search's choices little for 40% more CPU (docs/ai.md, "Tried and dropped",
# a fresh determinization every iteration).
DETERMINIZATIONS = 250
# Root moves whose mean reward is within this of the heuristic's move lose to it: with a
# thousand noisy iterations many moves look alike, and the rules of thumb break such ties well.
HEURISTIC_TRUST = 0.03
# The search overrules the heuristic's move only with a mean reward this many standard errors
# better (tree.overrule_advice); HEURISTIC_TRUST is the fallback when the advice is not a root move.
OVERRULE_CONFIDENCE = 1.5
# With inference, the pool of determinizations is resampled from this many times as many uniform
# ones, weighted by what the other seats' public play says of their hands (ai/inference).
INFERENCE_CANDIDATES = 2


def answer_without_search(view: dict) -> dict | None:
    """The decisions not worth a search: the only legal action, and whether to discard the hand.

    [ruling] Every seat with cards is asked whether to discard its hand; one holding a Mercenary
    has one answer, given at once. The free choice (no Mercenary) is given at once too, by the
    rule of thumb (`heuristic.choose_discard`): searched, it would take the thinking time while
    the forced answer takes none, and the bot's speed would tell the table whether its hand holds
    a Mercenary. None: search."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has nothing to decide in this view")
    if len(actions) == 1:
        return actions[0]
    if actions[0]["type"] == "discard_hand":
        return choose_discard(view)
    return None


class SearchBot:
    """SO-ISMCTS over determinizations of the view. Deterministic for a given (view, seed,
    iterations, history) when no `time_limit` is set.

    With `inference`, `choose(view, history)` weighs the determinizations by what each other
    seat's public play this round reveals of its hand (`ai.inference`); `history` is the list of
    spectator views after every action so far, oldest first, and `uses_history` tells callers
    to pass it. Without a history the determinizations stay uniform."""

    def __init__(
        self,
        seed=None,
        *,
        iterations=None,
        time_limit=None,
        exploration=0.7,
        battles=1,
        level="medium",
        confidence=OVERRULE_CONFIDENCE,
        inference=False,
        coalition=False,
        value="hand-built",
        opponents="searched",
        determinizations=DETERMINIZATIONS,
    ):
        if iterations is None and time_limit is None:
            raise ValueError("a search bot needs a budget: iterations and/or time_limit")
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.battles = battles
        self.level = level
        self.confidence = confidence
        self.inference = inference
        # Model the other seats as one team playing against this one (see tree.Search): True,
        # False, or "auto": when the public history shows them sparing one another (coalition.py).
        self.coalition = coalition
        if value not in EVALUATORS:
            raise ValueError(
                f"unknown cut-off evaluation {value!r}; choose one of {sorted(EVALUATORS)}"
            )
        # The cut-off evaluation: "hand-built" (evaluation.py) or "learned" (value_model.py).
        self.value = value
        check_opponent_model(opponents)
        # How the other seats choose inside the tree (opponents.py).
        self.opponents = opponents
        # How many determinizations to draw before cycling through them (see run).
        self.determinizations = determinizations
        self.last_iterations = 0

    @property
    def uses_history(self) -> bool:
        """Whether `choose` wants the game's public history (spectator views)."""
        return self.inference or self.coalition == "auto"

    def choose(self, view: dict, history: list | None = None) -> dict:
        answer = answer_without_search(view)
        if answer is not None:
            return answer
        rng = decision_rng(self.seed, view)
        _search, _advice, move = self.searched_move(view, rng, history)
        return self.action_for(view, move, rng)

    def searched_move(self, view: dict, rng, history: list | None = None):
        """Search `view`: (the search, the heuristic's move, the move chosen, which is the
        heuristic's unless the search finds another clearly better)."""
        search = self.run(view, rng, history)
        advice = self.advice_move(view, search.first_state)
        return search, advice, search.best_move(advice, HEURISTIC_TRUST, self.confidence)

    @staticmethod
    def advice_move(view: dict, state):
        """The heuristic's move: the search overrules it only when clearly better."""
        return action_to_move(state, choose_by_phase(view, Style()))

    def models_a_coalition(self, view: dict, history: list | None) -> bool:
        if self.coalition == "auto":
            return suspects_coalition(history, view["seat"])
        return bool(self.coalition)

    def run(self, view: dict, rng, history: list | None = None) -> Search:
        options = view.get("options") or {}
        evaluator = EVALUATORS[self.value](
            len(view["players"]), bool(options.get("bigger_kingdoms"))
        )
        team_against = view["seat"] if self.models_a_coalition(view, history) else None
        search = Search(
            evaluator,
            rng,
            exploration=self.exploration,
            battles=self.battles,
            team_against=team_against,
            opponents=opponent_model(self.opponents, team_against, len(view["players"])),
        )
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations
        done = 0
        pool = self.weighted_pool(view, rng, history)
        if pool:
            search.first_state = pool[0]
        drawn = len(pool)
        while limit is None or done < limit:
            # Drawing a determinization costs as much as the rest of an iteration, so after
            # `determinizations` fresh ones the search cycles through them again (states are
            # immutable, so sharing them is safe).
            if drawn:
                state = pool[done % drawn]
            elif done < self.determinizations:
                state = self.determinization(view, rng)
                pool.append(state)
                if done == 0:
                    search.first_state = state
            else:
                state = pool[done % self.determinizations]
            search.iterate(state)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return search

    def determinization(self, view: dict, rng):
        """One full state consistent with `view`, hidden cards at random (the arena's oracle
        overrides this, and only this)."""
        return determinize(view, rng)

    def weighted_pool(self, view: dict, rng, history: list | None) -> list:
        """The determinizations drawn up front by inference (empty: draw uniform ones as the
        search goes). Without an iteration budget the full pool is drawn: a time-limited search
        runs thousands of iterations."""
        if not self.inference or not history:
            return []
        size = self.determinizations
        if self.iterations is not None:
            size = min(size, self.iterations)
        return weighted_determinizations(
            view, history, rng, size=size, candidates=INFERENCE_CANDIDATES * size
        )

    @staticmethod
    def action_for(view: dict, move, rng) -> dict:
        """The view's own action dict for the chosen move (the caller gets exactly one of
        `view["legal_actions"]`)."""
        state = determinize(view, rng)
        for action in view["legal_actions"]:
            if action_to_move(state, action) == move:
                return action
        raise LookupError(f"search chose move {move}, which the view does not offer")
