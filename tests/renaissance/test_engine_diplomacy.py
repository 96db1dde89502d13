"""Diplomacy (rulebook lines 343-349; [ruling] R42-R45): exchanges of cities of the same
fortification, gifts of ducats, sales of Condottieri; offers seen by their two parties only."""

import random

import pytest

from games.renaissance.api import (
    IllegalAction,
    acting_seats,
    apply_action,
    determinize,
    legal_actions,
    view_for,
)
from games.renaissance.cards import KIND
from games.renaissance.diplomacy import diplomacy_actions
from games.renaissance.state import COMBAT, EXPANSION, put
from tests.renaissance.conftest import (
    TINY,
    city,
    combat_state,
    edit,
    game,
    hand,
    random_game,
    until,
)
from tests.renaissance.test_engine_battle import commit, prepare


def table():
    """Florence (acting, in its combat phase) and Rome, who holds Siena and Viterbo."""
    state, florence = combat_state(cards=["pikemen", "condottiere"], ducats=5)
    state = edit(state, turn=2)
    return state, florence, state.nations.index("rome")


def offer(state, sender, receiver, give, take):
    action = {"type": "offer_exchange", "to": receiver, "give": give, "take": take}
    return apply_action(state, sender, action)


def test_r42_an_accepted_exchange_swaps_two_cities_of_the_same_level_with_their_buildings():
    """[ruling] R42: an offer and its acceptance (by a seat not acting); palaces go along;
    reserves unchanged; each city once a turn."""
    state, florence, rome = table()
    pistoia, siena = city(state, "Pistoia"), city(state, "Siena")
    state = edit(state, palace=put(state.palace, siena, 1))
    reserves = state.reserve
    state = offer(state, florence, rome, "Pistoia", "Siena")
    accept = {"type": "accept_exchange", "from": florence, "give": "Pistoia", "take": "Siena"}
    assert accept in diplomacy_actions(state, rome)
    state = apply_action(state, rome, accept)
    assert state.owner[pistoia] == rome and state.owner[siena] == florence
    assert state.palace[siena] == 1 and state.reserve == reserves and state.offers == ()
    again = [a for a in diplomacy_actions(state, florence) if a["type"] == "offer_exchange"]
    assert not [a for a in again if {a["give"], a["take"]} & {"Pistoia", "Siena"}]


