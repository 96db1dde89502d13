"""Shared fixtures for the web tests (Django, Channels, Celery). Keep them generic; append only.

- `fast_bots` (autouse): BOT_MOVE_DELAY = 0 and a tiny think time, so no test waits for a bot.
- `make_user(name)`: a saved user.
- `make_table(players, people=..., bots=..., ...)`: a Game with its seats (not started).
- `start_stacked(game, hands=..., first=...)`: start a table on a stacked deal (test set-up only;
  real games start through `games.services.start_game`).
- `replay_log(initial, game)`: the engine state rebuilt from an initial state and the action log.
- `timed_game`: a started two-person game with 30 s per decision.
- `announced`: the jobs announced through the job port, recorded as (name, args, delay) and not
  run.
- `site_models()`: every model of the site's own apps.
"""

import itertools

import pytest
from django.apps import apps
from django.utils import timezone

from games.engine import GameState, Options, apply_action, new_game
from games.models import Action, Game, Seat, User
from games.services import start_game

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05


@pytest.fixture
def announced(monkeypatch):
    """Jobs announced through the port (games.jobs.later) are recorded here instead of run."""
    jobs = []
    monkeypatch.setattr(
        "games.jobs.later", lambda name, *args, delay=0.0: jobs.append((name, args, delay))
    )
    return jobs


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


# --- Websockets (Channels' WebsocketCommunicator on the real ASGI application) -----------------

WS_TIMEOUT = 10


def ws_headers(user=None) -> list[tuple[bytes, bytes]]:
    """Headers of a browser on the test host: its Origin and, for a user, a session cookie."""
    from django.test import Client

    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


async def ws_connect(path: str, user=None):
    """A connected communicator on the full ASGI stack (origin check, session auth, routing)."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from condottiere_site.asgi import application

    headers = await database_sync_to_async(ws_headers)(user)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=WS_TIMEOUT)
    assert connected, f"the websocket {path} was refused"
    return communicator


async def next_frame(communicator, kind: str | None = None, *, timeout: float = WS_TIMEOUT) -> dict:
    """The next frame (of this type, skipping others)."""
    while True:
        frame = await communicator.receive_json_from(timeout=timeout)
        if kind is None or frame.get("type") == kind:
            return frame


async def state_at_least(communicator, version: int, *, timeout: float = WS_TIMEOUT) -> dict:
    """The first state frame whose version is at least `version`."""
    while True:
        frame = await next_frame(communicator, "state", timeout=timeout)
        if frame["version"] >= version:
            return frame


async def ended_by(communicator, reason: str) -> None:
    """The socket says why (an error frame with `reason`), then closes with 4401 (signed out):
    how a socket ends when its account or token stops being valid."""
    import json

    from games.accounts.sockets import CLOSE_SIGNED_OUT

    while True:
        output = await communicator.receive_output(timeout=WS_TIMEOUT)
        assert output["type"] == "websocket.send", f"closed without saying why: {output}"
        frame = json.loads(output["text"])
        if frame["type"] == "error":
            break
    assert frame["code"] == reason
    assert await communicator.receive_output(timeout=WS_TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_SIGNED_OUT,
    }


@pytest.fixture
def configured_layer():
    """Under the production profile the sockets must run on a Redis that answers."""
    from django.conf import settings

    from tests.services import require_redis

    if settings.REDIS_URL:
        require_redis()


@pytest.fixture
async def close_async_db_connections():
    """After an async test: close the connection of the thread that ran its ORM calls, so the
    test database can be dropped (PostgreSQL refuses while a session is open)."""
    yield
    from channels.db import database_sync_to_async
    from django.db import connections

    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def timed_game(make_user, make_table):
    game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=30)
    start_game(game.pk)
    game.refresh_from_db()
    return game


def site_models():
    """Every model of the site's own apps (games and the apps inside it), so that a new app's
    models are checked without anyone remembering to list it here."""
    return [
        model
        for config in apps.get_app_configs()
        if config.name == "games" or config.name.startswith("games.")
        for model in config.get_models()
    ]
