"""The Renaissance bots in diplomacy ([ruling] R42, R44, R45): one evaluation of a seat's
standing (ai/renaissance/evaluation.py) judges the answers to offers and the offers a bot makes.

The rules behind the expectations, quoted from the rulebook:
- line 22: "doivent réussir à contrôler des Provinces ... Pour contrôler une province, il faut
  contrôler toutes les villes qui la composent. Chacune des provinces rapporte 1 Point de
  Renaissance": half a province scores nothing, a whole one every turn.
- line 345: "Les joueurs peuvent échanger une ville de même niveau de fortification à n'importe
  quel moment du jeu ; une même ville ne peut être échangée qu'une seule fois par tour."
- line 144: in peace "les joueurs ne peuvent réaliser qu'une seule attaque lors de la phase de
  combat"; line 143: at war "autant d'attaques que leur permettent leurs cartes".
- line 190: "Chaque fois qu'une carte Condottiere est jouée, le joueur doit payer 1 ducat";
  line 206: "le joueur qui achète le Condottiere paie le ducat au vendeur. L'acheteur n'a pas à
  payer de nouveau pour l'utilisation de la carte".
"""

import pytest

import games.renaissance as renaissance
from ai.renaissance import HeuristicBot
from ai.renaissance.evaluation import Change, change_of_standing, gain, standing, worth
from ai.renaissance.offers import (
    ACCEPT_MARGIN,
    OFFERS_PER_TURN,
    chosen_offer,
    evaluated_answer,
    offer_answers,
)
from ai.renaissance.situation import Situation
from games.renaissance.state import EXPANSION, put
from tests.renaissance.conftest import combat_state, edit, hand


def table(florence_cities, rome_cities, *, cards=("pikemen",), war=0, points=None):
    """The tiny board's combat phase of turn 2, Florence acting (it holds a card, so its combat
    phase waits for it), every city a bare garrison and free but those named."""
    state, florence = combat_state(cards=list(cards), war=war)
    rome = state.nations.index("rome")
    owner = [-1] * len(state.owner)
    for seat, cities in ((florence, florence_cities), (rome, rome_cities)):
        for name in cities:
            owner[state.geo.index[name]] = seat
    blank = (0,) * len(state.owner)
    state = edit(state, turn=2, owner=tuple(owner), fort=blank, palace=blank, artist=blank)
    if points is not None:
        state = edit(state, points=tuple(points))
    return state, florence, rome


def situation(state, seat):
    return Situation(renaissance.view_for(state, seat))


# --- the evaluation --------------------------------------------------------------------------


def test_a_whole_province_is_worth_more_than_two_halves():
    """Line 22: only a whole province scores. Florence with Toscana whole is worth more than
    with half of Toscana and half of Lazio (the same number of bare cities)."""
    whole, florence, _ = table(["Firenze", "Pistoia"], ["Roma", "Viterbo"])
    halves, _, _ = table(["Firenze", "Viterbo"], ["Roma", "Pistoia"])
    assert worth(situation(whole, florence), florence) > worth(
        situation(halves, florence), florence
    )


def test_a_swap_that_completes_both_provinces_raises_both_standings():
    """Pistoia for Viterbo gives Florence Toscana and Rome Lazio, whole: each gains, and each
    one's standing rises by its gain less the other's shared among the rivals."""
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    s = situation(state, florence)
    deal = Change.exchange(s, "Viterbo", "Pistoia", florence, rome)
    mine, theirs = gain(s, florence, deal), gain(s, rome, deal)
    assert mine > 1 and theirs > 1
    rise = change_of_standing(s, florence, deal)
    assert rise == pytest.approx(mine - theirs / (state.n - 1))
    assert rise == pytest.approx(standing(s, florence, deal) - standing(s, florence))


def test_an_even_swap_changes_nothing():
    """Bologna and Siena are each a province of one city, neither a port nor fortified: the
    swap leaves both seats' worth as it was."""
    state, florence, rome = table(["Firenze", "Bologna"], ["Roma", "Siena"])
    s = situation(state, florence)
    deal = Change.exchange(s, "Bologna", "Siena", florence, rome)
    assert gain(s, florence, deal) == pytest.approx(0)
    assert change_of_standing(s, florence, deal) == pytest.approx(0)


def test_another_seats_hand_is_valued_by_its_size_only():
    """The seat's view shows another hand's size, not its cards: two states whose other hands
    differ in their cards but not their sizes give the same worth."""
    state, florence, rome = table(["Firenze"], ["Roma"])
    one = edit(state, hands=put(state.hands, rome, hand("pikemen", "swiss")))
    other = edit(state, hands=put(state.hands, rome, hand("raiders", "artist_banker")))
    assert worth(situation(one, florence), rome) == worth(situation(other, florence), rome)


# --- answers ---------------------------------------------------------------------------------


def answer(state, sender, receiver, offer):
    state = renaissance.apply_action(state, sender, offer)
    view = renaissance.view_for(state, receiver)
    reply = HeuristicBot().answer_offer(view)
    assert reply in offer_answers(view)
    return reply["type"]


def test_an_exchange_that_completes_the_province_is_accepted():
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    offer = {"type": "offer_exchange", "to": florence, "give": "Pistoia", "take": "Viterbo"}
    assert answer(state, rome, florence, offer) == "accept_exchange"


def test_an_exchange_that_breaks_a_whole_province_is_declined():
    state, florence, rome = table(["Firenze", "Pistoia"], ["Roma", "Viterbo"])
    offer = {"type": "offer_exchange", "to": florence, "give": "Roma", "take": "Pistoia"}
    assert answer(state, rome, florence, offer) == "decline_exchange"


