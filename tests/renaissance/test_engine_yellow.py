"""Yellow cards, played in one's own turn (rulebook lines 236-268): Raiders, Ambassador (and its
2d6 table), Marriage, Ride, Artist or Banker (Savonarola)."""

import random

from games.renaissance.api import apply_action, legal_actions
from games.renaissance.cards import KIND
from games.renaissance.state import ATTACK, COMBAT, CORRUPT, NEGLECT, put
from tests.renaissance.conftest import city, combat_state, edit, hand


def roll_at(state, k):
    return random.Random(f"{state.seed}:{k}").randint(1, 6)


def with_rng(state, wanted):
    """The state with the random counter where wanted(state) holds."""
    for k in range(500):
        trial = edit(state, rng=k)
        if wanted(trial):
            return trial
    raise AssertionError("no such draw")


def yellow_state(cards, **kw):
    state, seat = combat_state(cards=list(cards) + ["pikemen"], **kw)
    rome = state.nations.index("rome")
    return state, seat, rome


def test_raiders_pillage_on_a_die_above_the_fortification_for_1_or_2_ducats():
    """Line 240: a free or enemy city anywhere; the die must beat the fortification (no terrain
    bonus); 1 ducat for a garrison, 2 for a rampart; a pillage marker; a fortress never.
    [ruling] R23: free and enemy cities are targets, a fortress never."""
    state, seat, rome = yellow_state(["raiders"])
    siena = city(state, "Siena")
    state = edit(state, fort=put(state.fort, siena, 1))
    targets = {a["city"] for a in legal_actions(state, seat) if a["type"] == "raiders"}
    assert "Siena" in targets and "Firenze" not in targets and "Perugia" in targets
    win = with_rng(state, lambda s: roll_at(s, s.rng) > 4)
    after = apply_action(win, seat, {"type": "raiders", "city": "Siena"})
    assert after.ducats[seat] == win.ducats[seat] + 2 and after.pillaged[siena] == 1
    assert after.pillages == 9 and KIND["raiders"] in after.discards
    lose = with_rng(state, lambda s: roll_at(s, s.rng) <= 4)
    after = apply_action(lose, seat, {"type": "raiders", "city": "Siena"})
    assert after.ducats[seat] == lose.ducats[seat] and not after.pillaged[siena]
    fortress = edit(state, fort=put(state.fort, siena, 2))
    assert "Siena" not in {a.get("city") for a in legal_actions(fortress, seat)}


def test_ambassador_table_2_to_6_corruption_7_8_neglect_9_to_12_two_cards():
    """Lines 244-248: 2d6: 2-6 corruption, 7-8 poor upkeep, 9-12 two free cards."""
    state, seat, rome = yellow_state(["ambassador"])

    def total(s):
        return roll_at(s, s.rng) + roll_at(s, s.rng + 1)

    low = apply_action(with_rng(state, lambda s: total(s) <= 6), seat, {"type": "ambassador"})
    assert low.phase == CORRUPT
    mid = apply_action(with_rng(state, lambda s: 7 <= total(s) <= 8), seat, {"type": "ambassador"})
    assert mid.phase == NEGLECT
    high = with_rng(state, lambda s: total(s) >= 9)
    after = apply_action(high, seat, {"type": "ambassador"})
    assert after.phase == COMBAT and sum(after.hands[seat]) == sum(high.hands[seat]) - 1 + 2


def test_corruption_takes_an_enemy_city_without_palace_on_a_die_above_its_fortification():
    """Line 246: an opponent's city without palace rebels on a die strictly above its
    fortification level; a fortress never does."""
    state, seat, rome = yellow_state(["ambassador"])
    state = edit(state, phase=CORRUPT, hands=put(state.hands, seat, hand("pikemen")))
    roma = city(state, "Roma")
    palace = edit(state, palace=put(state.palace, roma, 1))
    assert "Roma" not in {a.get("city") for a in legal_actions(palace, seat)}
    win = with_rng(state, lambda s: roll_at(s, s.rng) > 2)
    after = apply_action(win, seat, {"type": "corrupt", "city": "Roma"})
    assert after.owner[roma] == seat and after.phase == COMBAT
    lose = with_rng(state, lambda s: roll_at(s, s.rng) <= 2)
    assert apply_action(lose, seat, {"type": "corrupt", "city": "Roma"}).owner[roma] == rome


