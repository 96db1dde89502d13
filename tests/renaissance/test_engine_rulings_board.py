"""Rulings on the board and the score (docs/renaissance/rulings.md): R60 an artist's palace
scores wherever it stands."""

from games.renaissance.flow import renaissance_points
from games.renaissance.state import put
from tests.renaissance.conftest import city, combat_state, edit


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
