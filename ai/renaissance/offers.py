"""Diplomacy for the bots ([ruling] R42, R44, R45): answering offers and making them, from the
seat's own view, by one evaluation (evaluation.py).

Any seat may at any moment of turns 1-6 offer another a city exchange or a Condottiere sale; the
recipient answers whenever it likes, its turn or not. The answers it may give now are in its
view's `diplomacy_actions` (`accept_exchange` / `decline_exchange`, `accept_condottiere` /
`decline_condottiere`, each with the offerer's seat in `from`): the engine lists an `accept`
only when it may be taken now (no exchange while a battle is fought; a sale only with a ducat to
pay and before the buyer's commitment), a `decline` always.

An offer never holds the game up: it is no move of the turn, the game goes on while it waits,
and it vanishes at the end of the turn unanswered (R45). So a bot's offer to a person may wait;
the bots still make few: at most OFFERS_PER_TURN a turn, never one they made already this turn
(declined, withdrawn or waiting), and only in their own decisions outside a battle.
"""

import games.renaissance as renaissance

from .evaluation import USEFUL_TROOPS, Change, change_of_standing, gain, hand_worth
from .odds import troop_value
from .situation import Situation

ANSWERS = frozenset(
    {"accept_exchange", "decline_exchange", "accept_condottiere", "decline_condottiere"}
)
OFFERS = frozenset({"offer_exchange", "offer_condottiere"})
# An answer accepts a deal that raises the seat's standing by more than this (in RP): a deal
# worth nothing to me only serves the other, and the evaluation is rough.
ACCEPT_MARGIN = 0.1
# An offer is made when it raises the bot's standing by more than this, and the recipient's
# own standing, as far as the bot's view tells, by more than ACCEPT_MARGIN (else it would be
# declined: an offer is not made in vain).
OFFER_MARGIN = 0.15
# A bot makes at most this many offers a turn.
OFFERS_PER_TURN = 2
# The decisions in which a bot considers an offer: its own expansions and combat phase, outside
# a battle (an exchange may not be accepted during one, R42). Not its purchases: a wall built
# then on a city it offered would void the offer (R42: the same fortification level).
OFFER_PHASES = frozenset({"expansion", "combat"})


def offer_answers(view: dict) -> list:
    """The answers the seat may give now to the offers made to it, in the view's order."""
    return [a for a in view.get("diplomacy_actions") or () if a["type"] in ANSWERS]


def offers_waiting(view: dict) -> bool:
    """True when an offer made to the view's seat waits for its answer."""
    return bool(offer_answers(view))


# --- answers --------------------------------------------------------------------------------


def deal_of(s: Situation, action: dict) -> Change:
    """The change an offer's answer or an offer would make if accepted."""
    kind = action["type"]
    if kind.endswith("_exchange"):
        if kind == "offer_exchange":
            return Change.exchange(s, action["give"], action["take"], s.me, action["to"])
        return Change.exchange(s, action["give"], action["take"], action["from"], s.me)
    if kind == "offer_condottiere":
        return Change.sale(s.me, action["to"])
    return Change.sale(action["from"], s.me)


def answer_value(s: Situation, accept: dict) -> float:
    """What accepting the offer is worth to the seat: the rise of its standing."""
    return change_of_standing(s, s.me, deal_of(s, accept))


def evaluated_answer(view: dict, answers: list) -> dict:
    """The answer to one waiting offer: accept the deal that raises the seat's standing most,
    if it does by more than ACCEPT_MARGIN; else decline the first offer waiting."""
    s = Situation(view)
    accepts = [(answer_value(s, a), a) for a in answers if a["type"].startswith("accept")]
    best = max(accepts, key=lambda item: item[0], default=None)
    if best is not None and best[0] > ACCEPT_MARGIN:
        return best[1]
    return next(a for a in answers if a["type"].startswith("decline"))


# --- offers ---------------------------------------------------------------------------------


def offer_key(action: dict) -> tuple:
    """An offer's identity, to remember it was made (its recipient, cities)."""
    return (action["type"], action["to"], action.get("give"), action.get("take"))


def chosen_offer(view: dict, made=()) -> dict | None:
    """The offer the seat makes now, or None: the exchange or sale that raises its standing
    most, by more than OFFER_MARGIN, and the recipient's by more than ACCEPT_MARGIN; none when
    OFFERS_PER_TURN were made this turn (`made`: the offers made, as actions, or a function
    that returns them) or outside the decisions of OFFER_PHASES; never one of `made` again."""
    if view["phase"] not in OFFER_PHASES or view["public"]["battle"] is not None:
        return None
    if view["seat"] not in view["acting_seats"]:
        return None
    if callable(made):  # read only when an offer is considered (the site reads its log)
        made = made()
    if len(made) >= OFFERS_PER_TURN:
        return None
    done = {offer_key(action) for action in made}
    candidates = [
        a
        for a in renaissance.all_diplomacy(view)
        if a["type"] in OFFERS and offer_key(a) not in done
    ]
    if not candidates:
        return None
    s = Situation(view)
    scored = []
    for action in candidates:
        if action["type"] == "offer_condottiere" and not sale_worth_offering(s, action["to"]):
            continue
        deal = deal_of(s, action)
        # The standing rises by less than my own gain when the other gains too (it must): a
        # deal that does not gain me the margin is not weighed further.
        if gain(s, s.me, deal) <= OFFER_MARGIN:
            continue
        mine = change_of_standing(s, s.me, deal)
        if mine > OFFER_MARGIN and change_of_standing(s, action["to"], deal) > ACCEPT_MARGIN:
            scored.append((mine, action))
    best = max(scored, key=lambda item: item[0], default=None)
    return None if best is None else best[1]


def sale_worth_offering(s: Situation, buyer: int) -> bool:
    """A Condottiere is offered when it is spare (my hand's worth stays the same without it:
    more troops than can serve this turn, or no ducat to play it) and the buyer needs one as
    far as my view tells (fewer cards than can serve, a ducat to pay) and is not the leader."""
    spare = hand_worth(s, s.me, s.ducats[s.me], -1) >= hand_worth(s, s.me, s.ducats[s.me])
    needs = s.hand_sizes[buyer] < USEFUL_TROOPS[bool(s.war)] and s.ducats[buyer] >= 1
    return spare and needs and buyer != s.leader() and troop_value("condottiere") > 0
