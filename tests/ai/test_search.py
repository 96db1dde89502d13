"""The search's parts: the choice rule, the cut-off rewards, and a decision not to miss."""

import random
from collections import Counter

import pytest

import ai
from ai.search import parallel
from ai.search.bot import SearchBot
from ai.search.evaluation import Evaluator
from ai.search.opponents import OPPONENT_MODELS, opponent_model
from ai.search.tree import Node, Search, overrule_advice, pick_move
from ai.stability import searched_positions
from games.engine import (
    PASS,
    action_to_move,
    apply_action,
    determinize,
    line_strengths,
    new_game,
    view_for,
)
from games.engine.fast import apply_move, legal_moves
from games.engine.state import BATTLE, FINAL_BATTLE, OVER


def test_the_best_mean_wins_among_well_explored_moves():
    stats = {1: (100, 40.0), 2: (60, 30.0), 3: (5, 5.0)}  # move 3: mean 1.0 but barely tried
    assert pick_move(stats) == 2


def test_the_heuristic_advice_wins_near_ties_only():
    stats = {1: (100, 52.0), 2: (100, 50.0)}
    assert pick_move(stats, advice=2, trust=0.03) == 2
    assert pick_move(stats, advice=2, trust=0.01) == 1


def root_move(rewards) -> Node:
    node = Node(0)
    node.visits = len(rewards)
    node.reward = sum(rewards)
    node.squares = sum(r * r for r in rewards)
    return node


def test_the_advice_stands_against_a_better_mean_within_the_noise():
    """50 rewards of spread 0.5 each: a mean 0.06 higher is about one standard error."""
    children = {1: root_move([0.2, 0.8] * 25), 2: root_move([0.26, 0.86] * 25)}
    assert overrule_advice(children, advice=1, confidence=1.5) == 1


def test_a_clearly_better_move_overrules_the_advice():
    children = {
        1: root_move([0.2, 0.8] * 25),
        2: root_move([0.5, 0.9] * 25),
        3: root_move([0.45, 0.85] * 25),
    }
    assert overrule_advice(children, advice=1, confidence=1.5) == 2


def test_cut_off_rewards_are_shares_that_add_up_to_one():
    state = new_game(4, seed=3)
    while state.phase != BATTLE or len(legal_moves(state)) < 3:  # into the first battle
        state = apply_move(state, legal_moves(state)[-1])
    rewards = Evaluator(4, False).rewards(state)
    assert sum(rewards) == pytest.approx(1.0)
    assert all(0 < r < 1 for r in rewards)


def test_more_regions_are_worth_more():
    state = new_game(3, seed=1, owners={"Torino": 0, "Milano": 0, "Napoli": 1})
    rewards = Evaluator(3, False).rewards(state)
    assert rewards[0] > rewards[1] > rewards[2]


def _surrender_wins_the_game():
    """Seat 0 holds Torino, Milano, Genova (3 connected; 4 win heads-up), fights for Parma
    (bordering Genova and Milano), leads 10 to 5 and holds a Surrender."""
    hands = [["m10", "surrender", "m1", "m2"], ["m5", "m6", "m6", "heroine", "heroine", "m10"]]
    owners = {"Torino": 0, "Milano": 0, "Genova": 0}
    state = new_game(2, seed=5, hands=hands, owners=owners, first=0)
    for action in (
        {"type": "choose_region", "region": "Parma"},
        {"type": "play", "card": "m10"},
        {"type": "play", "card": "m5"},
    ):
        state = apply_action(state, action)
    return view_for(state, 0)


@pytest.mark.parametrize("level", ["heuristic", "medium", "hard"])
def test_a_winning_surrender_is_played(level):
    view = _surrender_wins_the_game()
    assert {"type": "play", "card": "surrender"} in view["legal_actions"]
    assert ai.make_bot(level, seed=1, iterations=200).choose(view) == {
        "type": "play",
        "card": "surrender",
    }


def test_the_search_alone_finds_the_winning_surrender(monkeypatch):
    monkeypatch.setattr("ai.search.bot.HEURISTIC_TRUST", 0.0)
    view = _surrender_wins_the_game()
    assert ai.make_bot("medium", seed=2, iterations=300).choose(view) == {
        "type": "play",
        "card": "surrender",
    }


def test_a_time_limit_alone_keeps_each_level_its_iteration_cap():
    medium, hard = (ai.make_bot(level, time_limit=1.5) for level in ("medium", "hard"))
    assert medium.time_limit == hard.time_limit == 1.5
    assert medium.iterations < hard.iterations


def test_an_iteration_budget_alone_has_no_clock():
    bot = ai.make_bot("hard", iterations=100)
    assert (bot.iterations, bot.time_limit) == (100, None)


class RecordingEvaluator(Evaluator):
    """An evaluator that keeps every position it is asked to score."""

    def __init__(self, players):
        super().__init__(players, False)
        self.scored = []

    def rewards(self, state):
        self.scored.append(state)
        return super().rewards(state)


