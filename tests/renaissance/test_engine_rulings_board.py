"""Rulings on the board and the score (docs/renaissance/rulings.md): R60 an artist's palace
scores wherever it stands, R61 terrain is a city's."""

from games.renaissance.api import apply_action
from games.renaissance.flow import renaissance_points
from games.renaissance.state import SIGN, put
from tests.renaissance.conftest import city, combat_state, edit
from tests.renaissance.test_engine_battle import commit, prepare


def test_r60_an_artists_palace_scores_outside_a_controlled_province():
    """[ruling] R60, line 327: "S'il est occupé par un artiste, il rapporte 1 PR à son
    possesseur par tour": Florence owns Firenze (palace and artist) but not Pistoia, so it
    controls no Toscana and still scores the artist's point; once it holds Pistoia too, the
    province and the artist add up (line 438, "Certaines provinces peuvent alors valoir jusqu'à
    2PR")."""
    state, florence = combat_state()
    firenze, pistoia = city(state, "Firenze"), city(state, "Pistoia")
    rome = state.nations.index("rome")
    artist = tuple(int(c == firenze) for c in range(len(state.owner)))
    split = edit(state, palace=artist, artist=artist, owner=put(state.owner, pistoia, rome))
    held = edit(split, owner=put(split.owner, pistoia, florence))
    assert renaissance_points(split)[florence] == 1
    assert renaissance_points(held)[florence] == 2


def _bonus_attacking(origin, target):
    """The defender's terrain bonus when Florence, owning `origin`, attacks Rome's `target`."""
    state, (florence, rome) = prepare(["pikemen", "pikemen"], ["knights"], target=target)
    state = edit(state, owner=put(state.owner, city(state, origin), florence))
    state = apply_action(state, florence, {"type": "attack", "from": origin, "to": target})
    state = apply_action(state, florence, commit(["pikemen", "pikemen"]))
    state = apply_action(state, rome, commit(["knights"]))
    assert state.phase == SIGN and state.battle["sea"] == 0
    return state.battle["bonus"]


def test_r61_terrain_is_the_city_attacked_not_its_province():
    """[ruling] R61, line 396: "Un joueur qui se défend dans une zone de montagne ou de marais
    reçoit un bonus de 1PC. Une ville située dans une zone de montagne ou de marais...": on the
    test board Regno di Napoli holds Napoli (mountain, line 64's own example) and Capua (plain);
    Napoli's defender gets +1, Capua's nothing."""
    state, _ = combat_state()
    geo = state.geo
    napoli, capua = city(state, "Napoli"), city(state, "Capua")
    assert geo.province_of[napoli] == geo.province_of[capua]
    assert _bonus_attacking("Capua", "Napoli") == 1
    assert _bonus_attacking("Roma", "Capua") == 0