def test_r42_only_cities_of_the_same_fortification_level_and_never_in_a_battle():
    """[rules] "une ville de même niveau de fortification"; [ruling] R42 not mid-battle."""
    state, florence, rome = table()
    state = edit(state, fort=put(state.fort, city(state, "Siena"), 1))
    offers = {
        (a["give"], a["take"])
        for a in diplomacy_actions(state, florence)
        if a["type"] == "offer_exchange"
    }
    assert ("Pistoia", "Viterbo") in offers and ("Pistoia", "Siena") not in offers
    with pytest.raises(IllegalAction):
        offer(state, florence, rome, "Pistoia", "Siena")
    battle, (attacker, _) = prepare(["pikemen", "pikemen"], ["knights"])
    battle = edit(battle, turn=2)
    battle = apply_action(battle, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    assert not [a for a in diplomacy_actions(battle, attacker) if "exchange" in a["type"]]


def test_r42_a_declined_or_withdrawn_offer_vanishes_and_changes_nothing_else():
    state, florence, rome = table()
    owners = state.owner
    offered = offer(state, florence, rome, "Pistoia", "Siena")
    declined = apply_action(
        offered,
        rome,
        {"type": "decline_exchange", "from": florence, "give": "Pistoia", "take": "Siena"},
    )
    withdrawn = apply_action(
        offered,
        florence,
        {"type": "withdraw_exchange", "to": rome, "give": "Pistoia", "take": "Siena"},
    )
    for after in (declined, withdrawn):
        assert after.offers == () and after.owner == owners


def test_r43_a_gift_of_ducats_is_immediate_but_not_by_a_side_during_its_battle():
    """[ruling] R43."""
    state, florence, rome = table()
    after = apply_action(state, rome, {"type": "give_ducats", "to": florence, "amount": 3})
    assert after.ducats[florence] == 8 and after.ducats[rome] == 2
    battle, (attacker, defender) = prepare(["pikemen", "pikemen"], ["knights"])
    battle = edit(battle, turn=2)
    battle = apply_action(battle, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    for side in (attacker, defender):
        assert not [a for a in diplomacy_actions(battle, side) if a["type"] == "give_ducats"]
    third = next(s for s in range(6) if s not in (attacker, defender))
    assert {"type": "give_ducats", "to": defender, "amount": 1} in diplomacy_actions(battle, third)


def test_r44_a_sold_condottiere_costs_the_buyer_one_ducat_to_the_seller_and_nothing_to_play():
    """[rules] line 206; [ruling] R44: sold in a battle to a side before it commits."""
    battle, (attacker, defender) = prepare(["pikemen", "pikemen"], ["knights"], ducats=1)
    third = next(s for s in range(6) if s not in (attacker, defender))
    battle = edit(battle, turn=2, hands=put(battle.hands, third, hand("condottiere")))
    battle = apply_action(battle, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    battle = apply_action(battle, attacker, commit(["pikemen", "pikemen"]))
    # The attacker has committed: it may not buy any more.
    sold = apply_action(battle, third, {"type": "offer_condottiere", "to": attacker})
    assert {"type": "accept_condottiere", "from": third} not in diplomacy_actions(sold, attacker)
    sold = apply_action(sold, third, {"type": "offer_condottiere", "to": defender})
    sold = apply_action(sold, defender, {"type": "accept_condottiere", "from": third})
    assert sold.ducats[defender] == 0 and sold.ducats[third] == 2
    assert sold.hands[defender][KIND["condottiere"]] == 1 and sold.prepaid[defender] == 1
    assert sold.known[defender][KIND["condottiere"]] == 1
    after = apply_action(sold, defender, commit(["condottiere"]))
    assert after.ducats[defender] == 0 and after.prepaid[defender] == 0  # played without paying


def test_r45_offers_are_seen_by_their_two_parties_only():
    """[ruling] R45: a third seat's view (and its determinization) shows no offer."""
    state = until(game(6, 4), lambda s: s.turn == 2 and s.phase == COMBAT)
    action = next(
        a for a in diplomacy_actions(state, state.current) if a["type"] == "offer_exchange"
    )
    sender, receiver = state.current, action["to"]
    state = apply_action(state, sender, action)
    third = next(s for s in range(6) if s not in (sender, receiver))
    assert view_for(state, sender)["public"]["offers"]
    assert view_for(state, receiver)["public"]["offers"]
    assert view_for(state, third)["public"]["offers"] == []
    assert view_for(state, None)["public"]["offers"] == []
    rng = random.Random(1)
    for seat in (sender, receiver, third):
        assert view_for(determinize(view_for(state, seat), rng), seat) == view_for(state, seat)


@pytest.mark.parametrize("kind", [{}, [1], None, 7, {"type": "give_ducats"}])
def test_an_action_whose_type_is_not_a_name_is_refused_as_illegal(kind):
    """Sockets and the Bot API pass on any JSON a client sends: a "type" that is a list or an
    object must be refused like any illegal action, whoever sends it."""
    state, _florence, _rome = table()
    for seat in range(state.n):
        with pytest.raises(IllegalAction):
            apply_action(state, seat, {"type": kind, "to": 0, "amount": 1})
        with pytest.raises(IllegalAction):
            apply_action(state, seat, {"type": "commit", "blue": [kind], "red": None})


def test_r44_an_attacker_sells_no_condottiere_between_its_announcement_and_the_battles_end():
    """[ruling] R44 with R12: line 206 sells "à l'un ou à l'autre des belligérants" and line 387
    has the attacker choose "2 cartes de bataille bleues" after its announcement: an attack is
    announced only with a commitment the attacker can make, and selling its Condottiere before
    committing could leave it none (no legal move at all). So the attacker of the battle being
    fought offers no sale, and a sale it offered earlier can no longer be accepted."""
    state, (attacker, defender) = prepare(["condottiere", "pikemen"], ["knights"])
    assert {"type": "offer_condottiere", "to": defender} in diplomacy_actions(state, attacker)
    state = apply_action(state, attacker, {"type": "offer_condottiere", "to": defender})
    declared = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    assert not any(a["type"] == "offer_condottiere" for a in diplomacy_actions(declared, attacker))
    assert not any(a["type"] == "accept_condottiere" for a in diplomacy_actions(declared, defender))
    assert legal_actions(declared, attacker)


def test_r42_an_exchange_that_leaves_the_expanding_seat_a_lone_pass_moves_the_turn_on():
    """[ruling] R42 with R27: an exchange accepted in the expansions may leave the seat whose
    step it is nothing but to pass (a public choice), which is taken at once: that seat is no
    longer acting, and the seats that act have a legal action. (A driver that asks the offerer
    for its move after the answer finds "nothing to decide": it must re-read the acting seats.)"""
    states = []
    random_game(3, 1, TINY, lambda s, seat, a, new: states.append(new))
    moved_on = 0
    for state in states:
        if state.phase != EXPANSION:
            continue
        seat = state.current
        for action in diplomacy_actions(state, seat):
            if action["type"] != "offer_exchange":
                continue
            offered = apply_action(state, seat, action)
            accept = {"type": "accept_exchange", "from": seat}
            accept |= {"give": action["give"], "take": action["take"]}
            after = apply_action(offered, action["to"], accept)
            for acting in acting_seats(after):
                assert legal_actions(after, acting)
            if seat not in acting_seats(after):
                moved_on += 1
                assert after.phase != EXPANSION or after.current != seat
    assert moved_on, "no exchange in this game ended the expanding seat's step"
