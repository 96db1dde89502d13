"""The nations' powers (rulebook lines 634-668; [ruling] R50-R59), option {"powers": True}."""

import random

from games.renaissance.api import apply_action, legal_actions, view_for
from games.renaissance.cards import KIND
from games.renaissance.flow import end_vote, treasury
from games.renaissance.state import COMBAT, PURCHASE, RETREAT, VOTE, clone, put
from tests.renaissance.conftest import (
    city,
    combat_state,
    edit,
    game,
    refused,
    through_setup,
    until,
)
from tests.renaissance.test_engine_battle import commit, pass_all, prepare

POWERS = (("powers", True),)


def powered(state, seat=None, nation=None):
    """The state with the powers on (and `seat` playing `nation`, for the scenario nations)."""
    nations = state.nations if seat is None else put(state.nations, seat, nation)
    return edit(state, options=state.options + POWERS, nations=nations)


def roll_at(state, k):
    return random.Random(f"{state.seed}:{k}").randint(1, 6)


def test_r50_powers_only_with_the_option():
    """[ruling] R50: without the option Venice gets no 2 ducats."""
    state = through_setup(game(6))
    venice = state.nations.index("venice")
    assert treasury(powered(state))[venice] == treasury(state)[venice] + 2


def test_r50_genoa_attacking_spares_it_the_terrain_and_landing_bonuses():
    """[rules] Genoa "ne subit jamais le malus du débarquement ni celui des zones montagneuses";
    [ruling] R50 only when it attacks."""
    state, (attacker, defender) = prepare(
        ["pikemen", "pikemen"], ["knights"], target="Bari", nation="genoa"
    )
    state = powered(state)
    state = apply_action(state, attacker, {"type": "attack", "from": "Genova", "to": "Bari"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    state = apply_action(state, defender, commit(["knights"]))
    assert state.battle["sea"] == 1 and state.battle["bonus"] == 0


def test_r51_florence_lures_an_artist_on_5_or_6_once_a_turn():
    """[rules] Florence: 1d6, 5 or 6; [ruling] R51 the old palace stays, empty; once a turn."""
    state, seat = combat_state(cards=["pikemen"])
    state = powered(state)
    firenze, siena = city(state, "Firenze"), city(state, "Siena")
    state = edit(
        state,
        palace=put(put(state.palace, firenze, 1), siena, 1),
        artist=put(state.artist, siena, 1),
    )
    action = {"type": "lure", "from": "Siena", "to": "Firenze"}
    assert action in legal_actions(state, seat)
    for k in range(20):
        trial = edit(state, rng=k)
        after = apply_action(trial, seat, action)
        lured = roll_at(trial, k) >= 5
        assert after.artist[firenze] == lured and after.artist[siena] == (not lured)
        assert after.palace[siena] == 1
        assert action not in legal_actions(after, seat)


def test_r52_naples_saves_a_blue_card_without_a_retreat_card_once_a_turn():
    """[ruling] R52: the free Retreat, asked even with an empty hand."""
    state, (attacker, defender) = prepare(["cannon", "swiss"], ["pikemen"])
    state = powered(state, defender, "naples")
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["cannon", "swiss"]))
    state = apply_action(state, defender, commit(["pikemen"]))
    while state.phase != RETREAT:
        state = apply_action(state, state.current, {"type": "pass"})
    assert state.current == defender and sum(state.hands[defender]) == 0
    free = {"type": "retreat", "card": "pikemen", "free": True}
    state = apply_action(state, defender, free)
    state = pass_all(state)
    assert state.hands[defender][KIND["pikemen"]] == 1 and state.power[defender] == 1


