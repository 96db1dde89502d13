"""The contract's promises around the rules: stacked deals are checked, views hold their keys."""

import pytest

from games.engine import DECK, Options, apply_action, new_game, view_for

from .helpers import choose, start

VIEW_KEYS = {
    "phase", "current_player", "seat", "hand", "players", "region", "condottiere", "pope",
    "owners", "deck_size", "discards", "legal_actions", "winners", "options",
}  # fmt: skip
PLAYER_KEYS = {"seat", "hand_size", "line", "passed", "strength", "regions", "known_hand"}


def test_the_deck_holds_the_110_cards_of_the_rulings():
    """Mercenaries (58): ten 1s, eight each of 2, 3, 4, 5, 6, 10. Specials (52): Winter 3,
    Spring 3, Bishop 6, Courtesan 12, Drummer 6, Heroine 3, Scarecrow 16, Surrender 3."""
    expected = {"m1": 10, "m2": 8, "m3": 8, "m4": 8, "m5": 8, "m6": 8, "m10": 8, "winter": 3,
                "spring": 3, "bishop": 6, "courtesan": 12, "drummer": 6, "heroine": 3,
                "scarecrow": 16, "surrender": 3}  # fmt: skip
    assert len(DECK) == 110
    assert {card: DECK.count(card) for card in set(DECK)} == expected


@pytest.mark.parametrize(
    "players, kwargs",
    [
        (2, {"hands": [["heroine"] * 4, []]}),
        (2, {"hands": [["m1"], ["m2"], ["m3"]]}),
        (2, {"hands": [["m1"] * 10 + ["m2"], []]}),
        (2, {"hands": [["m1"], ["m2"]], "deck": ["m1"] * 10}),
        (2, {"hands": [["joker"], []]}),
        (2, {"owners": {"Atlantis": 0}}),
        (1, {}),
        (7, {}),
    ],
)
def test_new_game_rejects_an_impossible_set_up(players, kwargs):
    """`new_game` rejects a stacked deal that is not a subset of the 110-card deck with the
    right sizes (and a bad seat count or an unknown region)."""
    with pytest.raises(ValueError):
        new_game(players, seed=1, options=Options(), **kwargs)


def test_views_hold_the_contract_keys_for_seats_and_spectators():
    state = start(3, [["m1", "m2"], ["m3"], ["m4"]], owners={"Siena": 2})
    for seat in (0, 1, 2, None):
        view = view_for(state, seat)
        assert set(view) >= VIEW_KEYS
        assert view["seat"] == seat
        assert ("own_discards" in view) == (seat is not None)
        assert (view["hand"] is None) == (seat is None)
        assert [p["seat"] for p in view["players"]] == [0, 1, 2]
        for player in view["players"]:
            assert set(player) >= PLAYER_KEYS
        assert view["owners"] == {"Siena": 2}
        assert view["players"][2]["regions"] == 1
        assert view["condottiere"] == 0
        assert view["options"] is not None
    assert view_for(state, 0)["legal_actions"]
    assert view_for(state, 1)["legal_actions"] == []
    after = view_for(apply_action(state, choose("Roma")), 1)
    assert after["region"] == "Roma" and after["phase"] == "battle"
