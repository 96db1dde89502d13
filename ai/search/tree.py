"""Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS").

One tree per decision, rooted at the observer's information set. Each iteration draws a
determinization (a full state consistent with the observer's view), descends the tree using only
the moves legal in that determinization, and selects children by UCB with *availability*: a
child's exploration term uses the number of times it was available to be chosen, not its
parent's visit count, because a move is legal in only some determinizations. Edges are moves;
every node stores the reward of the seat that made the move leading to it (multi-player max^n
style), so each seat's choices in the tree maximise that seat's own reward.
"""

import math

from games.engine import BATTLE, FINAL_BATTLE, OVER, apply_move, legal_moves

from .playout import policy_move

BATTLE_PHASES = (BATTLE, FINAL_BATTLE)


class Node:
    __slots__ = ("seat", "children", "visits", "reward", "squares", "avail")

    def __init__(self, seat):
        self.seat = seat  # who made the move into this node
        self.children = {}
        self.visits = 0
        self.reward = 0.0
        self.squares = 0.0  # sum of squared rewards, kept for the root's moves only
        self.avail = 1


class Search:
    """Runs iterations from one root; `root.children` then ranks the observer's moves."""

    def __init__(
        self, evaluator, rng, *, exploration=0.7, battles=1, team_against=None, opponents=None
    ):
        self.evaluator = evaluator
        # How the other seats choose in the tree (opponents.py): None for UCB like the observer,
        # else a model that plays on each seat's determinized hand.
        self.opponents = opponents
        self.observer = None
        # A seat (the observer) the others are modelled as ganging up on: each of them then plays
        # for the observer's loss ("paranoid" search) and the playouts make them a team.
        self.team_against = team_against
        self.rng = rng
        self.exploration = exploration
        self.battles = battles  # simulate until this many battles have ended, then evaluate
        self.root = Node(-1)
        self.first_state = None  # the first determinization, to translate actions to moves

    def iterate(self, state):
        """One iteration on one determinization `state`."""
        determinization = state
        rng = self.rng
        node = self.root
        path = [node]
        ended = 0
        in_battle = state.phase in BATTLE_PHASES
        if self.observer is None:
            self.observer = state.current
        # Selection and expansion.
        while True:
            phase = state.phase
            if phase == OVER:
                break
            if in_battle and phase not in BATTLE_PHASES:
                ended += 1
                if ended >= self.battles:
                    break
            in_battle = phase in BATTLE_PHASES
            moves = legal_moves(state)
            seat = state.current
            children = node.children
            if self.opponents is not None and seat != self.observer:
                # A forced move needs no model (an eighth of the heuristic model's calls).
                if len(moves) == 1:
                    move = moves[0]
                else:
                    move = self.opponents.move(state, rng, node, determinization)
                node = children.get(move)
                expanded = node is None
                if expanded:
                    node = children[move] = Node(seat)
                path.append(node)
                state = apply_move(state, move)
                if expanded:
                    break
                continue
            untried = [m for m in moves if m not in children]
            if untried:
                move = untried[0] if len(untried) == 1 else rng.choice(untried)
                for m in moves:
                    child = children.get(m)
                    if child is not None:
                        child.avail += 1
                node = children[move] = Node(seat)
                path.append(node)
                state = apply_move(state, move)
                break
            move = self._select(children, moves)
            node = children[move]
            path.append(node)
            state = apply_move(state, move)
        # Playout.
        while True:
            phase = state.phase
            if phase == OVER:
                break
            if in_battle and phase not in BATTLE_PHASES:
                ended += 1
                if ended >= self.battles:
                    break
            in_battle = phase in BATTLE_PHASES
            state = apply_move(state, policy_move(state, rng, self.team_against))
        rewards = self.evaluator.rewards(state)
        observer = self.team_against
        if observer is not None:
            against = 1.0 - rewards[observer]
            rewards = [rewards[s] if s == observer else against for s in range(len(rewards))]
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]
        if len(path) > 1:
            path[1].squares += rewards[path[1].seat] ** 2

    def _select(self, children, moves):
        c = self.exploration
        best, best_score = None, -1.0
        log, sqrt = math.log, math.sqrt
        for m in moves:
            child = children[m]
            visits = child.visits
            score = child.reward / visits + c * sqrt(log(child.avail) / visits)
            child.avail += 1
            if score > best_score:
                best, best_score = m, score
        return best

    def best_move(self, advice=None, trust=0.0, confidence=None):
        return choose_root_move(self.root.children, advice, trust, confidence)


def choose_root_move(children: dict, advice=None, trust=0.0, confidence=None):
    """The move to play from the root's {move: Node}: the advice unless clearly beaten when a
    `confidence` is given and the advice was searched, else `pick_move`."""
    if confidence is not None and advice in children:
        return overrule_advice(children, advice, confidence)
    stats = {move: (c.visits, c.reward) for move, c in children.items()}
    return pick_move(stats, advice, trust)


def overrule_advice(children: dict, advice, confidence: float):
    """The advised move unless another root move's mean reward beats it by more than
    `confidence` standard errors of the difference; then the best such move by mean. With a
    thousand iterations over a dozen moves each mean rests on ~50 noisy rewards, so a rule that
    takes the best mean picks near-random moves (a Scarecrow that takes nothing back)."""

    def mean_and_variance(node):
        mean = node.reward / node.visits
        return mean, max(node.squares / node.visits - mean * mean, 1e-4) / node.visits

    advised_mean, advised_variance = mean_and_variance(children[advice])
    best, best_mean = advice, advised_mean
    for move in sorted(children):
        node = children[move]
        if move == advice or node.visits < 2:
            continue
        mean, variance = mean_and_variance(node)
        margin = confidence * math.sqrt(variance + advised_variance)
        if mean - advised_mean > margin and mean > best_mean:
            best, best_mean = move, mean
    return best


def pick_move(stats: dict, advice=None, trust: float = 0.0):
    """The root move with the best mean reward among the well-explored ones (at least a tenth
    of the most visits), `trust` added to the `advice` move's mean. `stats`: {move: (visits,
    total reward)}. Ties go to the smaller move, so dict order never matters."""
    most = max(visits for visits, _ in stats.values())

    def merit(move):
        visits, reward = stats[move]
        return reward / visits + (trust if move == advice else 0.0), -move

    return max((m for m, (v, _) in stats.items() if v * 10 >= most), key=merit)
