"""Battles (rulebook lines 186-230 and 365-426): commitments, fortification and bonuses,
Engineer, Traitor and their counters, Condottieri and their die, Sign of God, Retreat, ties to
the defender, what happens to the cards and the city."""

import random

import pytest

from games.renaissance.api import IllegalAction, apply_action, legal_actions
from games.renaissance.battle import strength
from games.renaissance.cards import CONDOTTIERE_DIE, KIND
from games.renaissance.state import COMBAT, COUNTER, RETREAT, SIGN, TREASON, put
from tests.renaissance.conftest import city, combat_state, edit, hand

SPARE = "ambassador"  # a card kept in hand, so that each side is asked after the reveal


def die(state, k):
    """The die the engine rolls as its k-th random draw."""
    return random.Random(f"{state.seed}:{k}").randint(1, 6)


def prepare(a_cards, d_cards, target="Siena", fort=0, ducats=10, nation="florence"):
    state, attacker = combat_state(nation, war=1, cards=list(a_cards) + [SPARE], ducats=ducats)
    defender = state.nations.index("rome")
    target_city = city(state, target)
    owner = put(state.owner, target_city, defender)
    hands = put(state.hands, defender, hand(*d_cards))
    return edit(state, owner=owner, hands=hands, fort=put(state.fort, target_city, fort)), (
        attacker,
        defender,
    )


def commit(blue, red=None):
    return {"type": "commit", "blue": list(blue), "red": red}


def fight(a_cards, a_blue, d_cards, d_blue, a_red=None, d_red=None, origin="Firenze", **kw):
    """Declare, commit both sides; the state right after the defender's commitment."""
    state, (attacker, defender) = prepare(a_cards, d_cards, **kw)
    target = kw.get("target", "Siena")
    state = apply_action(state, attacker, {"type": "attack", "from": origin, "to": target})
    state = apply_action(state, attacker, commit(a_blue, a_red))
    return apply_action(state, defender, commit(d_blue, d_red)), (attacker, defender)


def pass_all(state):
    """Pass every Sign of God / Retreat / counter question up to the battle's end."""
    while state.phase in (SIGN, RETREAT, COUNTER):
        seat = state.current
        answer = {"type": "pass"} if state.phase != COUNTER else {"type": "counter", "play": False}
        state = apply_action(state, seat, answer)
    return state


def test_fortification_is_2_4_6_for_garrison_rampart_fortress():
    """Lines 317-321 and 403: the defender adds 2, 4 or 6 PC."""
    for level, value in enumerate((2, 4, 6)):
        state, _ = fight(
            ["pikemen", "pikemen"], ["pikemen", "pikemen"], ["knights"], ["knights"], fort=level
        )
        assert state.phase == SIGN
        assert state.battle["fort"] == value and state.battle["bonus"] == 0


def test_mountains_and_marshes_give_the_defender_one_more():
    """Line 396: +1 PC for defending in mountains or marshes."""
    state, _ = fight(
        ["pikemen", "pikemen"], ["pikemen", "pikemen"], ["knights"], ["knights"], target="Perugia"
    )
    assert state.battle["bonus"] == 1 and state.battle["fort"] == 2


