"""A hint's words (games/analysis/hint_words.py): the move said to the player in the second
person, the card or region the page marks, and a short reason from the battle lines (what the
card does to the battle), the move (what it costs) and the search's comparison (what it wins)."""

import pytest

from games.analysis.hint_words import hint_text


def battle_view(own_line, other_lines, hand=("m1", "m5", "courtesan")) -> dict:
    """A battle for Milano seen by seat 0: the lines on the table and the seat's hand."""
    players = [{"seat": 0, "line": list(own_line)}]
    players += [{"seat": seat, "line": list(line)} for seat, line in enumerate(other_lines, 1)]
    return {"seat": 0, "region": "Milano", "players": players, "hand": list(hand)}


def test_a_card_to_play_is_said_to_the_player_and_its_card_marked():
    words = hint_text(battle_view([], [[]]), {"type": "play", "card": "courtesan"}, None, None)
    assert words["advice"] == "Play the Courtesan"
    assert words["mark"] == {"card": "courtesan"}
    assert "costs your Courtesan" in words["reason"]
    assert words["text"].startswith("Play the Courtesan: ")

    mercenary = hint_text(battle_view([], [[]]), {"type": "play", "card": "m5"}, None, None)
    assert mercenary["advice"] == "Play a Mercenary 5"


def test_a_region_to_fight_for_is_named_and_marked_on_the_map():
    view = {"seat": 0, "region": None, "players": [{"line": []}, {"line": []}], "hand": ["m1"]}
    words = hint_text(view, {"type": "choose_region", "region": "Firenze"}, None, None)
    assert words["advice"] == "Send the Condottiere to Firenze"
    assert words["mark"] == {"region": "Firenze"}
    assert "starts the battle for Firenze" in words["reason"]


def test_a_pass_keeps_the_cards_and_marks_nothing():
    words = hint_text(battle_view(["m6"], [["m2"]]), {"type": "pass"}, None, None)
    assert words["advice"] == "Pass"
    assert words["mark"] == {}
    assert "keeps your cards" in words["reason"]


@pytest.mark.parametrize(
    ("card", "effect"),
    [
        ("m5", "puts you ahead in the battle for Milano"),  # 3 + 5 beats 6
        ("m3", "draws you level in the battle for Milano"),  # 3 + 3 ties 6
        ("m1", None),  # 3 + 1 still behind 6
    ],
)
def test_the_reason_says_what_a_card_does_to_the_battle(card, effect):
    view = battle_view(["m3"], [["m6"], ["m2"]])
    words = hint_text(view, {"type": "play", "card": card}, 0.4, 0.3)
    battle_effects = ("ahead in the battle", "level in the battle")
    if effect is None:
        assert not any(phrase in words["reason"] for phrase in battle_effects)
    else:
        assert effect in words["reason"]


def test_no_battle_effect_is_claimed_when_a_face_down_card_hides_a_strength():
    view = battle_view(["m3"], [["m2", "hidden"]])
    words = hint_text(view, {"type": "play", "card": "m10"}, None, None)
    assert "battle for" not in words["reason"]


def test_the_reason_compares_the_win_chances_the_search_found():
    play = {"type": "play", "card": "m5"}
    clear = hint_text(battle_view([], [[]]), play, 0.43, 0.35)
    assert "43% with it, 35% at best without" in clear["reason"]
    # Within the search's noise, the move is said to be about as good as the others.
    close = hint_text(battle_view([], [[]]), play, 0.43, 0.425)
    assert "about as good as your other moves" in close["reason"]
    assert "at best without" not in close["reason"]
