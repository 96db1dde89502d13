"""Rulings on battles (docs/renaissance/rulings.md): R13 Condottieri paid at the reveal, R14 the
face-down red card, R15 the defender's slots, R16 counters, R17 a defending Traitor, R18
treason, R19 Sign of God, R20 Retreat, R31 the Ride."""

from games.renaissance.api import apply_action, legal_actions, view_for
from games.renaissance.battle import strength
from games.renaissance.cards import CONDOTTIERE_DIE, KIND
from games.renaissance.state import ATTACK, COMBAT, COUNTER, DEFEND, RETREAT, SIGN, TREASON, put
from tests.renaissance.conftest import city, edit, hand, refused
from tests.renaissance.test_engine_battle import SPARE, commit, die, find_outcome, pass_all, prepare

PASS = {"type": "pass"}
ATTACK_SIENA = {"type": "attack", "from": "Firenze", "to": "Siena"}


def declared(a_cards, d_cards, **kw):
    state, seats = prepare(a_cards, d_cards, **kw)
    return apply_action(state, seats[0], ATTACK_SIENA), seats


def numbered(state, k):
    return CONDOTTIERE_DIE[die(state, k) - 1] not in ("rout", "treason")


def test_r13_condottieri_are_paid_at_the_reveal_and_only_as_many_as_can_be_paid():
    """[ruling] R13: a face-down Condottiere costs nothing until the reveal (the defender's
    view cannot tell two Condottieri from two troops); three need three ducats."""
    cards = ["condottiere", "condottiere", "condottiere", "pikemen", "knights"]
    state, (attacker, defender) = declared(cards, ["knights"], ducats=2)
    hired = apply_action(state, attacker, commit(["condottiere", "condottiere"]))
    troops = apply_action(state, attacker, commit(["pikemen", "knights"]))
    assert hired.phase == DEFEND and hired.ducats[attacker] == 2
    assert view_for(hired, defender) == view_for(troops, defender)
    refused(state, attacker, commit(["condottiere", "condottiere"], "condottiere"))
    revealed = apply_action(hired, defender, commit(["knights"]))
    assert revealed.ducats[attacker] == 0


def test_r14_the_face_down_red_card_is_an_engineer_a_traitor_or_a_condottiere():
    """[ruling] R14: Sign of God and Retreat are never committed face down, in attack or in
    defence."""
    reds = ["engineer", "traitor", "condottiere", "sign_of_god", "retreat"]
    state, (attacker, defender) = declared(["pikemen", "knights"] + reds, ["knights"] + reds)
    assert {o["red"] for o in legal_actions(state, attacker)} == {
        None,
        "engineer",
        "traitor",
        "condottiere",
    }
    for red in ("sign_of_god", "retreat"):
        refused(state, attacker, commit(["pikemen", "knights"], red))
    state = apply_action(state, attacker, commit(["pikemen", "knights"]))
    assert {o["red"] for o in legal_actions(state, defender)} == {
        None,
        "engineer",
        "traitor",
        "condottiere",
    }
    for red in ("sign_of_god", "retreat"):
        refused(state, defender, commit(["knights"], red))


def test_r15_the_defenders_blue_slot_takes_a_condottiere_or_nothing_without_blue_cards():
    """[ruling] R15: with a blue card in hand the slot is filled (a Condottiere may stand in,
    line 190: "peut se jouer en tant que carte bleue"); without one, a Condottiere or nothing;
    the red card goes with a played blue card or Condottiere only (next test)."""
    state, (attacker, defender) = declared(["pikemen", "pikemen"], ["knights", "condottiere"])
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    blues = {tuple(o["blue"]) for o in legal_actions(state, defender)}
    assert blues == {("knights",), ("condottiere",)}
    refused(state, defender, commit([]))
    bare, (attacker, defender) = declared(["pikemen", "pikemen"], ["condottiere", "engineer"])
    bare = apply_action(bare, attacker, commit(["pikemen", "pikemen"]))
    options = legal_actions(bare, defender)
    assert {tuple(o["blue"]) for o in options} == {(), ("condottiere",)}
    assert commit(["condottiere"], "engineer") in options
    nothing = apply_action(bare, defender, commit([]))
    assert nothing.battle["troops"][1] == () and nothing.hands[defender] == hand(
        "condottiere", "engineer"
    )


