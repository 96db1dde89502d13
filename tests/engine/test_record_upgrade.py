"""The upgrade of action lists played under the old hand-discard rule (record version 1).

Under the old rule step 4 asked only the seats holding cards but no Mercenary; now every seat
with cards is asked and one holding a Mercenary can only decline. `old_rule_games.json` holds
four whole games played (random legal choices) by the engine as it was before the change, each
with its seats and the SHA-256 of its final state.
"""

import hashlib
import json
import random
from pathlib import Path

import pytest

from games.engine import Options, apply_action, current_player, legal_actions, new_game, view_for
from games.engine.record import DECLINE, ReplayError, simulate, upgrade_discard_asks

from .helpers import MERCENARIES, random_options

OLD_GAMES = json.loads((Path(__file__).parent / "old_rule_games.json").read_text())
IDS = [f"{game['players']}p-{game['seed']}" for game in OLD_GAMES]


def _deal(game):
    options = Options.from_dict(game["options"])
    return new_game(game["players"], seed=game["seed"], options=options, first=game["first"])


def _old_moves(game):
    return [(seat, action) for seat, action in game["moves"]]


def _sha(state):
    return hashlib.sha256(state.to_json().encode()).hexdigest()


def _holds_mercenary(state, seat):
    return any(card in MERCENARIES for card in view_for(state, seat)["hand"])


@pytest.mark.parametrize("game", OLD_GAMES, ids=IDS)
def test_an_old_rule_game_replays_once_upgraded_to_the_very_same_end(game):
    initial = _deal(game)
    with pytest.raises(ReplayError):
        simulate(initial, _old_moves(game))
    upgraded = upgrade_discard_asks(initial, _old_moves(game))
    states = simulate(initial, [(seat, action) for seat, action, _index in upgraded])
    assert current_player(states[-1]) is None
    assert _sha(states[-1]) == game["final_sha256"]


@pytest.mark.parametrize("game", OLD_GAMES, ids=IDS)
def test_the_upgrade_only_inserts_the_declines_of_seats_holding_a_mercenary(game):
    initial = _deal(game)
    upgraded = upgrade_discard_asks(initial, _old_moves(game))
    kept = [(seat, action) for seat, action, index in upgraded if index is not None]
    assert kept == _old_moves(game)
    assert [index for *_move, index in upgraded if index is not None] == list(range(len(kept)))
    states = simulate(initial, [(seat, action) for seat, action, _index in upgraded])
    inserted = 0
    for state, (seat, action, index) in zip(states, upgraded, strict=False):
        if index is None:
            assert action == DECLINE
            assert _holds_mercenary(state, seat)
            assert legal_actions(state) == [DECLINE]
            inserted += 1
    assert inserted > 0


@pytest.mark.parametrize("game", OLD_GAMES, ids=IDS)
def test_a_game_stopped_in_the_discard_step_still_waits_for_the_same_seat(game):
    """An old game in progress, stopped while a seat without Mercenary decides: upgraded, it
    waits for that seat (the forced declines before it are inserted too)."""
    moves = _old_moves(game)
    stops = [
        number for number, (_seat, action) in enumerate(moves) if action["type"] == "discard_hand"
    ]
    initial = _deal(game)
    for stop in stops:
        waiting = moves[stop][0]
        upgraded = upgrade_discard_asks(initial, moves[:stop])
        last = simulate(initial, [(seat, action) for seat, action, _index in upgraded])[-1]
        assert current_player(last) == waiting
        assert not _holds_mercenary(last, waiting)


def _new_rule_game(players, seed):
    """A random whole game under the current rule: its deal, its (seat, action) list, and for
    each action whether it was a forced decline (the seat held a Mercenary)."""
    rng = random.Random(f"upgrade:{seed}")
    initial = new_game(players, seed=seed, options=random_options(rng), first=seed % players)
    state, moves, forced = initial, [], []
    while current_player(state) is not None:
        seat = current_player(state)
        action = rng.choice(legal_actions(state))
        forced.append(action == DECLINE and _holds_mercenary(state, seat))
        moves.append((seat, action))
        state = apply_action(state, action)
    return initial, moves, forced


@pytest.mark.parametrize("players", range(2, 7))
def test_dropping_the_forced_declines_and_upgrading_gives_the_game_back(players):
    """A game played under the new rule, made old by dropping the declines of seats holding a
    Mercenary, is upgraded back to itself; and a new-rule list is left as it is."""
    for seed in range(players, 60, 7):
        initial, moves, forced = _new_rule_game(players, seed)
        old = [move for move, was_forced in zip(moves, forced, strict=True) if not was_forced]
        assert [(s, a) for s, a, _i in upgrade_discard_asks(initial, old)] == moves
        assert upgrade_discard_asks(initial, moves) == [
            (seat, action, index) for index, (seat, action) in enumerate(moves)
        ]


def test_a_list_that_does_not_replay_is_refused_with_its_action_number():
    game = OLD_GAMES[0]
    moves = _old_moves(game)
    seat, action = moves[3]
    broken = [*moves[:3], ((seat + 1) % game["players"], action), *moves[4:]]
    with pytest.raises(ReplayError, match="action 4"):
        upgrade_discard_asks(_deal(game), broken)


def test_only_a_hand_without_mercenary_is_ever_discarded_in_the_old_games():
    """The fixture is what it claims: under the old rule, nobody holding a Mercenary discarded."""
    for game in OLD_GAMES:
        initial = _deal(game)
        upgraded = upgrade_discard_asks(initial, _old_moves(game))
        states = simulate(initial, [(seat, action) for seat, action, _index in upgraded])
        for state, (seat, action, _index) in zip(states, upgraded, strict=False):
            if action.get("discard"):
                assert not _holds_mercenary(state, seat)