@pytest.mark.parametrize("battles", [1, 2, 3])
def test_each_iteration_looks_as_many_battles_ahead_as_asked(battles):
    """An iteration evaluates after `battles` battles have ended (or the game): never in the
    middle of a battle, never more battles on, and often exactly that many (a battle with a
    winner places one control marker; a tie places none)."""
    state = new_game(4, seed=3)
    while state.phase != BATTLE or len(legal_moves(state)) < 3:  # into the first battle
        state = apply_move(state, legal_moves(state)[-1])
    markers_at_root = sum(owner >= 0 for owner in state.owners)
    evaluator = RecordingEvaluator(4)
    search = Search(evaluator, random.Random(1), battles=battles)
    for _ in range(200):
        search.iterate(state)
    placed = Counter(
        sum(owner >= 0 for owner in scored.owners) - markers_at_root for scored in evaluator.scored
    )
    assert all(scored.phase not in (BATTLE, FINAL_BATTLE) for scored in evaluator.scored)
    assert max(placed) == battles
    assert placed[battles] > len(evaluator.scored) / 2


def _pass_leaves_the_rival_leading_alone():
    """A heads-up battle where the seat to move trails a rival who is still in it and holds
    cards: if it passes, the rival leads with nobody left to answer."""
    for seed in range(200):
        state = new_game(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.phase == BATTLE:
                me, rival = state.current, 1 - state.current
                strengths = line_strengths(state.lines)
                rival_in = not state.passed >> rival & 1 and state.sizes[rival]
                if rival_in and strengths[rival] > strengths[me] and PASS in legal_moves(state):
                    return state
            if state.phase == OVER:
                break
            state = apply_move(state, rng.choice(legal_moves(state)))
    raise AssertionError("no such position in 200 random games")


@pytest.mark.parametrize("model", ["searched", "playout"])
def test_modelled_opponents_choose_on_their_own_hand(model):
    """With the playout model, the other seats choose in the tree by the playout policy on their
    determinized hand, which passes when it leads and nobody can answer, where the plain tree
    ("searched") tries the rival's other moves too (its node merges every hand the rival might
    hold)."""
    state = _pass_leaves_the_rival_leading_alone()
    search = Search(Evaluator(2, False), random.Random(2), opponents=opponent_model(model))
    for _ in range(300):
        search.iterate(state)
    rival_moves = set(search.root.children[PASS].children)
    if model == "searched":
        assert PASS in rival_moves and len(rival_moves) > 1
    else:
        assert rival_moves == {PASS}


def test_an_unknown_opponent_model_is_refused_when_the_bot_is_made():
    for model in OPPONENT_MODELS:
        assert SearchBot(1, iterations=10, opponents=model).opponents == model
    with pytest.raises(ValueError, match="unknown opponent model 'telepathic'"):
        SearchBot(1, iterations=10, opponents="telepathic")
    with pytest.raises(ValueError, match="unknown opponent model"):
        opponent_model("telepathic")


def test_the_heuristic_model_plays_the_heuristic_bots_move():
    """The "heuristic" model's move at a node is the heuristic bot's on that seat's view of the
    determinization, asked once per (node, determinization)."""
    state = _pass_leaves_the_rival_leading_alone()
    state = apply_move(state, legal_moves(state)[-1])  # a card, so the rival has a real choice
    model = opponent_model("heuristic")
    bot = ai.make_bot("heuristic", seed=1)
    nodes = [Node(0) for _ in range(3)]  # alive throughout, as a search's nodes are
    for node in nodes:
        move = model.move(state, random.Random(0), node=node, determinization=state)
        expected = bot.choose(view_for(state, state.current))
        assert move == action_to_move(state, expected)
    assert len(model.cache) == 3
    # The same node and determinization again: the cached move, no new entry.
    assert model.move(state, random.Random(0), node=nodes[0], determinization=state) == move
    assert len(model.cache) == 3


def test_the_experts_workers_search_as_the_expert_does(monkeypatch):
    """Root parallelism sums the workers' root statistics: each worker must run the expert's
    own search (depth, evaluation, opponent model, coalition reading), not a default one."""
    made = []

    class RecordingSearchBot(parallel.SearchBot):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(parallel, "SearchBot", RecordingSearchBot)
    expert = parallel.RootParallelBot(
        5,
        workers=1,
        iterations=40,
        battles=3,
        value="learned",
        opponents="heuristic",
        coalition="auto",
    )
    state = new_game(2, seed=4)
    while len(legal_moves(state)) < 2:
        state = apply_move(state, legal_moves(state)[0])
    expert.choose(view_for(state, state.current))
    searched = [(b.battles, b.value, b.opponents, b.coalition, b.iterations) for b in made]
    assert searched == [(3, "learned", "heuristic", "auto", 40)]


def test_the_noisy_model_mostly_plays_the_heuristics_move_and_sometimes_another():
    """The "noisy-heuristic" model blurs the heuristic's scores: a near-equal move wins now and
    then, the heuristic's move most of the time, and every move is legal."""
    bot = ai.make_bot("heuristic", seed=1)
    rng = random.Random(4)
    same = other = 0
    for view in searched_positions(6):
        state = determinize(view, random.Random(9))
        expected = action_to_move(state, bot.choose(view_for(state, state.current)))
        model = opponent_model("noisy-heuristic")  # one per search, as its cache is
        nodes = [Node(0) for _ in range(50)]  # alive throughout, as a search's nodes are
        for node in nodes:
            move = model.move(state, rng, node=node, determinization=state)
            assert move in legal_moves(state)
            same += move == expected
            other += move != expected
    assert same > other > 0, (same, other)