def test_r15_a_defender_without_blue_cards_adds_only_fortification_die_and_bonuses():
    """[ruling] R15, line 406: "Si le défenseur n'a plus de carte bleue pour se défendre, il
    additionne seulement la valeur de sa fortification à son jet de dé et aux bonus liés au
    terrain": no red card with an empty blue slot (no Engineer's +2, no Traitor, no Condottiere
    as its red card). Holding cards, it is still asked (R27), with that one choice."""
    state, (attacker, defender) = declared(
        ["pikemen", "pikemen"], ["engineer", "traitor", "condottiere"], ducats=0
    )
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"]))
    assert state.phase == DEFEND and state.current == defender
    assert legal_actions(state, defender) == [commit([])]
    for red in ("engineer", "traitor", "condottiere"):
        refused(state, defender, commit([], red))
    fought = apply_action(state, defender, commit([]))
    b = fought.battle
    assert b["troops"][1] == () and b["engineer"] == 0
    assert strength(b, 1) == b["fort"] + b["bonus"] + b["dice"][1]


def test_r16_a_defender_with_cards_is_asked_about_a_counter_even_without_the_copy():
    """[ruling] R16: the question reveals nothing: a defender holding no Traitor is still
    asked, and may only decline; a defender with an empty hand is not asked."""
    state, (attacker, defender) = declared(
        ["pikemen", "pikemen", "traitor"], ["knights", "ambassador"], fort=1
    )
    state = apply_action(state, attacker, commit(["pikemen", "pikemen"], "traitor"))
    asked = apply_action(state, defender, commit(["knights"]))
    assert asked.phase == COUNTER and asked.current == defender
    assert legal_actions(asked, defender) == [{"type": "counter", "play": False}]
    refused(asked, defender, {"type": "counter", "play": True})
    empty, (attacker, defender) = declared(["pikemen", "pikemen", "traitor"], ["knights"], fort=1)
    empty = apply_action(empty, attacker, commit(["pikemen", "pikemen"], "traitor"))
    empty = apply_action(empty, defender, commit(["knights"]))
    assert empty.phase != COUNTER and empty.battle["fort"] == 0


def test_r17_a_defending_traitor_takes_the_strongest_blue_card_never_a_condottiere():
    """[ruling] R17: the attacker's pikeman goes, its Condottiere stays."""
    state, (attacker, defender) = declared(["pikemen", "condottiere"], ["knights", "traitor"])
    state = apply_action(state, attacker, commit(["pikemen", "condottiere"]))
    state = apply_action(state, defender, commit(["knights"], "traitor"))
    assert state.battle["lost"] == KIND["pikemen"]
    assert KIND["pikemen"] not in [kind for kind, _ in state.battle["troops"][0]]


def test_r17_the_card_a_traitor_took_cannot_be_saved_by_a_retreat():
    """[ruling] R17: the cannon is gone before the dice; a Retreat may save only the pikeman."""
    state, (attacker, defender) = declared(
        ["pikemen", "cannon", "retreat"], ["knights", "traitor"], fort=2
    )
    state = apply_action(state, attacker, commit(["pikemen", "cannon"]))
    state = apply_action(state, defender, commit(["knights"], "traitor"))
    assert state.battle["lost"] == KIND["cannon"] and state.phase == SIGN
    state = apply_action(state, attacker, PASS)  # 3 + a die never beats 5 + 6 + a die
    assert state.phase == RETREAT and state.current == attacker
    assert legal_actions(state, attacker) == [PASS, {"type": "retreat", "card": "pikemen"}]
    refused(state, attacker, {"type": "retreat", "card": "cannon"})


def _treason(rng_ok, defence=("condottiere",), red=None):
    """Attacker: a Condottiere and a pikeman; defender: two Condottieri, committing `defence`
    and `red`. The attacker's Condottiere rolls treason, and rng_ok(state, k) holds for the draw
    counter k."""
    for k in range(2000):
        state, (attacker, defender) = declared(
            ["condottiere", "pikemen"], ["condottiere", "condottiere"]
        )
        state = apply_action(edit(state, rng=k), attacker, commit(["pikemen", "condottiere"]))
        if CONDOTTIERE_DIE[die(state, k + 2) - 1] == "treason" and rng_ok(state, k):
            state = apply_action(state, defender, commit(list(defence), red))
            return state, (attacker, defender)
    raise AssertionError("no such rolls")


