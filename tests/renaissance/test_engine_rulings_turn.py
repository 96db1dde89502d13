"""Rulings on the components, the set-up and the turn (docs/renaissance/rulings.md): R1 the deck
and R2 the die against the rulings' own text, R6 the draw pile, R7 the extra garrison, R9 and
R10 expansions and landings, R12 what an attack needs, R26 returns, R27 automatic steps, R29 the
vote, R30 purchases, R54 Venice's ducats."""

import re
from pathlib import Path

from games.renaissance.api import apply_action, legal_actions, view_for
from games.renaissance.cards import BLUE, CONDOTTIERE_DIE, COPIES, DECK, KIND, VALUE, YELLOW
from games.renaissance.state import (
    COMBAT,
    EXPANSION,
    PURCHASE,
    RETURN,
    SETUP_GARRISON,
    SIGN,
    VOTE,
    put,
)
from tests.renaissance.conftest import (
    city,
    combat_state,
    edit,
    expansion_state,
    game,
    hand,
    refused,
    through_setup,
    until,
)
from tests.renaissance.test_engine_battle import commit, prepare
from tests.renaissance.test_engine_powers import powered
from tests.renaissance.test_engine_turn import purchase_state
from tests.renaissance.test_engine_yellow import roll_at, with_rng

RULINGS = Path(__file__).resolve().parents[2] / "docs" / "renaissance" / "rulings.md"
PASS = {"type": "pass"}
END = {"type": "end_turn"}

# The rulings' table names each card by its French name (first word) and colour.
TABLE_NAMES = {
    "piquiers": "pikemen",
    "arquebusiers": "arquebusiers",
    "chevaliers": "knights",
    "canon": "cannon",
    "suisses": "swiss",
    "condottiere": "condottiere",
    "ingénieur": "engineer",
    "félon": "traitor",
    "signe": "sign_of_god",
    "retraite": "retreat",
    "pillards": "raiders",
    "ambassadeur": "ambassador",
    "mariage": "marriage",
    "chevauchée": "ride",
    "artiste": "artist_banker",
}


def deck_table():
    """{card name: (colour, PC column, copies)} from R1's table in rulings.md."""
    rows = {}
    for line in RULINGS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in ("blue", "red", "yellow") and cells[3].isdigit():
            name = TABLE_NAMES[cells[1].split()[0].lower()]
            rows[name] = (cells[0], cells[2], int(cells[3]))
    return rows


def test_r1_the_deck_has_the_rulings_tables_counts_colours_and_values():
    """[ruling] R1: 80 cards, each kind's copies, colour and PC as rulings.md's table prints
    them; every new turn deals from exactly that deck."""
    table = deck_table()
    assert len(table) == 15 and sum(copies for _, _, copies in table.values()) == 80
    for name, (colour, pc, copies) in table.items():
        kind = KIND[name]
        assert COPIES[kind] == copies and DECK.count(kind) == copies, name
        assert (colour == "blue") == (kind in BLUE), name
        assert (colour == "yellow") == (kind in YELLOW), name
        if colour == "blue":
            assert int(pc) == VALUE[kind], name
    dealt = through_setup(game(6, 8))
    counts = [0] * len(COPIES)
    for seat_hand in dealt.hands:
        counts = [c + h for c, h in zip(counts, seat_hand, strict=True)]
    for kind in dealt.deck:
        counts[kind] += 1
    assert counts == list(COPIES)


def test_r2_the_condottiere_die_has_the_faces_the_ruling_prints():
    """[ruling] R2: rout, treason, 4, 5, 5, 6 (rulings.md's text and the engine's die)."""
    text = RULINGS.read_text(encoding="utf-8")
    faces = re.search(r"\*\*R2\. The Condottiere die\*\*[^:]*: ([^.]*)\.", text).group(1)
    assert [face.strip() for face in faces.split(",")] == [str(f) for f in CONDOTTIERE_DIE]


