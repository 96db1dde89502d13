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


def spectator(owners, lines, phase="battle", hand_size=5, players=4):
    """A spectator view reduced to what the coalition test reads."""
    return {
        "phase": phase,
        "owners": dict(owners),
        "options": {},
        "players": [
            {
                "seat": seat,
                "hand_size": hand_size,
                "line": list(lines.get(seat, ())),
                "passed": False,
            }
            for seat in range(players)
        ],
    }


def battle(owners, fighters, players=4, finished=True):
    """A battle's views: it begins with empty lines, then each of `fighters` lays an m3; a
    finished battle is followed by the next region's choice."""
    views = [spectator(owners, {}, players=players)]
    lines = {}
    for seat in fighters:
        lines[seat] = ["m3"]
        views.append(spectator(owners, lines, players=players))
    if finished:
        views.append(spectator(owners, {}, phase="choose_region", players=players))
    return views


def game(*battles):
    return [view for views in battles for view in views]


OBSERVER_LEADS = {"Torino": 0}
OTHER_LEADS = {"Torino": 1}


def test_a_table_that_stops_contesting_its_own_while_the_observer_leads_is_a_coalition():
    """Under the observer's lead, one other seat fights each battle and the rest never play."""
    history = game(battle(OBSERVER_LEADS, [0, 1]), battle(OBSERVER_LEADS, [2, 0]))
    assert suspects_coalition(history, observer=0)


def test_players_who_fight_one_another_under_the_observers_lead_are_no_coalition():
    history = game(
        battle(OBSERVER_LEADS, [0, 1, 2]),
        battle(OBSERVER_LEADS, [3, 0, 1]),
        battle(OBSERVER_LEADS, [2]),  # one quiet battle among contested ones proves nothing
    )
    assert not suspects_coalition(history, observer=0)


def test_quiet_battles_while_the_observer_does_not_lead_prove_nothing():
    """A table that fights little is no coalition against a seat that does not lead."""
    history = game(battle(OTHER_LEADS, [0, 1]), battle({}, [2, 0]), battle(OTHER_LEADS, [3]))
    assert not suspects_coalition(history, observer=0)


def test_the_battle_going_on_and_two_players_prove_nothing():
    assert not suspects_coalition(battle(OBSERVER_LEADS, [1], finished=False), observer=0)
    heads_up = game(*(battle(OBSERVER_LEADS, [1], players=2) for _ in range(5)))
    assert not suspects_coalition(heads_up, observer=0)
    assert not suspects_coalition(None, observer=0)


def test_a_battle_where_fewer_than_two_others_hold_cards_is_not_counted():
    """With one other seat left holding cards nobody can be seen sparing anyone."""
    views = battle(OBSERVER_LEADS, [1])
    for view in views:
        for player in view["players"][2:]:
            player["hand_size"] = 0
    assert not suspects_coalition(views, observer=0)
