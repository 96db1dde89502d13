"""Answering the diplomacy offers made to a seat ([ruling] R42, R44, R45), from its own view.

Any seat may at any moment of turns 1-6 offer another a city exchange or a Condottiere sale; the
recipient answers whenever it likes, its turn or not. The answers it may give now are in its
view's `diplomacy_actions` (`accept_exchange` / `decline_exchange`, `accept_condottiere` /
`decline_condottiere`, each with the offerer's seat in `from`): the engine lists an `accept`
only when it may be taken now (no exchange while a battle is fought; a sale only with a ducat to
pay and before the buyer's commitment), a `decline` always.
"""

from .odds import troop_value
from .situation import Situation

ANSWERS = frozenset(
    {"accept_exchange", "decline_exchange", "accept_condottiere", "decline_condottiere"}
)
# [rules] line 206, [ruling] R44: a sold Condottiere costs its buyer one ducat.
SALE_PRICE = 1
# [rules] line 285: at most 12 battle cards in hand at the end of the purchases; a card beyond
# that takes the place of one the seat could buy.
HAND_LIMIT = 12
# [rules] line 369: an attack needs at least two blue cards or Condottieri in hand.
TROOPS_TO_ATTACK = 2


def offer_answers(view: dict) -> list:
    """The answers the seat may give now to the offers made to it, in the view's order."""
    return [a for a in view.get("diplomacy_actions") or () if a["type"] in ANSWERS]


def offers_waiting(view: dict) -> bool:
    """True when an offer made to the view's seat waits for its answer."""
    return bool(offer_answers(view))


def heuristic_answer(view: dict, answers: list) -> dict:
    """The heuristic's answer to one waiting offer (see HeuristicBot.answer_offer): the best
    exchange that gains, else a sale that helps, else a decline of the first offer."""
    s = Situation(view)
    exchanges = [(exchange_gain(s, a), a) for a in answers if a["type"] == "accept_exchange"]
    gaining = [(gain, action) for gain, action in exchanges if gain > 0]
    if gaining:
        return max(gaining, key=lambda item: item[0])[1]
    sales = [a for a in answers if a["type"] == "accept_condottiere"]
    if sales and sale_helps(s):
        return sales[0]
    return next(a for a in answers if a["type"].startswith("decline"))


def exchange_gain(s: Situation, accept: dict) -> float:
    """What accepting the exchange is worth to me, in Renaissance Points to come: my cities
    valued on the board after the swap less on the board now. I receive the offerer's `give`
    and hand over my `take`; both have the same fortification ([ruling] R42), so what differs
    is the provinces, the artists, palaces and ports."""
    received, given = s.city(accept["give"]), s.city(accept["take"])
    after = list(s.owner)
    after[received], after[given] = s.me, accept["from"]
    return s.holdings(after) - s.holdings(s.owner)


def sale_helps(s: Situation) -> bool:
    """A Condottiere bought for a ducat is worth having when a ducat still stays for every
    Condottiere already in hand and not paid for (each played costs one, [rules] line 190), the
    hand is below the 12-card limit, and the card will serve this turn: Italy is at war (any
    number of attacks), I am a side of the battle being fought, or I hold fewer than the two
    troops an attack needs (it is one more, and one to defend with)."""
    me = s.me
    unpaid = max(0, s.hand.count("condottiere") - s.view["public"]["prepaid"][me])
    if s.ducats[me] - SALE_PRICE < unpaid or len(s.hand) >= HAND_LIMIT:
        return False
    battle = s.battle
    fighting = battle is not None and me in (battle["a"], battle["d"])
    troops = sum(1 for card in s.hand if troop_value(card) > 0)
    return bool(s.war) or fighting or troops < TROOPS_TO_ATTACK