def test_r6_an_empty_draw_pile_takes_the_discards_and_each_turn_deals_all_80_anew():
    """[ruling] R6: bought cards come from the discards once the deck is empty; a draw is
    limited by deck and discards only; a new turn starts from all 80 cards."""
    state, seat = purchase_state(20)
    state = edit(
        state,
        hands=put(state.hands, seat, hand()),
        deck=(KIND["cannon"],),
        discards=(KIND["pikemen"], KIND["pikemen"]),
    )
    counts = [a["count"] for a in legal_actions(state, seat) if a["type"] == "buy_cards"]
    assert max(counts) == 3  # deck and discards hold three cards
    refused(state, seat, {"type": "buy_cards", "count": 4})
    after = apply_action(state, seat, {"type": "buy_cards", "count": 3})
    assert after.hands[seat] == hand("cannon", "pikemen", "pikemen")
    assert after.deck == () and after.discards == ()
    second = until(state, lambda s: s.turn == 2 and s.phase == PURCHASE)
    in_hands = sum(sum(h) for h in second.hands)
    assert second.discards == () and in_hands + len(second.deck) == 80


def test_r7_the_extra_garrison_is_optional_next_to_a_start_or_in_a_free_accessible_port():
    """[ruling] R7: one road from a starting city, or for a port owner any free port (not a
    mere coastal city), never in a closed province; "pass" is always offered. Five players:
    Genoa's cities are free, Savoy and the Empire closed."""
    state = until(game(5), lambda s: s.phase == SETUP_GARRISON)
    offered = {}

    def record_and_pass(s, seat, actions):
        offered[s.nations[seat]] = {a.get("city") for a in actions}
        return PASS

    until(state, lambda s: s.phase != SETUP_GARRISON, record_and_pass)
    venice = state.nations.index("venice")
    at_venice = until(state, lambda s: s.current == venice, lambda s, seat, actions: PASS)
    for name in ("Nizza", "Savona", "Trento"):
        refused(at_venice, venice, {"type": "garrison", "city": name})
    assert offered == {
        "milan": {"Brescia", "Genova", "Bologna", None},  # Trento is in the closed Empire
        "florence": {"Bologna", "Siena", "Perugia", None},
        "venice": {"Padova", "Genova", "Ajaccio", "Bari", None},  # no Nizza (Savoy), no Savona
        "naples": {"Bari", "Genova", "Ajaccio", None},
        "rome": {"Perugia", "L'Aquila", "Siena", None},  # Roma is coastal, not a port
    }


def _expanding(nation):
    state = expansion_state()
    seat = state.nations.index(nation)
    return edit(state, current=seat, step=state.order.index(seat)), seat


def _others_pass(seat):
    return lambda s, acting, actions: actions[0] if acting == seat else PASS


def test_r9_the_first_expansions_city_is_a_base_for_the_second_not_its_origin():
    """[ruling] R9: "adjacent" means by road to one of the player's cities at that moment; the
    two expansions start from different cities."""
    state, florence = _expanding("florence")
    moves = {(a["from"], a["to"]) for a in legal_actions(state, florence) if a["type"] == "expand"}
    assert moves == {("Firenze", "Bologna"), ("Firenze", "Siena"), ("Firenze", "Perugia")}
    state = apply_action(state, florence, {"type": "expand", "from": "Firenze", "to": "Bologna"})
    state = until(
        state, lambda s: s.current == florence or s.phase != EXPANSION, _others_pass(florence)
    )
    second = {(a["from"], a["to"]) for a in legal_actions(state, florence) if a["type"] == "expand"}
    assert second == {("Bologna", "Padova")}
    refused(state, florence, {"type": "expand", "from": "Firenze", "to": "Siena"})


def test_r9_a_sea_expansion_also_needs_a_new_origin():
    """[ruling] R9 with R8: Genoa's second sea expansion comes from its other port."""
    state, genoa = _expanding("genoa")
    state = apply_action(state, genoa, {"type": "expand", "from": "Genova", "to": "Bari"})
    state = until(state, lambda s: s.current == genoa or s.phase != EXPANSION, _others_pass(genoa))
    second = {(a["from"], a["to"]) for a in legal_actions(state, genoa) if a["type"] == "expand"}
    assert "Genova" not in {origin for origin, _ in second}
    assert ("Ajaccio", "Nizza") in second and ("Bari", "L'Aquila") in second
    refused(state, genoa, {"type": "expand", "from": "Genova", "to": "Nizza"})


