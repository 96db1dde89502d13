"""Fixtures of the match tests: people, and whole games played by random legal moves."""

import itertools
import random

import pytest

from games.engine import current_player, legal_actions
from games.models import Game, User
from games.services import ServiceError, load_state, submit_action

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05


@pytest.fixture
def make_user(db):
    def make(name: str | None = None) -> User:
        return User.objects.create_user(username=name or f"matcher{next(_names)}", password=None)

    return make


@pytest.fixture
def announced(monkeypatch):
    """Jobs announced through the port are recorded here instead of run."""
    jobs = []
    monkeypatch.setattr(
        "games.jobs.later", lambda name, *args, delay=0.0: jobs.append((name, args, delay))
    )
    return jobs


def play_to_the_end(game_id: int, seed: int = 7) -> Game:
    """Random legal moves for every seat, through the one way in, until the game is over."""
    rng = random.Random(seed)
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return game
        state = load_state(game)
        seat = current_player(state)
        try:
            submit_action(game.pk, seat, rng.choice(legal_actions(state)), game.version)
        except ServiceError:
            continue
