"""The turn's sequences (rulebook lines 120-460): vote, deal, purchases, order draw, expansions,
the combat phases' limits, Renaissance Points, treasury, the end and its tie-breaks, returns."""

import pytest

from games.renaissance.api import (
    IllegalAction,
    apply_action,
    legal_actions,
    view_for,
    winners,
)
from games.renaissance.flow import end_turn, finish
from games.renaissance.state import COMBAT, EXPANSION, OVER, PURCHASE, RETURN, VOTE, clone
from tests.renaissance.conftest import (
    city,
    combat_state,
    edit,
    expansion_state,
    game,
    hand,
    through_setup,
    until,
)


def at_vote():
    """Turn 2's vote, turn 1 played with first legal actions (nobody buys nor attacks)."""
    return until(through_setup(game(6, 2)), lambda s: s.phase == VOTE)


def vote_all(state, wars):
    for seat in range(state.n):
        state = apply_action(state, seat, {"type": "vote", "war": seat < wars})
    return state


def test_the_vote_is_simultaneous_and_war_needs_at_least_half():
    """Line 141: war "si au moins la moitié des joueurs a voté pour la guerre".
    [ruling] R29: seats are counted, war if war votes x 2 >= players."""
    state = at_vote()
    assert state.turn == 2 and state.current == -1
    assert legal_actions(state, 3) == [
        {"type": "vote", "war": False},
        {"type": "vote", "war": True},
    ]
    assert vote_all(state, 3).war == 1
    assert vote_all(state, 2).war == 0
    assert vote_all(state, 6).last_votes == (1,) * 6


def test_a_seat_votes_once_and_its_vote_stays_secret_until_all_have_voted():
    """Line 139: "Ce choix est secret et chacun dévoile en même temps sa politique".
    [ruling] R29: one vote per seat, unseen by the others."""
    state = at_vote()
    voted = apply_action(state, 0, {"type": "vote", "war": True})
    with pytest.raises(IllegalAction):
        apply_action(voted, 0, {"type": "vote", "war": False})
    peace = apply_action(state, 0, {"type": "vote", "war": False})
    for seat in range(1, 6):
        assert view_for(voted, seat) == view_for(peace, seat)
    assert view_for(voted, 0)["vote"] is True


def test_peace_deals_four_cards_and_four_ducats_war_six_cards():
    """Lines 143-144: war 6 cards; peace 4 cards and 4 ducats."""
    state = at_vote()
    war = vote_all(state, 6)
    assert war.phase == PURCHASE
    assert [sum(h) for h in war.hands] == [6] * 6 and war.ducats == state.ducats
    peace = vote_all(state, 0)
    assert [sum(h) for h in peace.hands] == [4] * 6
    assert peace.ducats == tuple(d + 4 for d in state.ducats)


def purchase_state(ducats=20, cards=()):
    state = through_setup(game(6, 1))
    seat = state.current
    return edit(
        state,
        ducats=tuple(ducats if s == seat else state.ducats[s] for s in range(6)),
        hands=tuple(hand(*cards) if s == seat else state.hands[s] for s in range(6)),
    ), seat


def test_purchase_prices_card_2_palace_3_rampart_4_castle_4_fortress_8():
    """Lines 278-289 and 309: a card 2, palace 3, rampart 4, castle 4; a fortress 8."""
    state, seat = purchase_state(20)
    own = next(c for c in range(24) if state.owner[c] == seat and state.fort[c] == 0)
    name = state.geo.cities[own]
    after = apply_action(state, seat, {"type": "build", "piece": "palace", "city": name})
    assert after.ducats[seat] == 17 and after.palace[own] and after.palaces == 9
    after = apply_action(after, seat, {"type": "build", "piece": "rampart", "city": name})
    assert after.ducats[seat] == 13 and after.fort[own] == 1
    after = apply_action(after, seat, {"type": "build", "piece": "castle", "city": name})
    assert after.ducats[seat] == 9 and after.fort[own] == 2 and after.castles == 9
    direct = apply_action(state, seat, {"type": "build", "piece": "fortress", "city": name})
    assert direct.ducats[seat] == 12 and direct.fort[own] == 2
    bought = apply_action(state, seat, {"type": "buy_cards", "count": 3})
    assert bought.ducats[seat] == 14 and sum(bought.hands[seat]) == 3