def test_an_exchange_that_serves_only_the_offerer_is_declined():
    """Rome offers Milano (half of the Duchy of Milan, Pavia free) for Viterbo: Florence trades
    half a province for half a province while Rome completes Lazio. Florence's own worth does
    not change; its standing falls."""
    state, florence, rome = table(["Firenze", "Viterbo"], ["Roma", "Milano"])
    offer = {"type": "offer_exchange", "to": florence, "give": "Milano", "take": "Viterbo"}
    assert answer(state, rome, florence, offer) == "decline_exchange"


def sale_to_florence(cards, ducats, war):
    state, florence, rome = table(["Firenze"], ["Roma"], cards=cards, war=war)
    state = edit(
        state,
        hands=put(state.hands, rome, hand("condottiere")),
        ducats=put(state.ducats, florence, ducats),
    )
    offer = {"type": "offer_condottiere", "to": florence}
    return answer(state, rome, florence, offer)


def test_a_condottiere_is_bought_at_war_when_the_hand_is_short_of_troops():
    """Line 143: at war every troop may serve; a bought one is already paid (line 206)."""
    assert sale_to_florence(["pikemen", "knights"], 3, war=1) == "accept_condottiere"


def test_a_condottiere_is_not_bought_with_the_last_ducat_an_unpaid_one_needs():
    """Line 190: each Condottiere played costs a ducat. With one ducat and an unpaid one in
    hand, buying another leaves the first unpayable: nothing is gained for the ducat."""
    assert sale_to_florence(["condottiere", "knights"], 1, war=1) == "decline_condottiere"


def test_a_condottiere_is_not_bought_in_peace_with_troops_enough():
    """Line 144: one attack in peace; four troops already serve it and a defence."""
    hand_of_troops = ["knights", "cannon", "swiss", "pikemen"]
    assert sale_to_florence(hand_of_troops, 4, war=0) == "decline_condottiere"


def test_of_several_offers_the_best_is_accepted_and_a_margin_is_kept():
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    view = renaissance.view_for(state, florence)
    accept = {"type": "accept_exchange", "from": rome, "give": "Pistoia", "take": "Viterbo"}
    decline = {"type": "decline_exchange", "from": rome, "give": "Pistoia", "take": "Viterbo"}
    assert evaluated_answer(view, [accept, decline]) == accept
    assert ACCEPT_MARGIN > 0


# --- offers ----------------------------------------------------------------------------------


def test_the_bot_offers_the_exchange_that_completes_both_provinces():
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    offer = HeuristicBot().make_offer(renaissance.view_for(state, florence))
    # Viterbo for Pistoia, or Firenze for Roma: either gives each a whole province.
    assert offer["type"] == "offer_exchange" and offer["to"] == rome
    assert (offer["give"], offer["take"]) in {("Viterbo", "Pistoia"), ("Firenze", "Roma")}
    # Rome, answering by the same evaluation from its own view, accepts it.
    assert answer(state, florence, rome, offer) == "accept_exchange"


def test_no_offer_is_made_twice_in_a_turn_nor_beyond_the_cap():
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    view = renaissance.view_for(state, florence)
    offer = chosen_offer(view)
    assert offer is not None
    assert chosen_offer(view, [offer]) != offer  # declined or withdrawn: not made again
    others = [{"type": "offer_condottiere", "to": seat} for seat in range(OFFERS_PER_TURN)]
    assert chosen_offer(view, others) is None
    # The bot remembers its own offers: asked again in the same turn, it does not repeat one.
    bot = HeuristicBot()
    first = bot.make_offer(view)
    assert bot.make_offer(view) != first


def test_no_offer_outside_the_bots_own_expansion_and_combat():
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    assert chosen_offer(renaissance.view_for(state, rome)) is None  # not Rome's decision
    purchase = edit(state, phase=EXPANSION - 1)
    assert chosen_offer(renaissance.view_for(purchase, florence)) is None


def test_a_spare_condottiere_is_offered_to_a_seat_short_of_cards_but_not_to_the_leader():
    """In peace (line 144) Florence's five troops are more than its one attack and a defence
    need; the others hold no card. Rome leads on points: it is not offered the card."""
    cards = ["knights", "cannon", "swiss", "condottiere", "condottiere"]
    points = [0] * 6
    state, florence, rome = table(["Firenze"], ["Roma"], cards=cards, points=points)
    state = edit(state, points=put(state.points, rome, 9))
    offer = chosen_offer(renaissance.view_for(state, florence))
    assert offer is not None and offer["type"] == "offer_condottiere"
    assert offer["to"] not in (florence, rome)


def test_no_condottiere_is_offered_when_the_hand_needs_it():
    state, florence, _ = table(["Firenze"], ["Roma"], cards=["knights", "condottiere"])
    offer = chosen_offer(renaissance.view_for(state, florence))
    assert offer is None or offer["type"] != "offer_condottiere"


def test_offers_depend_only_on_the_seats_view():
    """Another seat's cards, which Florence cannot see, do not change its offer."""
    state, florence, rome = table(["Firenze", "Viterbo"], ["Pistoia", "Roma"])
    other = edit(state, hands=put(state.hands, rome, hand("swiss", "cannon")))
    same = edit(state, hands=put(state.hands, rome, hand("raiders", "artist_banker")))
    assert renaissance.view_for(other, florence) == renaissance.view_for(same, florence)
    assert chosen_offer(renaissance.view_for(other, florence)) == chosen_offer(
        renaissance.view_for(same, florence)
    )