def test_r9_an_expansion_may_be_declined_and_a_seat_without_garrisons_is_skipped():
    """[ruling] R9: "pass" is legal; a seat with no garrison in reserve is never asked."""
    state, florence = _expanding("florence")
    passed = apply_action(state, florence, PASS)
    assert passed.owner == state.owner and passed.current != florence
    start = expansion_state()
    skipped = start.order[1]
    start = edit(start, reserve=put(start.reserve, skipped, 0))
    asked = []

    def note(s, seat, actions):
        asked.append(seat)
        return PASS

    until(start, lambda s: s.phase != EXPANSION, note)
    assert sorted(asked) == sorted(list(set(range(6)) - {skipped}) * 2)


def test_r10_a_port_lands_on_enemy_port_cities_a_road_neighbour_is_attacked_by_road():
    """[ruling] R10, line 373: "Une ville côtière qui possède un port peut tenter d'attaquer par
    débarquement n'importe quelle autre ville portuaire": a landing attack goes from a port the
    attacker owns to an enemy port city (+1 to the defender), never to a coastal city without a
    port (Roma on the test board), though a sea expansion may land there (line 66, R8); Savona,
    one road from Genova, is attacked by road with no landing bonus."""
    state, (genoa, rome) = prepare(["pikemen", "pikemen"], ["knights"], "Savona", nation="genoa")
    bari = city(state, "Bari")
    state = edit(state, owner=put(state.owner, bari, rome))
    attacks = {(a["from"], a["to"]) for a in legal_actions(state, genoa) if a["type"] == "attack"}
    assert {("Genova", "Savona"), ("Genova", "Bari"), ("Ajaccio", "Bari")} <= attacks
    assert not {target for _, target in attacks} & {"Viterbo", "Siena"}  # inland
    assert not {target for _, target in attacks} & {"Roma"}  # coastal, no port
    refused(state, genoa, {"type": "attack", "from": "Genova", "to": "Viterbo"})
    refused(state, genoa, {"type": "attack", "from": "Genova", "to": "Roma"})
    road = apply_action(state, genoa, {"type": "attack", "from": "Genova", "to": "Savona"})
    road = apply_action(road, genoa, commit(["pikemen", "pikemen"]))
    road = apply_action(road, rome, commit(["knights"]))
    assert road.battle["sea"] == 0 and road.battle["bonus"] == 0


def test_r10_a_sea_expansion_still_lands_on_any_free_coastal_city():
    """[ruling] R10 with R8, line 66: "De telles villes permettent de débarquer dans n'importe
    quelle autre ville côtière": the port-only target is the landing attack's (line 373); a
    sea expansion reaches a free coastal city without a port."""
    state = expansion_state()
    seat = state.nations.index("genoa")
    roma = city(state, "Roma")
    state = edit(state, owner=put(state.owner, roma, -1), current=seat)
    targets = {a["to"] for a in legal_actions(state, seat) if a["type"] == "expand"}
    assert "Roma" in targets


def test_r12_an_attack_needs_a_garrison_in_reserve_and_a_payable_commitment():
    """[ruling] R12: no garrison to occupy the city, no attack (nor Ride)."""
    cards = ["knights", "knights", "ride"]
    state, seat = combat_state(cards=cards, war=1)
    last = edit(state, reserve=put(state.reserve, seat, 1))
    types = {a["type"] for a in legal_actions(last, seat)}
    assert {"attack", "ride"} <= types
    none = edit(state, reserve=put(state.reserve, seat, 0))
    assert {a["type"] for a in legal_actions(none, seat)} == {"end_turn"}
    refused(none, seat, {"type": "attack", "from": "Firenze", "to": "Siena"})
    refused(none, seat, {"type": "ride", "to": "Roma"})
    poor, seat = combat_state(cards=["knights", "condottiere"], war=1, ducats=0)
    refused(poor, seat, {"type": "attack", "from": "Firenze", "to": "Siena"})


