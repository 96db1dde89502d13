"""Rulings on yellow cards (docs/renaissance/rulings.md): R11 Marriage and attacks, R22 when
yellow cards are played, R23 Raiders' and corruption's targets, R25 poor upkeep, R32 the
artists' draw."""

from games.renaissance.api import apply_action, legal_actions
from games.renaissance.state import ATTACK, COMBAT, CORRUPT, NEGLECT, put
from tests.renaissance.conftest import (
    city,
    combat_state,
    edit,
    expansion_state,
    hand,
    refused,
)
from tests.renaissance.test_engine_battle import commit
from tests.renaissance.test_engine_yellow import roll_at, with_rng

RAIDERS = {"type": "raiders", "city": "Perugia"}


def test_r11_no_marriage_with_a_player_just_ridden_against():
    """[ruling] R11: a Ride is an attack: after riding on Roma, no Marriage with Rome; Naples
    may still be married."""
    state, florence = combat_state(cards=["ride", "knights", "knights", "marriage"], war=1)
    state = edit(state, fort=(0,) * 24)
    before = {a["city"] for a in legal_actions(state, florence) if a["type"] == "marriage"}
    assert {"Viterbo", "Siena", "Capua"} <= before
    rode = apply_action(state, florence, {"type": "ride", "to": "Roma"})
    rode = apply_action(rode, florence, commit(["knights", "knights"]))  # Rome has no card
    while rode.phase != COMBAT:
        rode = apply_action(rode, rode.current, {"type": "pass"})
    after = {a["city"] for a in legal_actions(rode, florence) if a["type"] == "marriage"}
    assert not after & {"Roma", "Viterbo", "Siena"} and "Capua" in after
    refused(rode, florence, {"type": "marriage", "city": "Viterbo"})


def test_r11_a_marriage_bars_road_landing_and_ride_attacks_on_the_spouse():
    """[ruling] R11: Genoa marries Rome (Viterbo): no landing on Rome's port Bari, no Ride on
    Rome's cities; other players stay targets."""
    cards = ["marriage", "ride", "knights", "knights"]
    state, genoa = combat_state("genoa", war=1, cards=cards)
    rome = state.nations.index("rome")
    state = edit(state, fort=(0,) * 24, owner=put(state.owner, city(state, "Bari"), rome))
    assert {"type": "attack", "from": "Genova", "to": "Bari"} in legal_actions(state, genoa)
    wed = apply_action(state, genoa, {"type": "marriage", "city": "Viterbo"})
    actions = legal_actions(wed, genoa)
    targets = {a["to"] for a in actions if a["type"] in ("attack", "ride")}
    assert not {c for c in targets if wed.owner[city(wed, c)] == rome}
    assert "Napoli" in targets and not {"Roma", "Bari"} & targets
    refused(wed, genoa, {"type": "attack", "from": "Genova", "to": "Bari"})
    refused(wed, genoa, {"type": "ride", "to": "Siena"})


def test_r22_yellow_cards_only_in_ones_own_combat_phase_between_battles():
    """[ruling] R22: not in the expansions, not during a battle, not in another player's
    combat phase."""
    cards = ["raiders", "ambassador", "knights", "knights"]
    state, florence = combat_state(cards=cards, war=1)
    assert {"raiders", "ambassador"} <= {a["type"] for a in legal_actions(state, florence)}
    battle = apply_action(state, florence, {"type": "attack", "from": "Firenze", "to": "Siena"})
    assert battle.phase == ATTACK
    refused(battle, florence, {"type": "ambassador"})
    refused(battle, florence, RAIDERS)
    expanding = expansion_state()
    expanding = edit(
        expanding,
        current=florence,
        step=expanding.order.index(florence),
        hands=put(expanding.hands, florence, hand(*cards)),
    )
    assert not {"raiders", "ambassador"} & {a["type"] for a in legal_actions(expanding, florence)}
    refused(expanding, florence, RAIDERS)
    rome = state.nations.index("rome")
    others = edit(state, current=rome, step=state.order.index(rome))
    refused(others, florence, {"type": "ambassador"})


def test_r23_a_free_city_is_pillaged_on_any_roll_for_one_ducat():
    """[ruling] R23: a free city has no fortification to beat (the pikeman keeps the combat
    phase open, R27)."""
    state, seat = combat_state(cards=["raiders", "pikemen"])
    perugia = city(state, "Perugia")
    assert state.owner[perugia] == -1
    for face in range(1, 7):
        rolled = with_rng(state, lambda s, f=face: roll_at(s, s.rng) == f)
        after = apply_action(rolled, seat, RAIDERS)
        assert after.pillaged[perugia] == 1 and after.ducats[seat] == state.ducats[seat] + 1