def test_r53_the_popes_vote_counts_twice():
    """[ruling] R53: six players, seven votes: Rome and two others make war (4 of 7)."""
    state = powered(through_setup(game(6)))
    rome = state.nations.index("rome")
    votes = tuple(1 if s in (rome, (rome + 1) % 6) else 0 for s in range(6))
    s = clone(state)
    s.votes = votes
    end_vote(s)
    assert s.war == 0  # 3 of 7
    s = clone(state)
    s.votes = tuple(1 if s_ in (rome, (rome + 1) % 6, (rome + 2) % 6) else 0 for s_ in range(6))
    end_vote(s)
    assert s.war == 1  # 4 of 7; without the power 3 of 6 would also be war
    s = clone(state)
    s.votes = tuple(0 if s_ in (rome, (rome + 1) % 6, (rome + 2) % 6) else 1 for s_ in range(6))
    end_vote(s)
    assert s.war == 0  # 3 of 7: without the power 3 of 6 is war


def test_r54_venice_receives_two_ducats_in_sequence_6():
    """[rules] Venice "reçoit 2 ducats par tour (lors de la séquence 6)"."""
    state = powered(through_setup(game(6)))
    venice = state.nations.index("venice")
    garrisons = state.owner.count(venice)
    ramparts = sum(state.fort[c] for c, o in enumerate(state.owner) if o == venice)
    assert treasury(state)[venice] == garrisons + ramparts + 2


def test_r55_milan_commits_a_condottiere_card_it_does_not_hold_once_a_turn():
    """[ruling] R55, line 658: "Milan : possède l'équivalent d'une carte Condottiere gratuite par
    tour", read like Naples's free Retreat (line 646) and Spain's free Raiders (line 664): a
    Condottiere taken from no hand, marked "free", in any Condottiere slot; its use costs the
    ducat of every Condottiere (line 190: "Chaque fois qu'une carte Condottiere est jouée, le
    joueur doit payer 1 ducat"). The face-down count shows the cards from the hand only."""
    state, (attacker, defender) = prepare(["pikemen", "pikemen"], ["engineer"], ducats=1)
    state = powered(state, defender, "milan")
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    options = legal_actions(state, defender)
    free = {**commit(["condottiere"]), "free": True}
    assert free in options and {**commit(["condottiere"], "engineer"), "free": True} in options
    assert commit(["condottiere"]) not in options  # Milan holds no Condottiere card
    refused(state, defender, commit([], "engineer"))  # R15: no blue card, no red card alone
    before = state.discards.count(KIND["condottiere"])
    played = apply_action(state, defender, free)
    assert played.power[defender] == 1 and played.hands[defender] == state.hands[defender]
    assert played.battle["troops"][1][0][0] == KIND["condottiere"]
    assert played.ducats[defender] == 0  # paid at the reveal
    done = pass_all(played)
    assert done.battle is None
    assert done.discards.count(KIND["condottiere"]) == before  # no card of the deck


def test_r55_the_free_condottiere_needs_its_ducat_and_comes_once_a_turn():
    """[ruling] R55: without a ducat Milan cannot pay the free Condottiere's use (line 190);
    once used, the next battle offers no free one; an attacker may use it for a slot."""
    state, (attacker, defender) = prepare(["pikemen", "pikemen"], ["knights"], ducats=0)
    state = powered(state, defender, "milan")
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    assert not any(a.get("free") for a in legal_actions(state, defender))
    milan, _ = prepare(["pikemen", "knights"], ["knights"], ducats=1)
    milan = powered(milan, milan.current, "milan")
    milan = apply_action(milan, milan.current, {"type": "attack", "from": "Firenze", "to": "Siena"})
    pair = {**commit(["pikemen", "condottiere"]), "free": True}
    assert pair in legal_actions(milan, milan.current)
    used = edit(milan, power=put(milan.power, milan.current, 1))
    assert not any(a.get("free") for a in legal_actions(used, used.current))


def test_r56_france_may_attack_from_a_city_taken_this_turn():
    """[ruling] R56: R39 does not bind France."""
    state, (attacker, defender) = prepare(["cannon", "swiss", "knights", "knights"], [])
    state = powered(state, attacker, "france")
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = pass_all(apply_action(state, attacker, commit(["cannon", "swiss"])))
    assert state.phase == COMBAT and state.owner[city(state, "Siena")] == attacker
    origins = {a["from"] for a in legal_actions(state, attacker) if a["type"] == "attack"}
    assert "Siena" in origins