def test_r26_players_off_the_board_return_in_turn_order_on_a_start_held_by_another():
    """[ruling] R26: at the next turn's start, before the vote, in turn order; the holder's
    garrison goes back to its reserve, the rampart and palace stay; 6 ducats."""
    state, florence = combat_state()
    rome, naples = state.nations.index("rome"), state.nations.index("naples")
    milan = state.nations.index("milan")
    taken = {rome: florence, naples: milan}
    owner = tuple(taken.get(o, o) for o in state.owner)
    roma = city(state, "Roma")
    state = edit(
        state,
        owner=owner,
        reserve=tuple(21 - owner.count(s) for s in range(6)),
        fort=put((0,) * 24, roma, 1),
        palace=put((0,) * 24, roma, 1),
        palaces=9,
    )
    # Florence ends its combat phase; the later seats have empty hands (R27): turn 2 begins.
    turn2 = apply_action(state, florence, END)
    first, second = sorted((rome, naples), key=state.order.index)
    assert turn2.turn == 2 and turn2.phase == RETURN and turn2.current == first
    returns = {rome: "Roma", naples: "Capua"}
    refused(turn2, first, {"type": "return", "city": "Siena"})  # not a starting city
    back = apply_action(turn2, first, {"type": "return", "city": returns[first]})
    assert back.phase == RETURN and back.current == second
    back = apply_action(back, second, {"type": "return", "city": returns[second]})
    assert back.phase == VOTE
    assert back.owner[roma] == rome and back.fort[roma] == 1 and back.palace[roma] == 1
    assert back.owner[city(back, "Capua")] == naples
    assert back.reserve[florence] == turn2.reserve[florence] + 1
    assert back.reserve[milan] == turn2.reserve[milan] + 1
    for seat in (rome, naples):
        assert back.ducats[seat] == turn2.ducats[seat] + 6


def _first_in_order(cards_by_offset):
    """Combat, the first seat in turn order to act; the seats after it get the given hands."""
    state, _ = combat_state()
    order = state.order
    hands = [hand() for _ in range(6)]
    for offset, cards in cards_by_offset.items():
        hands[order[offset]] = hand(*cards)
    return edit(state, current=order[0], step=0, hands=tuple(hands)), order


def test_r27_a_combat_phase_with_an_empty_hand_ends_at_once_a_seat_with_cards_is_asked():
    """[ruling] R27: the second seat holds one pikeman (only "end_turn" is legal) and is still
    asked; the empty-handed seats after it are skipped, and the turn ends."""
    state, order = _first_in_order({0: ["pikemen"], 1: ["pikemen"]})
    state = apply_action(state, order[0], END)
    assert state.phase == COMBAT and state.current == order[1]
    assert legal_actions(state, order[1]) == [END]
    state = apply_action(state, order[1], END)
    assert state.turn == 2 and state.phase != COMBAT