def test_one_palace_per_city():
    """Line 325: "Un joueur ne peut construire qu'un seul palais par ville"."""
    state, seat = purchase_state(20)
    own = next(c for c in range(24) if state.owner[c] == seat)
    state = edit(state, palace=tuple(int(c == own) for c in range(24)))
    palaces = [a for a in legal_actions(state, seat) if a.get("piece") == "palace"]
    assert state.geo.cities[own] not in {a["city"] for a in palaces}


def test_at_most_twelve_cards_after_purchases_bought_at_once():
    """Lines 272 and 285: all cards bought in one go; never more than 12 in hand.
    [ruling] R30: one buy_cards a turn, capped by the 12-card limit."""
    state, seat = purchase_state(40, cards=["pikemen"] * 4)
    counts = [a["count"] for a in legal_actions(state, seat) if a["type"] == "buy_cards"]
    assert max(counts) == 8
    after = apply_action(state, seat, {"type": "buy_cards", "count": 2})
    assert not [a for a in legal_actions(after, seat) if a["type"] == "buy_cards"]


def test_no_building_once_the_box_is_empty():
    """Lines 305-309: the figures in the box limit the ramparts and castles.
    [ruling] R30: nothing is built when the box is empty."""
    state, seat = purchase_state(40)
    empty = edit(state, ramparts=0, castles=0, palaces=0)
    assert [a["type"] for a in legal_actions(empty, seat) if a["type"] == "build"] == []


def test_purchases_go_in_turn_order():
    """Line 276: the first player in turn order buys first, then the second, ..."""
    state = through_setup(game(6, 1))
    seen = []
    while state.phase == PURCHASE:
        seen.append(state.current)
        state = apply_action(state, state.current, {"type": "done"})
    assert seen == list(state.order) or len(seen) == 6


def test_nobody_is_first_twice_running():
    """Line 333: "Un joueur ne peut être premier deux fois de suite"."""
    firsts = set()
    for seed in range(30):
        state = through_setup(game(6, seed))
        first = state.order[0]
        state = until(state, lambda s: s.turn == 2 and s.phase > PURCHASE)
        assert state.order[0] != first and sorted(state.order) == list(range(6))
        firsts.add(state.order[0])
    assert len(firsts) == 6


def test_expansions_alternate_in_turn_order_two_each():
    """Lines 353-359: each player expands once in turn order, then again."""
    state = expansion_state()
    seen = []
    while state.phase == EXPANSION:
        seen.append(state.current)
        state = apply_action(state, state.current, legal_actions(state, state.current)[0])
    assert seen[:6] == list(state.order)  # everybody can expand once on the tiny board
    second = [seat for seat in state.order if seat in seen[6:]]
    assert seen[6:] == second  # the second round in turn order too (seats without moves skip)
    assert state.phase == COMBAT


def test_expansion_to_a_free_city_by_road_not_twice_from_the_same_city():
    """Lines 354-358: a free city linked by road to one of the player's cities; the second
    expansion may start from the first's city, not from the same origin.
    [ruling] R9: the two expansions start from different cities."""
    state = expansion_state()
    state = edit(state, current=state.order[0])
    seat = state.current
    moves = [a for a in legal_actions(state, seat) if a["type"] == "expand"]
    for move in moves:
        origin, target = city(state, move["from"]), city(state, move["to"])
        assert state.owner[origin] == seat and state.owner[target] == -1
    land = next(
        m for m in moves if city(state, m["to"]) in state.geo.neighbours[city(state, m["from"])]
    )
    after = apply_action(state, seat, land)
    assert (
        after.owner[city(after, land["to"])] == seat
        and after.reserve[seat] == state.reserve[seat] - 1
    )
    after = until(after, lambda s: s.current == seat)
    second = [a for a in legal_actions(after, seat) if a["type"] == "expand"]
    assert all(a["from"] != land["from"] for a in second)


