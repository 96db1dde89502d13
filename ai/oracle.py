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

from games.engine import GameState, determinize

from .search.bot import SearchBot


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

    truth: GameState | None = None  # the true state of the decision being searched

    def choose(self, view: dict, **_ignored) -> dict:
        raise TypeError("an oracle searches the true state: call choose_with_state(view, state)")

    def choose_with_state(self, view: dict, truth: GameState) -> dict:
        """SearchBot.choose, searching determinizations that keep the true hands."""
        self.truth = truth
        try:
            return SearchBot.choose(self, view)
        finally:
            self.truth = None

    def determinization(self, view: dict, rng) -> GameState:
        if self.truth is None:
            raise TypeError("an oracle searches the true state: call choose_with_state")
        return oracle_determinization(view, self.truth, rng)
