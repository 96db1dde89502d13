"""The arena's `oracle`: the search given the true hidden cards. It CHEATS ON PURPOSE.

A yardstick for issue #16, never a level of the site: how much stronger would the search be if it
knew every hand? It is the `SearchBot` (same tree, budget, heuristic advice and choice rule) with
one change, the states it searches: each determinization keeps the TRUE hand of every seat and the
TRUE face-down line cards, while the unseen cards that no seat holds (the deck and the face-down
discards, the other seats' own discards included) are shuffled afresh and the state's seed is
drawn anew, so the oracle knows who holds what but not what the deck will bring (no future draws,
no future reshuffles).

It needs the true state, so it has no `choose(view)`: the arena calls
`choose_with_state(view, state)` for bots that declare `sees_true_state`.
"""

import time

from games.engine import GameState, determinize

from .search.bot import DETERMINIZATIONS, HEURISTIC_TRUST, SearchBot, answer_without_search
from .search.evaluation import Evaluator
from .search.tree import Search
from .seeding import decision_rng


def unseen_by_anyone(truth: GameState, seat: int) -> list[int]:
    """The cards (kinds) no seat holds and `seat` has not seen: the deck, the face-down
    discards, and the cards other seats discarded face down themselves."""
    others_discards = [
        card for owner, pile in enumerate(truth.hidden_discards) if owner != seat for card in pile
    ]
    return list(truth.deck) + list(truth.dead) + others_discards


def oracle_determinization(view: dict, truth: GameState, rng) -> GameState:
    """A state for `view`'s seat with the true hands and face-down cards, the deck and the dead
    cards shuffled at random.

    Built on the engine's own `determinize(view, rng)`, a new state that agrees with the view
    (public fields, the seat's own hand and discards) and has a fresh random seed; only the hidden
    fields are then replaced, before the state is handed to anyone (states are never changed once
    handed out)."""
    state = determinize(view, rng)
    pool = unseen_by_anyone(truth, view["seat"])
    rng.shuffle(pool)
    deck_size = len(truth.deck)
    state.hands = truth.hands
    state.fd = truth.fd
    state.deck = tuple(pool[:deck_size])
    state.dead = tuple(sorted(pool[deck_size:]))
    return state


class OracleBot(SearchBot):
    """The search with the true hands (see the module docstring). Arena only."""

    sees_true_state = True

    def choose(self, view: dict, **_ignored) -> dict:
        raise TypeError("an oracle searches the true state: call choose_with_state(view, state)")

    def choose_with_state(self, view: dict, truth: GameState) -> dict:
        answer = answer_without_search(view)
        if answer is not None:
            return answer
        rng = decision_rng(self.seed, view)
        search = self.run_with_truth(view, truth, rng)
        advice = self.advice_move(view, search.first_state)
        move = search.best_move(advice, HEURISTIC_TRUST, self.confidence)
        return self.action_for(view, move, rng)

    def run(self, *_args, **_kwargs) -> Search:
        raise TypeError("an oracle searches the true state: call run_with_truth")

    def run_with_truth(self, view: dict, truth: GameState, rng) -> Search:
        """SearchBot.run with oracle determinizations (the same loop, budget and pool)."""
        options = view.get("options") or {}
        evaluator = Evaluator(len(view["players"]), bool(options.get("bigger_kingdoms")))
        search = Search(evaluator, rng, exploration=self.exploration, battles=self.battles)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done, pool = 0, []
        while self.iterations is None or done < self.iterations:
            if done < DETERMINIZATIONS:
                state = oracle_determinization(view, truth, rng)
                pool.append(state)
                if done == 0:
                    search.first_state = state
            else:
                state = pool[done % DETERMINIZATIONS]
            search.iterate(state)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return search
