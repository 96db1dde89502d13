"""The `random` level for Renaissance: the same uniform, reproducible choice among the seat's
legal actions as Condottiere's (it reads only `view["legal_actions"]`), and a uniform answer to
the offers made to it."""

from ..random_bot import RandomBot as CondottiereRandomBot
from ..seeding import decision_rng
from .offers import offer_answers


class RandomBot(CondottiereRandomBot):
    """Condottiere's random bot (its `choose` unchanged), answering offers as well."""

    def answer_offer(self, view: dict) -> dict | None:
        """Any of the answers the view offers now (accept or decline, of any offer waiting),
        uniformly; None when no offer waits."""
        answers = offer_answers(view)
        return decision_rng(self.seed, view).choice(answers) if answers else None


__all__ = ["RandomBot"]