def test_r57_spain_pillages_once_a_turn_without_the_card():
    """[ruling] R57: free Raiders, the same targets as the card."""
    state, seat = combat_state(cards=["pikemen"])
    state = powered(state, seat, "spain")
    free = [a for a in legal_actions(state, seat) if a["type"] == "raiders"]
    assert free and all(a["free"] for a in free)
    after = apply_action(state, seat, free[0])
    assert after.power[seat] == 1 and after.hands[seat] == state.hands[seat]
    assert not [a for a in legal_actions(after, seat) if a["type"] == "raiders"]


def test_r58_the_empire_draws_one_more_card_at_the_deal():
    """[ruling] R58: 4 + 1 cards in peace."""
    state = game(6, 5)
    state = edit(state, nations=put(state.nations, 0, "empire"), options=state.options + POWERS)
    state = until(state, lambda s: s.turn == 1 and s.phase == PURCHASE)
    assert sum(state.hands[0]) == 5 and all(sum(state.hands[s]) == 4 for s in range(1, 6))


def test_r59_the_swiss_announce_during_the_vote_in_public_before_their_ballot():
    """[ruling] R59, line 668: "Le joueur doit annoncer lors du vote s'il choisit un bonus en
    attaque ou en défense": in a turn with a vote the Swiss announce in the vote phase, before
    their own ballot, while the others may still be voting; the announcement is public at once
    (the votes stay secret); the purchases then ask nothing more of them."""
    state = game(6, 6)
    state = edit(state, nations=put(state.nations, 0, "swiss"), options=state.options + POWERS)
    state = until(state, lambda s: s.turn == 2 and s.phase == VOTE)
    assert legal_actions(state, 0) == [
        {"type": "announce", "bonus": "attack"},
        {"type": "announce", "bonus": "defence"},
    ]
    refused(state, 0, {"type": "vote", "war": True})
    other = apply_action(state, 1, {"type": "vote", "war": True})
    announced = apply_action(other, 0, {"type": "announce", "bonus": "defence"})
    assert announced.phase == VOTE and announced.power[0] == 2
    assert view_for(announced, 3)["public"]["power"][0] == 2
    assert view_for(announced, 3)["public"]["voted"][:2] == [False, True]
    assert legal_actions(announced, 0) == [
        {"type": "vote", "war": False},
        {"type": "vote", "war": True},
    ]
    bought = until(announced, lambda s: s.phase == PURCHASE and s.current == 0)
    assert bought.power[0] == 2
    assert not any(a["type"] == "announce" for a in legal_actions(bought, 0))


def test_r59_without_a_vote_the_swiss_announce_first_and_get_plus_one_on_that_side():
    """[ruling] R59: in a turn without a vote (1515's first), announced at the Swiss's first
    decision, their first purchase action; +1 PC in attack."""
    state = game(6, 6)
    state = edit(state, nations=put(state.nations, 0, "swiss"), options=state.options + POWERS)
    state = until(state, lambda s: s.turn == 1 and s.phase == PURCHASE and s.current == 0)
    assert legal_actions(state, 0) == [
        {"type": "announce", "bonus": "attack"},
        {"type": "announce", "bonus": "defence"},
    ]
    after = apply_action(state, 0, {"type": "announce", "bonus": "attack"})
    assert after.power[0] == 1 and {"type": "done"} in legal_actions(after, 0)
    battle, (attacker, defender) = prepare(["pikemen", "pikemen"], ["knights", "ambassador"])
    battle = powered(battle, attacker, "swiss")
    battle = edit(battle, power=put(battle.power, attacker, 1))
    battle = apply_action(battle, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    battle = apply_action(battle, attacker, commit(["pikemen", "pikemen"]))
    battle = apply_action(battle, defender, commit(["knights"]))
    while battle.phase != RETREAT:
        battle = apply_action(battle, battle.current, {"type": "pass"})
    b = battle.battle
    assert b["swiss"] == (1, 0)
    assert b["totals"][0] == 3 + 3 + b["dice"][0] + 1