def test_sea_expansion_from_a_port_once_a_turn_twice_for_genoa_and_venice():
    """Lines 360-361: one sea expansion a turn from a port; Genoa and Venice two (with two
    ports); [ruling] R8 by sea to any free coastal city."""
    state = expansion_state()
    naples = state.nations.index("naples")
    state = edit(state, current=naples, step=state.order.index(naples))
    sea = [
        a for a in legal_actions(state, naples) if a.get("from") == "Napoli" and a["to"] == "Nizza"
    ]
    assert sea
    after = apply_action(state, naples, sea[0])
    assert after.sea_used[naples] == 1
    again = edit(after, phase=EXPANSION, current=naples, exp_from=(-1,) * 6)
    for move in legal_actions(again, naples):
        if move["type"] == "expand":  # by road only now
            assert city(again, move["to"]) in again.geo.neighbours[city(again, move["from"])]
    venice = state.nations.index("venice")
    twice = edit(state, current=venice, sea_used=tuple(int(s == venice) for s in range(6)))
    assert [a for a in legal_actions(twice, venice) if a.get("to") == "Nizza"]


def test_closed_cities_are_never_entered():
    """Line 86: nobody may move to or place a garrison in a closed province."""
    state = until(through_setup(game(5, 3)), lambda s: s.phase == EXPANSION)
    for seat in range(5):
        moves = legal_actions(edit(state, current=seat), seat)
        assert not {a.get("to") for a in moves} & {"Torino", "Nizza", "Trento"}


def attacks(state, seat):
    return {(a["from"], a["to"]) for a in legal_actions(state, seat) if a["type"] == "attack"}


def test_an_attack_needs_two_blue_cards_or_condottieri():
    """Line 369: at least 2 blue cards (or Condottieri, a ducat each)."""
    state, seat = combat_state(cards=["pikemen"])
    assert attacks(state, seat) == set()
    state, seat = combat_state(cards=["pikemen", "condottiere"])
    assert ("Firenze", "Siena") in attacks(state, seat)
    state, seat = combat_state(cards=["pikemen", "condottiere"], ducats=0)
    assert attacks(state, seat) == set()


def test_free_cities_cannot_be_attacked_only_other_players_cities():
    """Line 367: "Un joueur ne peut jamais attaquer une ville libre"."""
    state, seat = combat_state(cards=["pikemen", "knights"])
    assert attacks(state, seat) == {("Firenze", "Siena"), ("Firenze", "Bologna")}
    assert state.owner[city(state, "Perugia")] == -1  # free: taken by expansion only


def test_peace_allows_one_attack_war_any_number():
    """Lines 143-144: in peace a single attack; in war as many as the cards allow."""
    cards = ["pikemen"] * 4 + ["knights"] * 2
    state, seat = combat_state(cards=cards, war=0)
    after = edit(state, attacks=1)
    assert attacks(after, seat) == set()
    state, seat = combat_state(cards=cards, war=1)
    assert attacks(edit(state, attacks=3), seat)


def test_one_attack_per_turn_from_a_city_and_on_a_city():
    """Lines 379-381: one attack per turn from a given city; a city attacked once per turn by a
    player."""
    state, seat = combat_state(cards=["pikemen"] * 6, war=1)
    used = edit(state, used_from=(city(state, "Firenze"),), targets=(city(state, "Bologna"),))
    remaining = attacks(used, seat)
    assert all(origin != "Firenze" and target != "Bologna" for origin, target in remaining)


