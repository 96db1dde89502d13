"""Reading the table (ai/inference): determinizations weighted by the other seats' public play.

The rule: a hand model worth using gives the TRUE hands of the other seats more weight than it
gives the hands a uniform determinization of the deciding seat's view deals them, on games it
was not trained on. And the weighted search stays a bot: legal, reproducible, honest (it sees
the spectator history, which two games differing only in hidden cards share).
"""

import math
import random

import pytest

from ai import make_bot
from ai.inference import log_weight, opponent_tables, shipped_model
from ai.inference.features import FEATURE_NAMES, read_history
from ai.search.bot import SearchBot
from games.engine import DECK, apply_action, determinize, is_terminal, new_game, view_for

from .test_honesty import SEAT_HAND

HELD_OUT_SEEDS = range(70_000, 70_003)  # training uses 102,000-105,399 and 902,000-905,014
UNIFORM_DRAWS = 40


def heuristic_game(players: int, seed: int):
    """Yield (state, history) at each decision of a seeded heuristic game; history holds the
    spectator views of the game so far, the state's own last."""
    bots = [make_bot("heuristic", seed=seed * 7 + seat) for seat in range(players)]
    state = new_game(players, seed=seed, first=seed % players)
    history = [view_for(state, None)]
    while not is_terminal(state):
        yield state, history
        seat = state.current
        state = apply_action(state, bots[seat].choose(view_for(state, seat)))
        history = [*history, view_for(state, None)]


def true_and_uniform_weights(players: int, seed: int, every: int = 2):
    """Per other seat at every `every`-th decision: (w(true hand), mean w(uniform hands)),
    w the likelihood ratio the inference gives that seat's hand."""
    rng = random.Random(seed)
    model = shipped_model()
    pairs = []
    for step, (state, history) in enumerate(heuristic_game(players, seed)):
        if step % every:
            continue
        view = view_for(state, state.current)
        draws = [determinize(view, rng) for _ in range(UNIFORM_DRAWS)]
        for seat, table in opponent_tables(view, history, model):
            one = [(seat, table)]
            uniform = sum(math.exp(log_weight(draw, one)) for draw in draws) / len(draws)
            pairs.append((math.exp(log_weight(state, one)), uniform))
    return pairs


@pytest.mark.parametrize("players", [2, 4])
def test_the_true_hands_weigh_more_than_uniform_hands_on_held_out_games(players):
    pairs = [pair for seed in HELD_OUT_SEEDS for pair in true_and_uniform_weights(players, seed)]
    assert len(pairs) > 100
    normalised = [true / uniform for true, uniform in pairs]
    assert sum(normalised) / len(normalised) > 1.0
    gain = sum(math.log(ratio) for ratio in normalised) / len(normalised)
    assert gain > 0.02  # nats per hand: the true hand is likelier under the inference


def test_a_seat_that_gives_up_a_battle_empty_handed_shows_it():
    state = new_game(3, seed=5, first=0)
    history = [view_for(state, None)]
    state = apply_action(state, view_for(state, 0)["legal_actions"][0])  # the first region
    history.append(view_for(state, None))
    passer = state.current
    state = apply_action(state, {"type": "pass"})
    history.append(view_for(state, None))
    reader = read_history(history)
    assert dict(zip(FEATURE_NAMES, reader.features(passer), strict=True))["passed_empty"] == 1
    bystander = (passer + 1) % 3
    assert dict(zip(FEATURE_NAMES, reader.features(bystander), strict=True))["passed_empty"] == 0


def _two_deals(players: int, seed: int):
    rest = list(DECK)
    for card in SEAT_HAND:
        rest.remove(card)
    deals = []
    for variant in range(2):
        cards = list(rest)
        random.Random(seed * 10 + variant).shuffle(cards)
        hands = [SEAT_HAND] + [cards[10 * i : 10 * i + 10] for i in range(players - 1)]
        deals.append(new_game(players, seed=seed, hands=hands, deck=cards[10 * (players - 1) :]))
    return deals


def _decisions_with_history(players: int, seed: int, steps: int = 3):
    """Pairs of (view, history) of seat 0 in two games differing only in hidden cards: seat 0
    plays (the heuristic's way), every rival passes, so the public history is the same."""
    games = list(_two_deals(players, seed))
    histories = [[view_for(game, None)] for game in games]
    chooser = make_bot("heuristic", seed=seed)
    found = []
    for _ in range(steps):
        views = [view_for(game, 0) for game in games]
        if views[0]["current_player"] != 0:
            break
        found.append(list(zip(views, [list(h) for h in histories], strict=True)))
        action = chooser.choose(views[0])
        games = [apply_action(game, action) for game in games]
        for index, game in enumerate(games):
            histories[index].append(view_for(game, None))
            while view_for(game, 0)["current_player"] not in (0, None):
                game = apply_action(game, {"type": "pass"})
                histories[index].append(view_for(game, None))
            games[index] = game
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_the_weighted_search_is_legal_reproducible_and_honest(players):
    decisions = _decisions_with_history(players, seed=players)
    assert len(decisions) >= 2
    for (view_a, history_a), (view_b, history_b) in decisions:
        assert view_a == view_b and history_a == history_b
        assert opponent_tables(view_a, history_a, shipped_model())  # the weighting is on
        bot = SearchBot(9, iterations=60, inference=True)
        assert bot.uses_history
        action_a = bot.choose(view_a, history_a)
        assert action_a == SearchBot(9, iterations=60, inference=True).choose(view_b, history_b)
        assert action_a in view_a["legal_actions"]


def test_without_a_history_the_inference_bot_is_the_plain_search():
    view = _decisions_with_history(4, seed=3)[1][0][0]
    plain = SearchBot(4, iterations=80)
    assert not plain.uses_history
    assert SearchBot(4, iterations=80, inference=True).choose(view) == plain.choose(view)
    assert plain.choose(view) in view["legal_actions"]
