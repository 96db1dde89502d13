"""How the search plays the other seats inside its tree.

A single-observer tree keys another seat's node by the public moves only, so the node merges
every hand the seat might hold and its UCB choice cannot depend on the seat's hidden cards (only
on which moves are legal). An opponent model replaces that choice with a policy applied to the
seat's hand in the iteration's determinization:

- "searched": no model, the tree's UCB choice (max^n: each seat maximises its own reward);
- "playout": the playout policy (`playout.policy_move`), a cheap caricature of a sensible player;
- "heuristic": the site's heuristic bot on that seat's view of the determinization, about a
  millisecond a call, so its moves are cached per (tree node, determinization): the same path
  from the same determinization is the same state;
- "noisy-heuristic": the same, its scores blurred as the `easy` level's are, but less
  (`NOISY_HEURISTIC`): a model of a player who mostly reasons like the heuristic and sometimes
  prefers another near-equal move, as a search does. A search that answers the exact heuristic
  can lean on its exact replies; against this one it must choose moves that hold up when the
  reply differs;
- "imitation": a model fitted to `hard`'s battle choices (imitation.py), sampled, cached as the
  heuristic's moves are: the other seat played as the level `expert` is measured against.

With a coalition modelled (`team_against`, the observer), the heuristic model becomes
`TeamOpponents`: the other seats play as the arena's `coalition` does, the heuristic each for
itself until the observer leads the table, then one team against it, every hand of the
determinization in sight (the determinization is the observer's guess, so nothing is read that
the observer cannot see).

The tree then branches on the observer's own choices only.
"""

from games.engine import action_to_move, view_for

from ..battle_play import Style
from ..coalition_bot import CoalitionBot
from ..heuristic import choose_by_phase
from .imitation import ImitationModel
from .playout import policy_move

OPPONENT_MODELS = ("searched", "playout", "heuristic", "noisy-heuristic", "imitation")
# The noisy model's blur, in `heuristic.choose_by_phase`'s units (the `easy` level's is 0.35).
# The heuristic's scores of a position's plays are often close: at 0.02 the model leaves the
# heuristic's move in about 30% of searched heads-up decisions, about as often as `hard` does.
NOISY_HEURISTIC = 0.02


class PlayoutOpponents:
    def __init__(self, team_against=None):
        self.team_against = team_against

    def move(self, state, rng, node, determinization):
        return policy_move(state, rng, self.team_against)


class ViewPolicyOpponents:
    """A policy that decides from the seat's view of the determinization, its moves cached per
    (tree node, determinization): the same path from the same determinization is the same state,
    and a view costs about as much as the rest of an iteration."""

    def __init__(self, choose):
        self.choose = choose  # (view, rng) -> one of the view's legal actions
        self.cache = {}

    def move(self, state, rng, node, determinization):
        # Nodes and determinizations live as long as the search: their identities are stable.
        key = (id(node), id(determinization))
        move = self.cache.get(key)
        if move is None:
            action = self.choose(view_for(state, state.current), rng)
            move = self.cache[key] = action_to_move(state, action)
        return move


class TeamOpponents(ViewPolicyOpponents):
    """The other seats as a coalition against `observer` (the arena's `coalition` rule, each on
    the determinization it plays in), cached as the heuristic's moves are."""

    def __init__(self, observer: int, players: int):
        super().__init__(None)
        everyone = frozenset(range(players)) - {observer}
        self.members = {seat: CoalitionBot(0, allies=everyone - {seat}) for seat in everyone}

    def move(self, state, rng, node, determinization):
        key = (id(node), id(determinization))
        move = self.cache.get(key)
        if move is None:
            seat = state.current
            action = self.members[seat].decide(view_for(state, seat), state, rng)
            move = self.cache[key] = action_to_move(state, action)
        return move


def heuristic_opponents(noise=0.0) -> ViewPolicyOpponents:
    style = Style()
    return ViewPolicyOpponents(lambda view, rng: choose_by_phase(view, style, rng, noise=noise))


def check_opponent_model(name: str) -> None:
    if name not in OPPONENT_MODELS:
        choices = ", ".join(OPPONENT_MODELS)
        raise ValueError(f"unknown opponent model {name!r}; choose one of {choices}")


def opponent_model(name: str, team_against=None, players=None):
    """The model called at other seats' nodes, or None for the tree's own choice. With
    `team_against` (the observer) and the heuristic model, the coalition's (`TeamOpponents`)."""
    check_opponent_model(name)
    if name == "playout":
        return PlayoutOpponents(team_against)
    if name == "heuristic" and team_against is not None and players is not None:
        return TeamOpponents(team_against, players)
    if name == "heuristic":
        return heuristic_opponents()
    if name == "noisy-heuristic":
        return heuristic_opponents(noise=NOISY_HEURISTIC)
    if name == "imitation":
        return ViewPolicyOpponents(ImitationModel().choose)
    return None