def test_renaissance_points_one_per_province_and_per_palace_with_artist():
    """Lines 436-438: 1 RP per province whose cities a player all holds; 1 RP per palace with an
    artist."""
    state, seat = combat_state()
    florence = seat
    firenze = city(state, "Firenze")
    artist = tuple(int(c == firenze) for c in range(24))
    state = edit(state, palace=artist, artist=artist, palaces=9, artists=10)
    after = clone(state)
    end_turn(after)
    # Toscana (Firenze + Pistoia) and the artist.
    assert after.sheet[florence][-1] == 2
    rome = state.nations.index("rome")
    assert after.sheet[rome][-1] == 2  # Lazio, and Siena's one-city province


def test_treasury_one_two_three_ducats_and_nothing_from_a_pillaged_city():
    """Lines 446-452: 1 ducat a garrison, 2 a rampart, 3 a fortress; a pillaged city yields
    nothing; the markers then go."""
    state, seat = combat_state()
    own = [c for c in range(24) if state.owner[c] == seat]
    fort = list(state.fort)
    fort[own[0]], fort[own[1]] = 2, 1
    pillaged = tuple(int(c == own[1]) for c in range(24))
    state = edit(state, fort=tuple(fort), pillaged=pillaged, pillages=9, castles=9)
    after = clone(state)
    end_turn(after)
    expected = 3 + sum(1 for c in own[2:])
    assert after.ducats[seat] == state.ducats[seat] + expected
    assert after.pillaged == (0,) * 24 and after.pillages == 10
    assert after.hands == (hand(),) * 6  # every card goes back


def test_the_game_ends_after_the_sixth_turn():
    """Lines 124 and 442: six turns, 1454 to 1494."""
    state, _ = combat_state()
    last = edit(state, turn=6, sheet=((0,) * 5,) * 6)
    over = clone(last)
    end_turn(over)
    assert over.phase == OVER and over.winners and all(len(s) == 6 for s in over.sheet)


def test_ties_go_to_fortresses_then_ramparts_then_ducats_then_shared():
    """Line 22: ties broken by fortresses, then ramparts, then ducats; [ruling] R5 shared."""
    state, _ = combat_state()
    tied = edit(state, points=(5,) * 6, fort=(0,) * 24, ducats=(3,) * 6)
    done = clone(tied)
    finish(done)
    assert winners(done) == list(range(6))
    rome = state.nations.index("rome")
    richer = clone(edit(tied, ducats=tuple(4 if s == rome else 3 for s in range(6))))
    finish(richer)
    assert winners(richer) == [rome]
    milan = state.nations.index("milan")
    rampart = list(tied.fort)
    rampart[city(state, "Milano")] = 1
    walls = clone(edit(richer, fort=tuple(rampart)))
    finish(walls)
    assert winners(walls) == [milan]
    rampart[city(state, "Roma")] = 2
    fortress = clone(edit(walls, fort=tuple(rampart)))
    finish(fortress)
    assert winners(fortress) == [rome]


def test_a_player_wiped_off_the_board_returns_on_a_starting_city_with_six_ducats():
    """Line 458: it comes back at the next turn's start on one of its two starting cities, of
    its choice (fortifications and palace included), with 6 ducats.
    [ruling] R26: even on a city another player holds (its garrison goes home)."""
    state, seat = combat_state()
    rome = state.nations.index("rome")
    owner = tuple(seat if o == rome else o for o in state.owner)
    reserve = tuple(21 - owner.count(s) for s in range(6))
    wiped = clone(edit(state, owner=owner, reserve=reserve, turn=2))
    end_turn(wiped)
    assert wiped.phase == RETURN and wiped.current == rome
    choices = {a["city"] for a in legal_actions(wiped, rome)}
    assert choices == {"Roma", "Viterbo"}
    back = apply_action(wiped, rome, {"type": "return", "city": "Roma"})
    assert back.owner[city(back, "Roma")] == rome
    assert back.ducats[rome] == wiped.ducats[rome] + 6
    assert back.reserve[seat] == wiped.reserve[seat] + 1
