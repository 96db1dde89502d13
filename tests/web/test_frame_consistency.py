"""Every state frame describes one moment: its view, its log and its version agree.

Whole games played by bots at delay 0 move faster than the sockets read, which is when a view
and a log read at different moments would disagree (a log entry one version ahead of the view).
Each frame is checked against the game re-simulated from the stored log up to its version.
"""

import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games.engine import Options, current_player, legal_actions, new_game, view_for
from games.engine.record import simulate
from games.models import Action, Game
from games.services import load_state, start_game, submit_action
from games.services.frames import LOG_LENGTH, log_entry, public_log, read_table
from tests.services import require_redis
from tests.web.conftest import next_frame, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

GAME_SECONDS = 120


async def collect_frames(socket, game_id: int) -> list[dict]:
    """State frames until the game is over."""
    frames = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_SECONDS
    while loop.time() < deadline:
        frame = await next_frame(socket, "state", timeout=30)
        frames.append(frame)
        if frame["game"]["status"] == Game.Status.FINISHED:
            return frames
    raise AssertionError(f"game {game_id} did not finish in {GAME_SECONDS} s")


def states_and_log(game_id: int):
    """The game re-simulated from its stored log (state after each version), and the log."""
    game = Game.objects.get(pk=game_id)
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    first = random.Random(game.seed).randrange(game.players)
    initial = new_game(game.players, seed=game.seed, options=Options(), first=first)
    states = simulate(initial, [(action.seat, action.action) for action in actions])
    return states, actions


def expected_log(actions, version: int) -> list[dict]:
    public = [log_entry(a) for a in actions if a.seq <= version and a.public is not None]
    return public[-LOG_LENGTH:]


@pytest.mark.parametrize("players", [2, 4])
async def test_every_frame_of_whole_bot_games_shows_one_version(
    make_user, make_table, settings, players
):
    if settings.REDIS_URL:
        require_redis()
    settings.JOB_RUNNER = "in_process"  # the bots move in this process, as fast as they can
    settings.BOT_MOVE_DELAY = 0

    def set_up():
        alice = make_user("alice")
        bots = {index: "random" for index in range(1, players)}
        game = make_table(players, people={0: alice}, bots=bots, seed=40 + players)
        game.seats.filter(index=0).update(standin=True)  # alice's stand-in plays for her
        return game, alice

    game, alice = await database_sync_to_async(set_up)()
    seat_socket = await ws_connect_when_started(game, alice)
    spectator = await ws_connect(f"/ws/games/{game.pk}/")
    seat_frames, spectator_frames = await asyncio.gather(
        collect_frames(seat_socket, game.pk), collect_frames(spectator, game.pk)
    )
    states, actions = await database_sync_to_async(states_and_log)(game.pk)

    for seat, frames in ((0, seat_frames), (None, spectator_frames)):
        versions = [frame["version"] for frame in frames]
        assert versions == sorted(versions), "a socket's versions went back"
        for frame in frames:
            version = frame["version"]
            assert frame["log"] == expected_log(actions, version), f"log torn at v{version}"
            assert frame["view"] == view_for(states[version], seat), f"view torn at v{version}"
    assert len(actions) > 20  # whole games, not a few moves
    for socket in (seat_socket, spectator):
        await socket.disconnect()


async def ws_connect_when_started(game, user):
    """Start the game once a socket of the seat is open, so that it sees every version."""
    await database_sync_to_async(start_game)(game.pk)
    return await ws_connect(f"/ws/games/{game.pk}/", user)


@pytest.mark.django_db
def test_a_log_extended_from_an_earlier_read_equals_one_read_whole(make_table):
    """The shared read extends the last read's log with the newer entries: the result must be
    what reading the last LOG_LENGTH entries afresh gives, at every pair of versions."""
    game = make_table(6, bots={index: "random" for index in range(6)}, seed=7)
    start_game(game.pk)
    game = Game.objects.get(pk=game.pk)
    state = load_state(game)
    rng = random.Random(7)
    for _ in range(LOG_LENGTH + 60):
        if current_player(state) is None:
            break
        submit_action(
            game.pk, current_player(state), rng.choice(legal_actions(state)), game.version
        )
        game = Game.objects.get(pk=game.pk)
        state = load_state(game)
    final = game.version
    assert final > LOG_LENGTH

    def at(version):
        return Game(pk=game.pk, version=version)

    for earlier_version in (0, 1, final // 2, final - 3, final):
        earlier = (earlier_version, public_log(at(earlier_version)))
        for version in (earlier_version, earlier_version + 2, final):
            if version <= final:
                whole = public_log(at(version))
                assert public_log(at(version), earlier=earlier) == whole


@pytest.mark.django_db
def test_a_table_built_from_a_moves_change_equals_the_one_read(
    make_user, make_table, monkeypatch, django_capture_on_commit_callbacks
):
    """A socket process builds version N from N-1 and the move's change, without reading: every
    seat's frame must be the one a read of version N gives, and a change it cannot apply (a
    gap, a stand-in flipped with the move) must make it read instead."""
    changes = []
    monkeypatch.setattr(
        "games.services.followups.notify_game",
        lambda group, version, change, earlier=(): changes.append((version, change)),
    )
    game = make_table(3, people={0: make_user()}, bots={1: "random", 2: "random"}, seed=9)
    start_game(game.pk)
    rng = random.Random(9)
    for _ in range(30):
        before = read_table(game.pk)
        seat = current_player(before.state)
        with django_capture_on_commit_callbacks(execute=True):
            submit_action(game.pk, seat, rng.choice(legal_actions(before.state)), before.version)
        version, change = changes[-1]
        built, read = before.advanced(version, change), read_table(game.pk)
        for viewer in (None, 0, 1, 2):
            assert built.frame_for(viewer) == read.frame_for(viewer)
        assert before.advanced(version + 1, change) is None  # a version was missed
        flipped = {**change, "standins": [not change["standins"][0], *change["standins"][1:]]}
        assert before.advanced(version, flipped) is None


@pytest.mark.django_db
def test_a_frame_s_text_is_its_frame_in_json_in_any_language(make_user, make_table):
    """The text a socket sends (orjson's) decodes to the frame itself, an accented name
    and a full log included, in each language, for every seat and the spectators."""
    game = make_table(3, people={0: make_user("Émilie")}, bots={1: "random", 2: "random"}, seed=4)
    start_game(game.pk)
    rng = random.Random(4)
    for version in range(LOG_LENGTH + 20):
        state = load_state(Game.objects.get(pk=game.pk))
        if current_player(state) is None:
            break
        submit_action(game.pk, current_player(state), rng.choice(legal_actions(state)), version)
    for language in ("fr", "it", "en"):
        with translation.override(language):
            table = read_table(game.pk)
            for viewer in (None, 0, 1, 2):
                frame = table.frame_for(viewer)
                assert json.loads(table.text_for(viewer)) == json.loads(json.dumps(frame))
    assert len(table.log) == LOG_LENGTH
