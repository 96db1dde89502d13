"""What cards are worth near the end of a round, and hands that can never win a battle.

[rules] End of round: if one player or none has cards, that player keeps up to 2 cards and
discards the rest; every player is then dealt up to 10 cards. So cards left over when the round
ends are lost but for two, and a hand with no card that adds strength (no Mercenary, Heroine or
Courtesan) cannot win a battle however long it is kept.
"""

import pytest

import ai
from ai.search import parallel
from ai.search.bot import SearchBot
from ai.search.evaluation import Evaluator
from games.engine import apply_action, current_player, new_game, view_for
from games.engine.state import BATTLE

BIG_HAND = ["m10", "m10", "heroine", "m6", "m6", "m5"]


def play(state, *actions):
    for action in actions:
        state = apply_action(state, action)
    return state


def parma_won_by_seat_1(rival_hand):
    """Seat 0 (a 1 and six big cards) opens Parma with its 1; seat 1 answers with a 2 from
    `rival_hand`; both pass: seat 1 takes Parma."""
    state = new_game(2, seed=5, hands=[["m1", *BIG_HAND], rival_hand], first=0)
    state = play(
        state,
        {"type": "choose_region", "region": "Parma"},
        {"type": "play", "card": "m1"},
        {"type": "play", "card": "m2"},
        {"type": "pass"},
    )
    if state.phase == BATTLE:  # seat 1 still holds a card, so it is asked too
        state = play(state, {"type": "pass"})
    assert state.phase != BATTLE and state.counts == (0, 1)
    return state


def test_a_region_beats_a_big_hand_the_round_is_about_to_discard():
    """Seat 1 spends its last card to win Parma; seat 0 still holds six big cards, but with
    no rival holding any the round ends and only two of them stay."""
    state = parma_won_by_seat_1(["m2"])
    assert state.sizes == (6, 0)
    rewards = Evaluator(2, False).rewards(state)
    assert rewards[1] > rewards[0]


def test_the_same_hand_is_worth_more_while_the_round_goes_on():
    """The control: seat 1 kept one card, so the round goes on and seat 0's six cards still
    win battles."""
    ending = parma_won_by_seat_1(["m2"])
    going_on = parma_won_by_seat_1(["m2", "m1"])
    assert going_on.sizes == (6, 1)
    evaluator = Evaluator(2, False)
    assert evaluator.rewards(going_on)[0] > evaluator.rewards(ending)[0] + 0.1


def test_a_hand_that_adds_no_strength_is_worth_nothing():
    """Bishop, Surrender, Winter and Drummer spoil others' battles but win none."""
    spoilers = ["bishop", "surrender", "winter", "drummer", "spring"]
    state = new_game(2, seed=2, hands=[spoilers, ["m1"]], first=0)
    rewards = Evaluator(2, False).rewards(state)
    assert rewards[1] > rewards[0]


SIX_MERCENARIES = ["m1", "m2", "m3", "m4", "m5", "m6"]


def discard_decision(hand, rival=SIX_MERCENARIES):
    """Seat 0 wins Parma with a 10, chooses Torino, and is then asked (first: it holds the
    token) whether to discard `hand`; seat 1 holds `rival`."""
    hands = [["m10", *hand], rival]
    state = new_game(2, seed=5, hands=hands, first=0)
    state = play(
        state,
        {"type": "choose_region", "region": "Parma"},
        {"type": "play", "card": "m10"},
        {"type": "pass"},
        {"type": "pass"},
        {"type": "choose_region", "region": "Torino"},
    )
    view = view_for(state, current_player(state))
    assert view["phase"] == "discard_hand" and view["seat"] == 0
    return view


@pytest.mark.parametrize("level", ["heuristic", "medium"])
def test_a_hand_that_can_never_win_is_discarded(level):
    view = discard_decision(["bishop", "surrender", "drummer"])
    action = ai.make_bot(level, seed=3, iterations=300).choose(view)
    assert action == {"type": "discard_hand", "discard": True}


@pytest.mark.parametrize("level", ["heuristic", "medium"])
def test_a_heroine_is_kept_against_a_poor_rival(level):
    """Keeping it wins Torino from a rival with a 1 and a 2; discarding would end the round
    and deal the rival a fresh hand."""
    view = discard_decision(["heroine", "surrender", "bishop"], rival=["m1", "m2"])
    action = ai.make_bot(level, seed=3, iterations=300).choose(view)
    assert action == {"type": "discard_hand", "discard": False}


def test_the_heuristic_keeps_a_courtesan_with_a_surrender():
    """A Courtesan (strength 1) can take a battle everyone else passed; the Surrender then
    ends it."""
    view = discard_decision(["courtesan", "surrender", "bishop"])
    action = ai.make_bot("heuristic", seed=3).choose(view)
    assert action == {"type": "discard_hand", "discard": False}


def no_search(*_args, **_kwargs):
    raise AssertionError("a search ran for a decision answered at once")


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_a_search_bot_answers_the_discard_question_at_once_mercenary_or_not(level, monkeypatch):
    """[ruling] Every seat with cards is asked whether to discard. A bot holding a Mercenary has
    one answer, given at once; so the free choice is given at once too (by the rule of thumb),
    else the time a bot takes would tell the table whether its hand holds a Mercenary. "At once"
    is checked as no search at all (a wall clock on a loaded machine proves nothing)."""
    monkeypatch.setattr(SearchBot, "run", no_search)  # one process's search
    monkeypatch.setattr(parallel, "_worker_visits", no_search)  # a search spread over processes
    bot = ai.make_bot(level, seed=3, time_limit=1.0)
    for hand, legal in (
        (["bishop", "surrender", "drummer"], 2),
        (["m2", "bishop", "surrender"], 1),
    ):
        view = discard_decision(hand)
        assert len(view["legal_actions"]) == legal
        action = bot.choose(view)
        assert action == ai.make_bot("heuristic", seed=3).choose(view)
