"""The search's coalition model: the other seats as one team against the observer (issue #16,
part 4). A table that stops contesting its own members is what the `ganging` arena opponent
plays; modelled as independent players, it is misread."""

import random

from ai.search.coalition import suspects_coalition
from ai.search.evaluation import Evaluator
from ai.search.playout import battle_move
from ai.search.tree import Search
from games.engine import PASS, apply_action, current_player, legal_moves, new_game, view_for
from games.engine.state import BATTLE, clone


def battle_with_lines(lines, current, passed=0):
    """A three-player battle with the given lines (kinds per seat), `current` to play."""
    state = new_game(3, seed=5)
    while state.phase != BATTLE:
        state = apply_action(state, view_for(state, current_player(state))["legal_actions"][0])
    state = clone(state)
    state.lines = tuple(tuple(line) for line in lines)
    state.current = current
    state.passed = passed
    return state


# Kinds 0..6 are the Mercenaries 1, 2, 3, 4, 5, 6, 10.
OBSERVER_5_ALLY_10 = ((4,), (6,), ())


def test_an_opponent_passes_behind_its_ally_once_the_observer_is_out():
    """Seat 1 (an ally of seat 2) beats the observer, seat 0, who has passed: the team has won,
    so seat 2 spends nothing. Played independently, seat 2 is 10 behind seat 1 and fights."""
    state = battle_with_lines(OBSERVER_5_ALLY_10, current=2, passed=0b001)
    moves = legal_moves(state)
    assert any(move != PASS for move in moves)
    for seed in range(40):
        assert battle_move(state, moves, random.Random(seed), observer=0) == PASS
    independent = {battle_move(state, moves, random.Random(seed)) for seed in range(40)}
    assert PASS not in independent


def test_the_observer_itself_still_fights_the_whole_table():
    state = battle_with_lines(OBSERVER_5_ALLY_10, current=0)
    moves = legal_moves(state)
    team = {battle_move(state, moves, random.Random(seed), observer=0) for seed in range(40)}
    alone = {battle_move(state, moves, random.Random(seed)) for seed in range(40)}
    assert team == alone


class FixedRewards(Evaluator):
    def rewards(self, state):
        return [0.5, 0.3, 0.2]


def test_in_the_tree_every_other_seat_plays_for_the_observers_loss():
    """Paranoid rewards: a node of seat 1 or 2 holds 1 - the observer's reward, the observer's
    own node its own reward."""
    state = battle_with_lines(((4,), (), ()), current=1)
    search = Search(FixedRewards(3, False), random.Random(1), team_against=0)
    search.iterate(state)
    child = next(iter(search.root.children.values()))
    assert child.seat == 1 and child.reward == 0.5
    plain = Search(FixedRewards(3, False), random.Random(1))
    plain.iterate(state)
    assert next(iter(plain.root.children.values())).reward == 0.3


def table(current, strengths, lines=None, passed=(), phase="battle"):
    """A spectator view reduced to what the coalition test reads."""
    lines = lines or [["m1"] * (1 if strength else 0) for strength in strengths]
    return {
        "phase": phase,
        "current_player": current,
        "players": [
            {"strength": strength, "line": list(line), "passed": seat in passed}
            for seat, (strength, line) in enumerate(zip(strengths, lines, strict=True))
        ],
    }


def answer(leader, seat, gives_up, players=4):
    """Two views: `seat` to act while `leader` holds the strongest line, then its answer."""
    strengths = [0] * players
    strengths[leader] = 5
    before = table(seat, strengths)
    if gives_up:
        after = table(seat, strengths, passed=(seat,))
    else:
        lines = [["m1"] * (1 if value else 0) for value in strengths]
        lines[seat] = ["m2"]
        after = table(seat, [*strengths[:seat], 2, *strengths[seat + 1 :]], lines)
    return [before, after]


def history_of(answers):
    history = []
    for pair in answers:
        history.extend(pair)
    return history


def test_a_table_that_spares_its_own_but_fights_the_observer_is_a_coalition():
    spared = [answer(leader=1, seat=2, gives_up=True) for _ in range(12)]
    fought = [answer(leader=0, seat=2, gives_up=False) for _ in range(12)]
    assert suspects_coalition(history_of(spared + fought), observer=0)
    # Seen from seat 3, which never led a battle, there is nothing to compare.
    assert not suspects_coalition(history_of(spared + fought), observer=3)


def test_players_who_treat_every_rival_alike_are_no_coalition():
    even = [answer(leader=1, seat=2, gives_up=index % 3 == 0) for index in range(12)]
    even += [answer(leader=0, seat=2, gives_up=index % 3 == 0) for index in range(12)]
    assert not suspects_coalition(history_of(even), observer=0)


def test_too_few_decisions_or_two_players_prove_nothing():
    spared = [answer(leader=1, seat=2, gives_up=True) for _ in range(4)]
    fought = [answer(leader=0, seat=2, gives_up=False) for _ in range(4)]
    assert not suspects_coalition(history_of(spared + fought), observer=0)
    heads_up = [answer(leader=0, seat=1, gives_up=False, players=2) for _ in range(20)]
    assert not suspects_coalition(history_of(heads_up), observer=0)
    assert not suspects_coalition(None, observer=0)