def test_r18_a_bought_traitor_is_paid_to_the_player_it_leaves():
    """[ruling] R18, line 202: "le Condottiere trahit et va se vendre à votre adversaire pour 1
    ducat"; line 190: "L'argent est payé à la banque sauf dans le cas d'une vente"; line 206: in
    a sale "le joueur qui achète le Condottiere paie le ducat au vendeur". The defender pays the
    attacker the ducat; the traitor joins the defender's side and is rolled again."""
    state, (attacker, defender) = _treason(lambda s, k: all(numbered(s, k + j) for j in (3, 4)))
    assert state.phase == TREASON and state.current == defender
    bought = apply_action(state, defender, {"type": "buy_traitor", "buy": True})
    assert bought.ducats[defender] == state.ducats[defender] - 1
    assert bought.ducats[attacker] == state.ducats[attacker] + 1
    assert sum(bought.ducats) == sum(state.ducats)
    assert [kind for kind, _ in bought.battle["troops"][0]] == [KIND["pikemen"]]
    defence = bought.battle["troops"][1]
    assert [kind for kind, _ in defence] == [KIND["condottiere"]] * 2
    assert all(value in (4, 5, 6) for _, value in defence)


def test_r18_no_traitor_is_bought_beyond_the_buyers_card_limit():
    """[ruling] R18, line 206: "La vente de Condottiere ne doit pas être en infraction avec le
    nombre maximum de cartes jouées par l'attaquant et le défenseur" (a defender plays at most
    2: line 190, "1 à la place de la carte bleue et 1 à la place de la carte rouge"). A defender
    with two cards in the battle is not offered the traitor: line 202, "Si votre adversaire ne
    peut payer, c'est vous qui relancez le dé"."""
    state, (attacker, defender) = _treason(
        lambda s, k: all(numbered(s, k + j) for j in (3, 4, 5)),
        defence=("condottiere",),
        red="condottiere",
    )
    assert state.phase == SIGN
    assert [kind for kind, _ in state.battle["troops"][0]] == [KIND["pikemen"], KIND["condottiere"]]
    assert len(state.battle["troops"][1]) == 2
    assert (state.ducats[attacker], state.ducats[defender]) == (9, 8)  # paid at the reveal only
    assert all(value in (4, 5, 6) for kind, value in state.battle["troops"][0][1:])


def test_r18_a_declined_traitor_is_rolled_again_by_its_owner():
    """[ruling] R18: declined, the traitor stays with the attacker and rolls anew."""
    state, (attacker, defender) = _treason(lambda s, k: numbered(s, k + 3))
    kept = apply_action(state, defender, {"type": "buy_traitor", "buy": False})
    assert kept.ducats[defender] == state.ducats[defender]
    face = CONDOTTIERE_DIE[die(state, state.rng) - 1]
    assert (KIND["condottiere"], face) in kept.battle["troops"][0]


def test_r19_sign_of_god_comes_after_the_dice_and_condottieri_attacker_first_once_each():
    """[ruling] R19: when asked, the dice are rolled and each Condottiere has its value; the
    attacker may double its Condottiere; each side is asked once, even with a second Sign."""
    for k in range(300):
        state, (attacker, defender) = declared(
            ["condottiere", "knights", "sign_of_god", "sign_of_god"],
            ["knights", "sign_of_god", "ambassador"],
        )
        state = apply_action(edit(state, rng=k), attacker, commit(["knights", "condottiere"]))
        if numbered(state, k + 2):
            break
    state = apply_action(state, defender, commit(["knights"]))
    b = state.battle
    assert state.phase == SIGN and state.current == attacker
    assert len(b["dice"]) == 2 and all(value > 0 for _, value in b["troops"][0])
    assert {"type": "sign_of_god", "target": 1} in legal_actions(state, attacker)
    value = b["troops"][0][1][1]
    signed = apply_action(state, attacker, {"type": "sign_of_god", "target": 1})
    assert strength(signed.battle, 0) == strength(b, 0) + value
    assert signed.phase == SIGN and signed.current == defender
    refused(signed, attacker, {"type": "sign_of_god", "target": 0})
    done = apply_action(signed, defender, {"type": "sign_of_god", "target": 0})
    assert done.phase != SIGN and done.hands[attacker][KIND["sign_of_god"]] == 1


