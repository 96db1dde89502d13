"""The `random` level: any legal action, uniformly, reproducibly."""

from .seeding import decision_rng


class RandomBot:
    """Picks uniformly among `view["legal_actions"]`."""

    level = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def choose(self, view: dict) -> dict:
        actions = view["legal_actions"]
        if not actions:
            raise ValueError("this seat has nothing to decide in this view")
        return decision_rng(self.seed, view).choice(actions)
