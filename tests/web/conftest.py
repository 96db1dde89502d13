"""Shared fixtures for the web tests (Django, Channels, Celery). Keep them generic; append only.

- `fast_bots` (autouse): BOT_MOVE_DELAY = 0 and a tiny think time, so no test waits for a bot.
- `make_user(name)`: a saved user.
- `make_table(players, people=..., bots=..., ...)`: a Game with its seats (not started).
- `start_stacked(game, hands=..., first=...)`: start a table on a stacked deal (test set-up only;
  real games start through `games.services.start_game`).
- `replay_log(initial, game)`: the engine state rebuilt from an initial state and the action log.
"""

import itertools

import pytest
from django.utils import timezone

from games.engine import GameState, Options, apply_action, new_game
from games.models import Action, Game, Seat, User

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05


@pytest.fixture
def make_user(db):
    def make(name: str | None = None) -> User:
        name = name or f"player{next(_names)}"
        # No password: hashing one costs a second, and tests log in with force_login.
        return User.objects.create_user(username=name, password=None)

    return make


@pytest.fixture
def make_table(db):
    def make(
        players: int = 2,
        *,
        people: dict | None = None,
        bots: dict | None = None,
        options: dict | None = None,
        turn_seconds: int | None = None,
        seed: int = 1494,
    ) -> Game:
        """`people`: {seat index: user}; `bots`: {seat index: level}; other seats stay open."""
        game = Game.objects.create(
            players=players,
            options=Options(**(options or {})).to_dict(),
            seed=seed,
            turn_seconds=turn_seconds,
        )
        people, bots = people or {}, bots or {}
        for index in range(players):
            Seat.objects.create(
                game=game,
                index=index,
                user=people.get(index),
                bot_level=bots.get(index, ""),
                joined_at=timezone.now() if index in people or index in bots else None,
            )
        return game

    return make


def stacked_state(game: Game, *, hands=None, deck=None, first: int = 0) -> GameState:
    return new_game(
        game.players,
        seed=game.seed,
        options=Options.from_dict(game.options),
        first=first,
        hands=hands,
        deck=deck,
    )


@pytest.fixture
def start_stacked(db):
    def start(game: Game, *, hands=None, deck=None, first: int = 0) -> Game:
        state = stacked_state(game, hands=hands, deck=deck, first=first)
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.PLAYING,
            started_at=timezone.now(),
            version=0,
            snapshot=state.to_json(),
        )
        game.refresh_from_db()
        return game

    return start


def replay_log(initial: GameState, game: Game) -> GameState:
    """Apply the game's logged actions, in order, to its initial state."""
    state = initial
    for action in Action.objects.filter(game=game).order_by("seq"):
        state = apply_action(state, action.action)
    return state
