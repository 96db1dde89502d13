"""The replay: seed + action log re-simulated by the engine gives back the live game, and the
replay page and its JSON show it step by step (every hand, since the game is over)."""

import itertools
import json
import random
import time

import pytest
from django.urls import reverse

from games.engine import Options, current_player, legal_actions, view_for, winners
from games.history.replay import replay_states, verify_game
from games.models import Game
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


@pytest.mark.parametrize(
    "options", ALL_COMBINATIONS, ids=lambda o: "+".join(k for k, v in o.items() if v) or "none"
)
def test_replay_equals_the_live_game_for_every_option_combination(played_game, options):
    players = 2 + sum(options.values()) % 3  # 2 to 4 players across the combinations
    game = played_game(players, options=options, seed=1000 + len(str(options)) + players)
    assert game.status == Game.Status.FINISHED

    states = replay_states(game)

    assert len(states) == game.version + 1
    assert states[-1].to_json() == game.snapshot
    assert winners(states[-1]) == game.result["winners"]
    assert verify_game(game) == []


def test_replay_json_gives_every_step_with_spectator_view_hands_and_log(client, played_game):
    game = played_game(3, options={"hidden_cards": True}, seed=77)
    states = replay_states(game)

    response = client.get(reverse("replay_frames", args=[game.pk]))

    assert response.status_code == 200
    data = response.json()
    steps = data["steps"]
    assert len(steps) == game.version + 1
    assert [step["seq"] for step in steps] == list(range(game.version + 1))
    for index in (0, len(steps) // 2, len(steps) - 1):
        state = states[index]
        assert steps[index]["view"] == json.loads(json.dumps(view_for(state, None)))
        assert steps[index]["hands"] == [view_for(state, seat)["hand"] for seat in range(3)]
        assert steps[index]["label"]
    # The spectator's view never shows a hand; the hands are beside it, for the toggle.
    assert all(step["view"]["hand"] is None for step in steps)
    # The public log is the live game's, each entry marked with its seq.
    assert [entry["seq"] for entry in data["log"]] == sorted(entry["seq"] for entry in data["log"])
    # Every action has its entry: a hand-discard answer too, kept or discarded (every seat with
    # cards is asked, so the answer reveals nothing).
    assert [entry["seq"] for entry in data["log"]] == list(range(1, game.version + 1))
    answers = [entry for entry in data["log"] if entry["type"] == "discard_hand"]
    assert {entry["discard"] for entry in answers} == {True, False}
    assert data["game"]["result"] == game.result
    assert [seat["colour"] for seat in data["game"]["seats"]] == ["red", "blue", "green"]


def test_a_six_player_replay_of_300_actions_has_a_step_for_every_action(client, played_game):
    """The time it takes is printed (run with -s), not asserted: speed is for benchmarks, and a
    bound on a shared two-core machine fails on load, not on code."""
    game = played_game(6, seed=1)  # 328 actions (every seat with cards answers step 4)
    assert game.version >= 300, "the measured game should be a long one"

    started = time.perf_counter()
    response = client.get(reverse("replay_frames", args=[game.pk]))
    elapsed = time.perf_counter() - started

    assert response.status_code == 200
    assert len(response.json()["steps"]) == game.version + 1
    size = len(response.content)
    print(f"replay.json of {game.version} actions, 6 players: {elapsed:.3f} s, {size} bytes")
