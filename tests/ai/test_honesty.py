"""Bots never cheat: they see exactly what a person in their seat sees.

Two games that differ only in what seat 0 cannot see (the other hands and the order of the
deck) give seat 0 equal views, so every bot must choose the same action in both.
"""

import inspect
import random

import pytest

import ai
from games.engine import DECK, apply_action, new_game, view_for

SEAT_HAND = ["m10", "m6", "m5", "m3", "m1", "heroine", "bishop", "scarecrow", "surrender", "winter"]


def _two_deals(players: int, seed: int):
    """Two states: seat 0 holds the same hand, every hidden card lies elsewhere."""
    rest = list(DECK)
    for card in SEAT_HAND:
        rest.remove(card)
    deals = []
    for variant in range(2):
        cards = list(rest)
        random.Random(seed * 10 + variant).shuffle(cards)
        hands = [SEAT_HAND] + [cards[10 * i : 10 * i + 10] for i in range(players - 1)]
        deck = cards[10 * (players - 1) :]
        deals.append(new_game(players, seed=seed, hands=hands, deck=deck, first=0))
    return deals


def _views_through_a_battle(players: int, seed: int, steps: int = 4):
    """Pairs of equal seat-0 views: seat 0 acts (by the heuristic), every rival passes."""
    first, second = _two_deals(players, seed)
    chooser = ai.make_bot("heuristic", seed=seed)
    pairs = []
    for _ in range(steps):
        view_a, view_b = view_for(first, 0), view_for(second, 0)
        assert view_a == view_b
        if view_a["current_player"] != 0:
            break
        pairs.append((view_a, view_b))
        action = chooser.choose(view_a)
        first, second = apply_action(first, action), apply_action(second, action)
        while view_for(first, 0)["current_player"] not in (0, None):
            first = apply_action(first, {"type": "pass"})
            second = apply_action(second, {"type": "pass"})
    return pairs


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ai.LEVELS)
def test_hidden_cards_do_not_change_the_choice(level, players):
    pairs = _views_through_a_battle(players, seed=players)
    assert len(pairs) >= 2
    for view_a, view_b in pairs:
        action_a = ai.make_bot(level, seed=9, iterations=40).choose(view_a)
        action_b = ai.make_bot(level, seed=9, iterations=40).choose(view_b)
        assert action_a == action_b
        assert action_a in view_a["legal_actions"]


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_bot_is_handed_only_the_view(level):
    """A bot takes its seat's view and, optionally, the public history (spectator views)."""
    bot = ai.make_bot(level, seed=0, iterations=5)
    parameters = inspect.signature(bot.choose).parameters
    assert list(parameters) in (["view"], ["view", "history"])
    if "history" in parameters:
        assert parameters["history"].default is None
    state = _two_deals(2, seed=1)[0]
    with pytest.raises(TypeError):
        bot.choose(state)  # a full state is not a view: it cannot even be read as one


def test_the_same_view_and_seed_always_give_the_same_search_result():
    view = _views_through_a_battle(4, seed=3)[1][0]
    choices = {str(ai.make_bot("hard", seed=2, iterations=60).choose(view)) for _ in range(3)}
    assert len(choices) == 1