def test_a_landing_gives_the_defender_one_more():
    """Lines 373 and 398: a port attacks another port city by landing; the defender gets +1.
    [ruling] R10: a landing goes from a port the attacker owns to an enemy port city."""
    state, (attacker, defender) = prepare(
        ["pikemen", "pikemen"], ["knights"], target="Bari", nation="genoa"
    )
    targets = {
        (a["from"], a["to"]) for a in legal_actions(state, attacker) if a["type"] == "attack"
    }
    assert ("Genova", "Bari") in targets
    state = apply_action(state, attacker, {"type": "attack", "from": "Genova", "to": "Bari"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    state = apply_action(state, defender, commit(["knights"]))
    assert state.battle["sea"] == 1 and state.battle["bonus"] == 1


def test_engineer_lowers_the_fortification_one_level_terrain_bonus_kept():
    """Lines 210 and 396: a fortress becomes a rampart, a garrison nothing; the mountain's
    bonus stays."""
    state, _ = fight(
        ["pikemen", "pikemen", "engineer"],
        ["pikemen", "pikemen"],
        ["knights"],
        ["knights"],
        a_red="engineer",
        fort=2,
    )
    assert state.battle["fort"] == 4
    state, _ = fight(
        ["pikemen", "pikemen", "engineer"],
        ["pikemen", "pikemen"],
        ["knights"],
        ["knights"],
        a_red="engineer",
        target="Perugia",
    )
    assert state.battle["fort"] == 0 and state.battle["bonus"] == 1


def test_traitor_cancels_the_fortification():
    """Line 216: "Félon : annule la fortification de la ville attaquée"."""
    state, _ = fight(
        ["pikemen", "pikemen", "traitor"],
        ["pikemen", "pikemen"],
        ["knights"],
        ["knights"],
        a_red="traitor",
        fort=2,
    )
    assert state.battle["fort"] == 0


def test_a_face_down_engineer_of_the_defender_counters_the_attackers():
    """Line 212: the defender's same card cancels the attacker's; both are discarded; no +2.
    [ruling] R16: the face-down copy counters at the reveal; a countered Engineer gives no +2."""
    state, _ = fight(
        ["pikemen", "pikemen", "engineer"],
        ["pikemen", "pikemen"],
        ["knights", "engineer"],
        ["knights"],
        a_red="engineer",
        d_red="engineer",
        fort=1,
    )
    assert state.battle["countered"] == 1 and state.battle["fort"] == 4
    assert state.battle["engineer"] == 0
    done = pass_all(state)
    assert done.discards.count(KIND["engineer"]) == 2


def test_the_defender_may_counter_from_its_hand_after_the_reveal():
    """Line 212: "ou en possède une dans sa main, il peut la jouer".
    [ruling] R16: asked after the reveal; both copies are discarded."""
    state, (attacker, defender) = fight(
        ["pikemen", "pikemen", "traitor"],
        ["pikemen", "pikemen"],
        ["knights", "traitor"],
        ["knights"],
        a_red="traitor",
        fort=1,
    )
    assert state.phase == COUNTER and state.current == defender
    played = apply_action(state, defender, {"type": "counter", "play": True})
    assert played.battle["countered"] == 1 and played.battle["fort"] == 4
    assert played.hands[defender][KIND["traitor"]] == 0
    declined = apply_action(state, defender, {"type": "counter", "play": False})
    assert declined.battle["fort"] == 0


def test_an_engineer_in_defence_without_counter_is_worth_two():
    """Line 214: "Une carte Ingénieur peut être jouée en défense (sans contre) et apporte un
    bonus de 2 PC"."""
    state, _ = fight(
        ["pikemen", "pikemen"],
        ["pikemen", "pikemen"],
        ["knights", "engineer"],
        ["knights"],
        d_red="engineer",
    )
    assert state.battle["engineer"] == 2
    assert strength(state.battle, 1) == 5 + 2 + 2 + state.battle["dice"][1]


def test_a_traitor_in_defence_makes_the_attacker_lose_its_strongest_blue_card():
    """Line 220: a defending Traitor (no counter) costs the attacker its strongest blue card.
    [ruling] R17: the strongest blue card, before the dice."""
    state, _ = fight(
        ["pikemen", "swiss"],
        ["pikemen", "swiss"],
        ["knights", "traitor"],
        ["knights"],
        d_red="traitor",
    )
    assert [kind for kind, _ in state.battle["troops"][0]] == [KIND["pikemen"]]
    assert KIND["swiss"] in state.discards


def test_strength_is_cards_plus_die_and_for_the_defender_fortification():
    """Lines 391-403 and the summary: attacker 2 blue + red + die; defender 1 blue + red + die
    + fortification."""
    state, _ = fight(
        ["pikemen", "cannon"], ["pikemen", "cannon"], ["arquebusiers"], ["arquebusiers"], fort=1
    )
    a_die, d_die = state.battle["dice"]
    assert strength(state.battle, 0) == 3 + 6 + a_die
    assert strength(state.battle, 1) == 4 + 4 + d_die


def find_outcome(a_cards, a_blue, d_cards, d_blue, wanted, **kw):
    """Try random counters until the dice give the wanted comparison (win/tie/loss)."""
    for k in range(300):
        state, seats = prepare(a_cards, d_cards, **kw)
        state = edit(state, rng=k)
        attacker, defender = seats
        state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
        state = apply_action(state, attacker, commit(a_blue))
        state = apply_action(state, defender, commit(d_blue))
        a, d = strength(state.battle, 0), strength(state.battle, 1)
        if (
            (a > d and wanted == "attacker")
            or (a == d and wanted == "tie")
            or (a < d and wanted == "defender")
        ):
            return state, seats
    raise AssertionError("no such dice")


def test_a_tie_goes_to_the_defender_but_both_lose_their_cards():
    """Line 420: "En cas d'égalité, le défenseur est vainqueur mais les deux joueurs perdent
    toutes les cartes jouées. Le défenseur garde sa ville"."""
    state, (attacker, defender) = find_outcome(
        ["pikemen", "pikemen"], ["pikemen", "pikemen"], ["pikemen"], ["pikemen"], "tie"
    )
    done = pass_all(state)
    assert done.phase == COMBAT
    assert done.owner[city(done, "Siena")] == defender
    assert done.hands[defender][KIND["pikemen"]] == 0
    assert sum(done.exposed[attacker]) == 0
    assert done.discards.count(KIND["pikemen"]) == 3


def test_a_winning_attacker_takes_the_city_and_its_blue_cards_lie_face_up_until_its_attacks_end():
    """Lines 410-414: the city and its fortifications change hands; the attacker's blue cards
    stay face up, back in hand for defence only after its attacks."""
    state, (attacker, defender) = find_outcome(
        ["knights", "swiss"], ["knights", "swiss"], ["pikemen"], ["pikemen"], "attacker", fort=1
    )
    done = pass_all(state)
    siena = city(done, "Siena")
    assert done.owner[siena] == attacker and done.fort[siena] == 1
    assert done.reserve[attacker] == state.reserve[attacker] - 1
    assert done.exposed[attacker] == hand("knights", "swiss")
    assert done.hands[attacker] == hand(SPARE)
    others = tuple(h if s == attacker else hand(SPARE) for s, h in enumerate(done.hands))
    ended = apply_action(edit(done, step=0, hands=others), attacker, {"type": "end_turn"})
    assert ended.phase == COMBAT and ended.current != attacker
    assert ended.hands[attacker] == hand(SPARE, "knights", "swiss")
    assert ended.known[attacker] == hand("knights", "swiss")


def test_a_winning_defender_takes_its_blue_card_back_the_attacker_loses_all():
    """Lines 416-418: the defender's blue card goes back to its hand; the loser discards."""
    state, (attacker, defender) = find_outcome(
        ["pikemen", "pikemen"], ["pikemen", "pikemen"], ["swiss"], ["swiss"], "defender", fort=2
    )
    done = pass_all(state)
    assert done.owner[city(done, "Siena")] == defender
    assert done.hands[defender] == hand("swiss") and done.known[defender] == hand("swiss")
    assert done.discards.count(KIND["pikemen"]) == 2


def test_the_defender_must_play_a_blue_card_while_it_holds_one():
    """Line 365: "toujours obligé de se défendre tant qu'il a des cartes bleues en main".
    [ruling] R15: the blue card is compulsory while the defender holds one."""
    state, (attacker, defender) = prepare(["pikemen", "pikemen"], ["knights", "engineer"])
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    options = legal_actions(state, defender)
    assert all(option["blue"] == ["knights"] for option in options)
    with pytest.raises(IllegalAction):
        apply_action(state, defender, commit([], "engineer"))


def test_a_defender_without_cards_adds_its_fortification_and_die_only():
    """Line 406: without a blue card, fortification + die + terrain bonuses.
    [ruling] R15: a defender without cards is not asked."""
    state, (attacker, defender) = prepare(["pikemen", "pikemen"], [])
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    assert state.phase == SIGN  # the defender was not asked: nothing to commit
    assert state.battle["troops"][1] == ()
    assert strength(state.battle, 1) == 2 + state.battle["dice"][1]


def test_the_attacker_commits_two_blue_cards_and_at_most_one_red():
    """Line 387: two blue cards and maybe one red card (Engineer, Traitor, a Condottiere).
    [ruling] R14: a Sign of God in hand is no face-down option."""
    state, (attacker, _) = prepare(["pikemen", "knights", "swiss", "engineer", "sign_of_god"], [])
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    options = legal_actions(state, attacker)
    assert all(len(o["blue"]) == 2 for o in options)
    assert {o["red"] for o in options} == {None, "engineer"}
    assert len(options) == 3 * 2


def test_condottieri_at_most_three_in_attack_two_in_defence_a_ducat_each():
    """Line 190: a Condottiere replaces a blue or the red card and costs 1 ducat; at most 3 in
    attack, 2 in defence.
    [ruling] R13: only as many Condottieri as the side can pay."""
    state, (attacker, defender) = prepare(["condottiere"] * 4, ["condottiere"] * 3)
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    most = max(
        legal_actions(state, attacker),
        key=lambda o: o["blue"].count("condottiere") + (o["red"] == "condottiere"),
    )
    assert most == commit(["condottiere", "condottiere"], "condottiere")
    poor = edit(state, ducats=put(state.ducats, attacker, 2))
    assert commit(["condottiere", "condottiere"], "condottiere") not in legal_actions(
        poor, attacker
    )
    state = apply_action(state, attacker, most)
    assert commit(["condottiere"], "condottiere") in legal_actions(state, defender)
    paid = apply_action(state, defender, commit(["condottiere"], "condottiere"))
    assert paid.ducats[attacker] <= 10 - 3 and paid.ducats[defender] <= 10 - 2


def test_the_condottiere_die_has_rout_treason_4_5_5_6():
    """Lines 196-204 ([ruling] R2: the sixth face is a 5)."""
    assert sorted(map(str, CONDOTTIERE_DIE)) == ["4", "5", "5", "6", "rout", "treason"]


def condottiere_fight(face_wanted, ducats=10):
    """A battle where the attacker's Condottiere rolls `face_wanted` first."""
    for k in range(400):
        state, (attacker, defender) = prepare(
            ["condottiere", "pikemen"], ["knights"], ducats=ducats
        )
        state = edit(state, rng=k)
        state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
        state = apply_action(state, attacker, commit(["pikemen", "condottiere"]))
        if CONDOTTIERE_DIE[die(state, state.rng + 2) - 1] == face_wanted:
            return apply_action(state, defender, commit(["knights"])), (attacker, defender)
    raise AssertionError("no such roll")


def test_a_routed_condottiere_is_discarded_at_once():
    """Line 198: "le Condottiere fuit la bataille, la carte est immédiatement défaussée"."""
    state, _ = condottiere_fight("rout")
    assert [kind for kind, _ in state.battle["troops"][0]] == [KIND["pikemen"]]
    assert KIND["condottiere"] in state.discards


def test_a_numbered_face_gives_the_condottiere_its_value():
    """Line 204: 4, 5 or 6 PC."""
    state, _ = condottiere_fight(5)
    assert (KIND["condottiere"], 5) in state.battle["troops"][0]


def test_a_traitor_condottiere_is_offered_to_the_other_side_for_a_ducat():
    """Line 202: the other side may buy it for 1 ducat and rolls again; else its owner rolls
    again."""
    state, (attacker, defender) = condottiere_fight("treason")
    assert state.phase == TREASON and state.current == defender
    bought = apply_action(state, defender, {"type": "buy_traitor", "buy": True})
    assert bought.ducats[defender] == state.ducats[defender] - 1
    moved = [kind for kind, _ in bought.battle["troops"][1]].count(KIND["condottiere"])
    assert moved == 1 or KIND["condottiere"] in bought.discards or bought.phase == TREASON
    kept = apply_action(state, defender, {"type": "buy_traitor", "buy": False})
    owners = [kind for kind, _ in kept.battle["troops"][0]]
    assert (
        KIND["condottiere"] in owners
        or KIND["condottiere"] in kept.discards
        or kept.phase == TREASON
    )


def test_a_traitor_condottiere_is_rolled_again_if_the_other_side_cannot_pay():
    """[ruling] R18: the traitor is offered only to a side that can pay; else rolled again."""
    state, (attacker, defender) = prepare(["condottiere", "pikemen"], ["knights"])
    state = edit(state, ducats=put(state.ducats, defender, 0))
    for k in range(400):
        trial = edit(state, rng=k)
        trial = apply_action(trial, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
        trial = apply_action(trial, attacker, commit(["pikemen", "condottiere"]))
        if CONDOTTIERE_DIE[die(trial, trial.rng + 2) - 1] == "treason":
            after = apply_action(trial, defender, commit(["knights"]))
            assert after.phase != TREASON
            return
    raise AssertionError("no such roll")


def test_sign_of_god_doubles_one_card_after_the_reveal():
    """Line 224: it doubles a blue card or a Condottiere; one per player per battle.
    [ruling] R19: the attacker is asked first, then the defender."""
    state, (attacker, defender) = fight(
        ["pikemen", "cannon", "sign_of_god"], ["pikemen", "cannon"], ["knights", SPARE], ["knights"]
    )
    assert state.phase == SIGN and state.current == attacker
    before = strength(state.battle, 0)
    options = legal_actions(state, attacker)
    assert {"type": "sign_of_god", "target": 1} in options
    after = apply_action(state, attacker, {"type": "sign_of_god", "target": 1})
    assert strength(after.battle, 0) == before + 6
    assert after.phase == SIGN and after.current == defender


def test_retreat_saves_a_blue_card_of_a_loser():
    """Line 228: after the result a Retreat takes back one blue card (not a Condottiere); a
    saving attacker may not attack with it again this turn ([ruling] R21: it lies face up)."""
    state, (attacker, defender) = find_outcome(
        ["pikemen", "cannon", "retreat"],
        ["pikemen", "cannon"],
        ["swiss"],
        ["swiss"],
        "defender",
        fort=2,
    )
    state = apply_action(state, attacker, {"type": "pass"})  # no Sign of God
    assert state.phase == RETREAT and state.current == attacker
    saved = apply_action(state, attacker, {"type": "retreat", "card": "cannon"})
    done = pass_all(saved)
    assert done.exposed[attacker] == hand("cannon")
    assert done.discards.count(KIND["pikemen"]) == 1