def test_neglect_turns_a_fortress_into_a_rampart_or_a_rampart_into_a_garrison():
    """Line 247: the player may destroy a castle or a rampart of its choice.
    [ruling] R25: any player's walls, or none."""
    state, seat, rome = yellow_state([])
    roma, milano = city(state, "Roma"), city(state, "Milano")
    fort = put(put(state.fort, roma, 2), milano, 1)
    state = edit(state, phase=NEGLECT, fort=fort, castles=9, ramparts=state.ramparts - 1)
    assert {a.get("city") for a in legal_actions(state, seat)} >= {"Roma", "Milano", None}
    after = apply_action(state, seat, {"type": "neglect", "city": "Roma"})
    assert after.fort[roma] == 1 and after.castles == 10
    after = apply_action(state, seat, {"type": "neglect", "city": "Milano"})
    assert after.fort[milano] == 0 and after.ramparts == state.ramparts + 1


def test_marriage_buys_a_bare_garrison_for_two_ducats_and_forbids_attacking_the_spouse():
    """Line 252: 2 ducats for a city with only a garrison; not with a player attacked this
    turn; no attack on the spouse afterwards ([ruling] R24: the ducats go to the spouse).
    [ruling] R11: not with a player attacked this turn; no attack on the spouse."""
    state, seat, rome = yellow_state(["marriage", "pikemen"], war=1)
    viterbo = city(state, "Viterbo")
    state = edit(state, fort=put(state.fort, city(state, "Roma"), 1))
    targets = {a["city"] for a in legal_actions(state, seat) if a["type"] == "marriage"}
    assert "Viterbo" in targets and "Roma" not in targets
    after = apply_action(state, seat, {"type": "marriage", "city": "Viterbo"})
    assert after.owner[viterbo] == seat
    assert after.ducats[seat] == state.ducats[seat] - 2
    assert after.ducats[rome] == state.ducats[rome] + 2
    attacks = [a for a in legal_actions(after, seat) if a["type"] == "attack"]
    assert all(after.owner[city(after, a["to"])] != rome for a in attacks)
    attacked = edit(state, attacked=1 << rome)
    assert not [
        a
        for a in legal_actions(attacked, seat)
        if a["type"] == "marriage" and a["city"] in ("Viterbo", "Siena")
    ]


def test_ride_attacks_any_enemy_city_without_terrain_bonus():
    """Line 258: any enemy city, whatever the distance, without terrain penalty."""
    state, seat, rome = yellow_state(["ride", "pikemen"])
    naples = state.nations.index("naples")
    rides = {a["to"] for a in legal_actions(state, seat) if a["type"] == "ride"}
    assert "Napoli" in rides and "Firenze" not in rides
    after = apply_action(state, seat, {"type": "ride", "to": "Napoli"})
    assert after.phase == ATTACK and after.battle["ride"] == 1 and after.battle["d"] == naples
    after = apply_action(
        after, seat, {"type": "commit", "blue": ["pikemen", "pikemen"], "red": None}
    )
    assert after.battle is None or after.battle["bonus"] == 0


def test_artist_needs_a_palace_without_artist_and_savonarola_burns_it():
    """Lines 262-264: an artist token from 12 (one is Savonarola, who burns the palace and
    goes back).
    [ruling] R32: Savonarola burns the palace (back to the box) and goes back."""
    state, seat, rome = yellow_state(["artist_banker"])
    assert not [a for a in legal_actions(state, seat) if a["type"] in ("artist", "banker")]
    firenze = city(state, "Firenze")
    state = edit(state, palace=put(state.palace, firenze, 1), palaces=9)
    assert {"type": "artist", "city": "Firenze"} in legal_actions(state, seat)
    artist = with_rng(state, lambda s: random.Random(f"{s.seed}:{s.rng}").randrange(12) != 11)
    after = apply_action(artist, seat, {"type": "artist", "city": "Firenze"})
    assert after.artist[firenze] == 1 and after.artists == 10
    burn = with_rng(state, lambda s: random.Random(f"{s.seed}:{s.rng}").randrange(12) == 11)
    after = apply_action(burn, seat, {"type": "artist", "city": "Firenze"})
    assert after.palace[firenze] == 0 and after.palaces == 10 and after.artists == 11


def test_banker_gives_five_ducats_once_per_palace_per_turn():
    """Line 266: 5 ducats; one banker per palace per turn (with or without an artist)."""
    state, seat, rome = yellow_state(["artist_banker", "artist_banker"])
    firenze = city(state, "Firenze")
    state = edit(state, palace=put(state.palace, firenze, 1), artist=put(state.artist, firenze, 1))
    after = apply_action(state, seat, {"type": "banker", "city": "Firenze"})
    assert after.ducats[seat] == state.ducats[seat] + 5
    assert {"type": "banker", "city": "Firenze"} not in legal_actions(after, seat)
