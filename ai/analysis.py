"""Computer analysis of one decision, from the deciding seat's view only (docs/ai.md, "Analysis").

`hard`'s search (`SearchBot.run`, the bot `make_search_bot(ANALYSED_AS)` makes, below)
is grown from `view` with a fixed iteration budget (no clock: the same view and seed give the
same answer on any machine); the root's statistics then give, for each move the seat could make,
the mean reward the search expects of it, which is the seat's estimated win chance after that
move (rewards are win shares in [0, 1], see search/evaluation.py). The best move is the one the
bot itself would play (the heuristic's advice unless clearly beaten), so "best was ..." is what
`hard` would have played with that budget.

Like every bot here, this sees only a view: the true state is never an argument.
"""

from dataclasses import dataclass, field

from games.engine import IllegalAction, action_to_move

from .factory import make_search_bot
from .search.bot import HEURISTIC_TRUST
from .seeding import decision_rng

# The level whose search judges the moves: the strongest that searches in one process (`expert`
# searches the same way on several).
ANALYSED_AS = "hard"

# Which search made an analysis, stored with it (games/analysis): bump it whenever the analysis's
# answers change (the level's search settings below, the evaluation, how the move is picked), so
# that analyses made before are shown as outdated and may be asked again. 1: the one-battle plain
# tree; 2: `hard`'s search, with these settings.
SEARCH_VERSION = 2


def search_settings() -> dict:
    """The settings of the search that judges the moves (tests pin them to SEARCH_VERSION)."""
    bot = make_search_bot(ANALYSED_AS, iterations=1)
    return {
        "level": ANALYSED_AS,
        "battles": bot.battles,
        "opponents": bot.opponents,
        "exploration": bot.exploration,
        "value": bot.value,
        "inference": bot.inference,
        "coalition": bot.coalition,
        "confidence": bot.confidence,
        "heuristic_trust": HEURISTIC_TRUST,
    }


@dataclass(frozen=True)
class DecisionValues:
    """What the search thinks of one decision: the move it would play and the estimated win
    chance (0..1) after each move it searched (moves never tried are missing)."""

    best: dict
    best_value: float
    values: dict  # compact move -> mean reward
    state: object  # a determinization of the view, to read an action as a compact move
    visits: dict = field(default_factory=dict)  # compact move -> playouts behind its value
    best_move: object = None  # the best move in compact form (a key of `values`)

    def value_of(self, action: dict) -> float | None:
        """The estimated win chance after `action` (as played or logged), or None if the search
        never tried it or it is not a move of this decision."""
        try:
            return self.values.get(action_to_move(self.state, action))
        except IllegalAction:
            return None

    def runner_up_value(self) -> float | None:
        """The estimated win chance after the best move other than `best`, or None."""
        others = [value for move, value in self.values.items() if move != self.best_move]
        return max(others, default=None)


def analyse_view(view: dict, *, iterations: int, seed: int = 0) -> DecisionValues:
    """Search `view` (one seat's `view_for`) with `iterations` iterations and return the values
    of its moves. The view must offer at least two legal actions."""
    if len(view.get("legal_actions") or []) < 2:
        raise ValueError("a decision with fewer than two legal actions is not analysed")
    bot = make_search_bot(ANALYSED_AS, seed=seed, iterations=iterations)  # no clock: reproducible
    rng = decision_rng(seed, view)
    search, _advice, best_move = bot.searched_move(view, rng)
    state = search.first_state  # a determinization of the view: it maps actions to moves
    moves = {}
    for action in view["legal_actions"]:
        try:
            moves[action_to_move(state, action)] = action
        except IllegalAction:  # not expected: every legal action of the view is a move
            continue
    children = search.root.children
    values = {move: node.reward / node.visits for move, node in children.items() if node.visits}
    return DecisionValues(
        best=moves[best_move],
        best_value=values.get(best_move, 0.0),
        values=values,
        state=state,
        visits={move: node.visits for move, node in children.items() if node.visits},
        best_move=best_move,
    )
