"""The `random` level for Renaissance: any legal action of its seat, uniformly, reproducibly."""

from ai.seeding import decision_rng


class RandomBot:
    """Picks uniformly among `view["legal_actions"]` (a pure function of the view and seed)."""

    level = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def choose(self, view: dict) -> dict:
        actions = view["legal_actions"]
        if not actions:
            raise ValueError("this seat has nothing to decide in this view")
        return decision_rng(self.seed, view).choice(actions)
