"""The replay: seed + action log re-simulated by the engine gives back the live game, and the
replay page and its JSON show it step by step (every hand, since the game is over)."""

import itertools
import json
import random
import time

import pytest
from django.urls import reverse

from games.engine import Options, current_player, legal_actions, winners
from games.models import Game
from games.replay import replay_payload, replay_states, verify_game
from games.services import load_state, start_game, submit_action

OPTION_NAMES = tuple(Options().to_dict())
ALL_COMBINATIONS = [
    dict(zip(OPTION_NAMES, bits, strict=True))
    for bits in itertools.product((False, True), repeat=len(OPTION_NAMES))
]


def play_out(game: Game, seed: int, *, stop_after: int | None = None) -> Game:
    """Start `game` and play random legal moves through the services, as live play would,
    until it is over (or `stop_after` actions have been played)."""
    rng = random.Random(seed)
    start_game(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING and (stop_after is None or game.version < stop_after):
        state = load_state(game)
        action = rng.choice(legal_actions(state))
        submit_action(game.pk, current_player(state), action, game.version)
        game.refresh_from_db()
    return game


@pytest.fixture
def played_game(make_user, make_table):
    """A finished game between people, played at random: make(players, options=..., seed=...)."""

    def make(players: int = 3, *, options=None, seed: int = 1494, stop_after=None) -> Game:
        people = {index: make_user() for index in range(players)}
        table = make_table(players, people=people, options=options, seed=seed)
        return play_out(table, seed, stop_after=stop_after)

    return make


@pytest.mark.parametrize("options", ALL_COMBINATIONS, ids=lambda o: "+".join(k for k, v in o.items() if v) or "none")
def test_replay_equals_the_live_game_for_every_option_combination(played_game, options):
    players = 2 + sum(options.values()) % 3  # 2 to 4 players across the combinations
    game = played_game(players, options=options, seed=1000 + len(str(options)) + players)
    assert game.status == Game.Status.FINISHED

    states = replay_states(game)

    assert len(states) == game.version + 1
    assert states[-1].to_json() == game.snapshot
    assert winners(states[-1]) == game.result["winners"]
    assert verify_game(game) == []