def test_r20_in_a_tie_both_retreat_attacker_first_several_cards_each():
    """[ruling] R20: both sides lose in a tie; the attacker saves two cards with two Retreats,
    then the defender is asked."""
    state, (attacker, defender) = find_outcome(
        ["pikemen", "cannon", "retreat", "retreat"],
        ["pikemen", "cannon"],
        ["knights", "retreat", SPARE],
        ["knights"],
        "tie",
    )
    state = apply_action(state, attacker, PASS)
    state = apply_action(state, defender, PASS)
    assert state.phase == RETREAT and state.current == attacker
    state = apply_action(state, attacker, {"type": "retreat", "card": "pikemen"})
    assert state.current == attacker
    state = apply_action(state, attacker, {"type": "retreat", "card": "cannon"})
    assert state.phase == RETREAT and state.current == defender
    state = apply_action(state, defender, {"type": "retreat", "card": "knights"})
    assert state.phase == COMBAT
    assert state.exposed[attacker] == hand("pikemen", "cannon")
    assert state.hands[defender][KIND["knights"]] == 1


def test_r20_the_winner_is_never_asked_to_retreat():
    """[ruling] R20: a winning defender holding a Retreat is not asked; nor is a winning
    attacker."""
    state, (attacker, defender) = find_outcome(
        ["pikemen", "pikemen"],
        ["pikemen", "pikemen"],
        ["swiss", "retreat"],
        ["swiss"],
        "defender",
        fort=2,
    )
    state = apply_action(state, attacker, PASS)
    state = apply_action(state, defender, PASS)
    assert state.phase == RETREAT and state.current == attacker
    refused(state, defender, {"type": "retreat", "card": "swiss"})
    assert apply_action(state, attacker, PASS).phase == COMBAT
    state, (attacker, defender) = find_outcome(
        ["cannon", "swiss", "retreat"],
        ["cannon", "swiss"],
        ["pikemen", SPARE],
        ["pikemen"],
        "attacker",
    )
    state = apply_action(state, attacker, PASS)
    state = apply_action(state, defender, PASS)
    assert state.phase == RETREAT and state.current == defender


def test_r31_a_ride_is_the_one_attack_of_peace_from_no_city_with_walls_but_no_terrain():
    """[ruling] R31: riding on mountainous, coastal Napoli behind a rampart: 4 PC of
    fortification, no terrain or landing bonus; no other attack in peace afterwards, and none
    before either."""
    cards = ["ride", "knights", "knights", "pikemen", "pikemen", "ambassador"]
    state, (attacker, defender) = prepare(cards, ["knights"])
    state = edit(state, war=0)
    naples = state.nations.index("naples")
    napoli = city(state, "Napoli")
    state = edit(
        state,
        fort=put(state.fort, napoli, 1),
        hands=put(state.hands, naples, hand("knights")),
    )
    ride = apply_action(state, attacker, {"type": "ride", "to": "Napoli"})
    assert ride.phase == ATTACK and ride.battle["from"] == -1 and ride.used_from == ()
    ride = apply_action(ride, attacker, commit(["knights", "knights"]))
    ride = apply_action(ride, naples, commit(["knights"]))
    assert ride.battle["fort"] == 4 and ride.battle["bonus"] == 0 and ride.battle["sea"] == 0
    after = pass_all(ride)
    assert after.phase == COMBAT and after.current == attacker
    assert not {a["type"] for a in legal_actions(after, attacker)} & {"attack", "ride"}
    refused(after, attacker, ATTACK_SIENA)
    walked = apply_action(state, attacker, ATTACK_SIENA)
    walked = apply_action(walked, attacker, commit(["pikemen", "pikemen"]))
    walked = pass_all(apply_action(walked, defender, commit(["knights"])))
    assert walked.phase == COMBAT and walked.current == attacker
    refused(walked, attacker, {"type": "ride", "to": "Napoli"})
