"""The learned cut-off evaluation (ai/search/value_model.py) and its training
(ai/search/train_value.py): what it must do is foretell who wins better than the hand-built
evaluation, from positions where a battle has just ended."""

import random

import pytest

from ai.search import train_value, value_model
from ai.search.bot import SearchBot
from ai.search.value_model import FEATURES, LearnedEvaluator, position_features
from games.engine import (
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
)
from games.engine.state import clone

# Seeds neither the shipped model's training nor its held-out games used (train_value.py).
FRESH_SEED = 950_000


def test_the_shipped_model_has_weights_for_every_player_count_and_these_features():
    weights = value_model.load_weights()
    assert sorted(weights) == [2, 3, 4, 5, 6]
    assert all(len(w) == len(FEATURES) for w in weights.values())


@pytest.mark.parametrize("players", [2, 4])
def test_it_foretells_the_winners_of_fresh_games_better_than_the_hand_built_evaluation(players):
    seeds = range(FRESH_SEED + 1_000 * players, FRESH_SEED + 1_000 * players + 60)
    samples, states = train_value.samples_of(players, seeds)
    assert len(samples) > 200
    learned = train_value.log_likelihood(value_model.shipped_weights(players), samples)
    hand_built = train_value.hand_built_log_likelihood(players, states)
    uniform = train_value.log_likelihood([0.0] * len(FEATURES), samples)
    assert learned > hand_built
    assert learned > uniform + 0.1


def test_fitting_recovers_the_weights_that_made_the_outcomes():
    """Synthetic positions of three seats, outcomes drawn from known weights: the fit finds them."""
    rng = random.Random(4)
    truth = [1.5, -2.0, 0.5]
    samples = []
    for _ in range(3_000):
        features = [[rng.uniform(-1, 1) for _ in truth] for _ in range(3)]
        chances = value_model.win_chances(truth, features)
        winner = rng.choices(range(3), weights=chances)[0]
        samples.append((features, [1.0 if seat == winner else 0.0 for seat in range(3)]))
    fitted = train_value.fit(samples, l2=1.0)
    assert fitted == pytest.approx(truth, abs=0.2)


def positions_after_battles(players: int, seed: int):
    """Positions of a random game where a battle has just ended."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    found = []
    while not is_terminal(state):
        in_battle = state.phase in train_value.BATTLE_PHASES
        state = apply_action(state, rng.choice(legal_actions(state)))
        if in_battle and state.phase not in train_value.BATTLE_PHASES and not is_terminal(state):
            found.append(state)
    return state, found


@pytest.mark.parametrize("players", [2, 3, 6])
def test_rewards_are_win_chances_and_a_finished_game_pays_its_shares(players):
    evaluator = LearnedEvaluator(players, False)
    over, positions = positions_after_battles(players, seed=players)
    assert positions
    for state in positions:
        rewards = evaluator.rewards(state)
        assert len(rewards) == players
        assert sum(rewards) == pytest.approx(1.0)
        assert all(0.0 < r < 1.0 for r in rewards)
    winners = set(over.winners)
    assert evaluator.rewards(over) == [
        1 / len(winners) if seat in winners else 0.0 for seat in range(players)
    ]


def test_owning_more_regions_is_worth_more_at_every_player_count():
    for players in (2, 3, 4, 5, 6):
        _, positions = positions_after_battles(players, seed=10 + players)
        state = clone(positions[0])
        evaluator = LearnedEvaluator(players, False)
        before = evaluator.rewards(state)[0]
        owners = list(state.owners)
        free = [region for region, owner in enumerate(owners) if owner < 0]
        owners[free[0]] = 0
        state.owners = tuple(owners)
        assert evaluator.rewards(state)[0] > before, players


def test_hands_count_only_while_the_round_goes_on():
    _, positions = positions_after_battles(3, seed=7)
    going_on = next(s for s in positions if sum(1 for size in s.sizes if size) >= 2)
    total, connected = 6, 4
    features = position_features(going_on, total, connected)
    holder = next(seat for seat, size in enumerate(going_on.sizes) if size)
    assert features[holder][FEATURES.index("cards")] == going_on.sizes[holder] / 10
    ended = clone(going_on)
    ended.sizes = tuple(size if seat == holder else 0 for seat, size in enumerate(ended.sizes))
    hand_names = ("hand_worth", "cards", "mercenary_points", "heroines", "courtesans", "seasons")
    hand_features = [FEATURES.index(name) for name in hand_names]
    for seat_features in position_features(ended, total, connected):
        assert all(seat_features[j] == 0.0 for j in hand_features)


def test_a_search_with_the_learned_evaluation_plays_legal_moves():
    bot = SearchBot(3, iterations=60, value="learned", battles=2)
    state = new_game(4, seed=8)
    for _ in range(40):
        if is_terminal(state):
            break
        view = view_for(state, current_player(state))
        action = bot.choose(view)
        assert action in view["legal_actions"]
        state = apply_action(state, action)


def test_an_unknown_evaluation_is_refused():
    with pytest.raises(ValueError, match="cut-off evaluation"):
        SearchBot(1, iterations=10, value="oracle")