def test_r27_public_lone_choices_are_taken_hidden_ones_are_asked():
    """[ruling] R27: an Ambassador's corruption with no possible target is lost at once (a
    public fact); a Sign of God question is asked even when only "pass" is legal."""
    state, seat = combat_state(cards=["ambassador", "pikemen"])
    everywhere = tuple(int(o >= 0 and o != seat) for o in state.owner)
    state = edit(state, palace=everywhere, palaces=0)
    low = with_rng(state, lambda s: roll_at(s, s.rng) + roll_at(s, s.rng + 1) <= 6)
    after = apply_action(low, seat, {"type": "ambassador"})
    assert after.phase == COMBAT and after.current == seat  # no corruption question
    assert after.owner == low.owner and after.hands[seat] == hand("pikemen")
    battle, (attacker, _) = prepare(["pikemen", "pikemen"], ["knights"])
    battle = apply_action(battle, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    battle = apply_action(battle, attacker, commit(["pikemen", "pikemen"]))
    battle = apply_action(battle, battle.current, commit(["knights"]))
    assert battle.phase == SIGN and battle.current == attacker
    assert legal_actions(battle, attacker) == [PASS]


def _at_vote(players):
    return until(through_setup(game(players, 2)), lambda s: s.phase == VOTE)


def test_r29_the_vote_counts_seats_and_reveals_all_votes_at_the_last_one():
    """[ruling] R29: war if war votes x 2 >= players (five players: 3 war, 2 peace; four: 2
    war, 1 peace); the view shows who voted, never how, until the last vote reveals them
    all."""
    state = _at_vote(5)

    def vote(state, wars):
        for seat in range(state.n):
            state = apply_action(state, seat, {"type": "vote", "war": seat < wars})
        return state

    assert vote(state, 3).war == 1 and vote(state, 2).war == 0
    even = _at_vote(4)
    assert vote(even, 2).war == 1 and vote(even, 1).war == 0  # half is enough
    war = apply_action(state, 0, {"type": "vote", "war": True})
    refused(war, 0, {"type": "vote", "war": False})  # one vote per seat
    peace = apply_action(state, 0, {"type": "vote", "war": False})
    seen = view_for(war, 1)
    assert seen["public"]["voted"] == [True, False, False, False, False]
    assert seen == view_for(peace, 1) and seen["public"]["last_votes"] == []
    last = vote(state, 3)
    assert last.last_votes == (1, 1, 1, 0, 0)
    assert view_for(last, 4)["public"]["last_votes"] == [1, 1, 1, 0, 0]


def test_r30_buildings_only_on_own_cities_a_fortress_takes_a_rampart_and_a_castle():
    """[ruling] R30: a fortress straight on a garrison uses a rampart and a castle from the
    box; none without a castle left; never on another player's city."""
    state, seat = purchase_state(20)
    own = next(c for c in range(24) if state.owner[c] == seat and state.fort[c] == 0)
    other = next(c for c in range(24) if state.owner[c] not in (seat, -1))
    name = state.geo.cities[own]
    fortress = {"type": "build", "piece": "fortress", "city": name}
    after = apply_action(state, seat, fortress)
    assert (after.ramparts, after.castles) == (state.ramparts - 1, state.castles - 1)
    no_castle = edit(state, castles=0)
    assert fortress not in legal_actions(no_castle, seat)
    assert {"type": "build", "piece": "rampart", "city": name} in legal_actions(no_castle, seat)
    refused(no_castle, seat, fortress)
    for piece in ("palace", "rampart", "fortress"):
        refused(state, seat, {"type": "build", "piece": piece, "city": state.geo.cities[other]})


def test_r30_cards_are_bought_once_a_turn_within_twelve_and_what_the_piles_hold():
    """[ruling] R30: one buy_cards a turn; at most 12 in hand; no more than deck + discards."""
    state, seat = purchase_state(40, cards=["pikemen"] * 10)
    assert [a["count"] for a in legal_actions(state, seat) if a["type"] == "buy_cards"] == [1, 2]
    refused(state, seat, {"type": "buy_cards", "count": 3})
    once = apply_action(state, seat, {"type": "buy_cards", "count": 1})
    refused(once, seat, {"type": "buy_cards", "count": 1})
    scarce = edit(purchase_state(40)[0], deck=(KIND["swiss"],), discards=())
    counts = [a["count"] for a in legal_actions(scarce, seat) if a["type"] == "buy_cards"]
    assert counts == [1]


def test_r54_venice_receives_its_two_ducats_with_its_income_even_off_the_board():
    """[ruling] R54: sequence 6 pays Venice 2 ducats besides its cities' income, and 2 when it
    holds no city."""
    state, florence = combat_state()
    state = powered(state)
    venice = state.nations.index("venice")
    income = sum(1 + state.fort[c] for c, o in enumerate(state.owner) if o == venice)
    paid = apply_action(state, florence, END)  # later seats' empty combat phases end (R27)
    assert paid.turn == 2 and paid.ducats[venice] == state.ducats[venice] + income + 2
    owner = tuple(florence if o == venice else o for o in state.owner)
    gone = edit(state, owner=owner, reserve=tuple(21 - owner.count(s) for s in range(6)))
    paid = apply_action(gone, florence, END)
    assert paid.phase == RETURN and paid.ducats[venice] == state.ducats[venice] + 2