def test_r23_raiders_need_a_marker_and_an_unpillaged_city():
    """[ruling] R23: a pillaged city is no target; without a marker left, no Raiders."""
    state, seat = combat_state(cards=["raiders", "raiders"])
    perugia = city(state, "Perugia")
    done = edit(state, pillaged=put(state.pillaged, perugia, 1), pillages=9)
    targets = {a["city"] for a in legal_actions(done, seat) if a["type"] == "raiders"}
    assert "Perugia" not in targets and "Siena" in targets
    refused(done, seat, RAIDERS)
    none_left = edit(state, pillages=0)
    assert not [a for a in legal_actions(none_left, seat) if a["type"] == "raiders"]
    refused(none_left, seat, RAIDERS)


def test_r23_corruption_has_no_terrain_bonus_and_spares_fortresses_and_palaces():
    """[ruling] R23: mountainous Perugia (Rome's, a bare garrison) rebels on a 3; fortresses and
    palaces cannot be chosen, a pillaged city may; a free city is nobody's to corrupt."""
    state, seat = combat_state(cards=["pikemen"])
    rome = state.nations.index("rome")
    perugia, roma, viterbo = city(state, "Perugia"), city(state, "Roma"), city(state, "Viterbo")
    fort = put(put((0,) * 24, roma, 2), perugia, 0)
    state = edit(
        state,
        phase=CORRUPT,
        owner=put(state.owner, perugia, rome),
        fort=fort,
        palace=put(state.palace, viterbo, 1),
        pillaged=put(state.pillaged, city(state, "Siena"), 1),
        pillages=9,
    )
    targets = {a.get("city") for a in legal_actions(state, seat)}
    assert {"Perugia", "Siena"} <= targets and not targets & {"Roma", "Viterbo", "Padova"}
    refused(state, seat, {"type": "corrupt", "city": "Roma"})
    three = with_rng(state, lambda s: roll_at(s, s.rng) == 3)
    after = apply_action(three, seat, {"type": "corrupt", "city": "Perugia"})
    assert after.owner[perugia] == seat and after.phase == COMBAT


def test_r25_poor_upkeep_may_hit_the_players_own_walls_or_nothing():
    """[ruling] R25: any castle or rampart on the board, the player's own included, or none."""
    state, seat = combat_state(cards=["pikemen"])
    firenze, roma = city(state, "Firenze"), city(state, "Roma")
    state = edit(state, phase=NEGLECT, fort=put(put((0,) * 24, firenze, 2), roma, 1))
    assert legal_actions(state, seat) == [
        {"type": "neglect", "city": "Firenze"},
        {"type": "neglect", "city": "Roma"},
        {"type": "pass"},
    ]
    own = apply_action(state, seat, {"type": "neglect", "city": "Firenze"})
    assert own.fort[firenze] == 1 and own.castles == state.castles + 1
    kept = apply_action(state, seat, {"type": "pass"})
    assert kept.fort == state.fort and kept.phase == COMBAT


def test_r32_the_artist_is_drawn_among_the_tokens_left_with_savonarola():
    """[ruling] R32: with no artist left in the reserve, the draw is always Savonarola: the
    palace burns and goes back to the box; Savonarola goes back too."""
    state, seat = combat_state(cards=["artist_banker", "pikemen"])
    firenze = city(state, "Firenze")
    state = edit(state, palace=put(state.palace, firenze, 1), palaces=9, artists=0)
    for k in range(12):
        burnt = apply_action(edit(state, rng=k), seat, {"type": "artist", "city": "Firenze"})
        assert burnt.palace[firenze] == 0 and burnt.artist[firenze] == 0
        assert burnt.palaces == 10 and burnt.artists == 0 and burnt.phase == COMBAT
    one = edit(state, artists=1)
    outcomes = set()
    for k in range(40):
        after = apply_action(edit(one, rng=k), seat, {"type": "artist", "city": "Firenze"})
        outcomes.add((after.artist[firenze], after.palace[firenze], after.artists))
    assert outcomes == {(1, 1, 0), (0, 0, 1)}  # the last artist, or Savonarola
