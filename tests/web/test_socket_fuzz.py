"""Hostile frames, 10,000 per kind of socket (a seated player, a spectator, the lobby), generated
from a fixed seed: every one is answered with a clear error frame, no consumer crashes, and
nothing changes (the game's version, snapshot and action log, its seats, the players' view).

The flood limit would close these sockets after 20 frames: the fuzz raises it through settings
(read when a socket opens) to read every frame; the limit itself is tested in
test_socket_limits.py. Production profile: real Redis channel layer and socket slots.
"""

import json
import random
import string
import time
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.engine import REGIONS, current_player, legal_actions
from games.models import Action, Game, Seat
from games.services import load_state, start_game
from tests.services import require_redis
from tests.web.conftest import next_frame, ws_connect

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

SEED = 20261126
FRAMES_PER_SOCKET = 10_000
# Each kind must read its 10,000 frames within a minute (about 20 s on a quiet machine).
SECONDS_PER_SOCKET = 60
ANSWER_TIMEOUT = 10
BATCH = 20
RESYNC_AFTER = {"stale", "illegal", "not_your_turn", "not_playing"}
CARDS = "m1 m2 m3 m4 m5 m6 m10 winter spring bishop courtesan drummer heroine scarecrow surrender"
CARDS = CARDS.split()
ACTION_TYPES = ["choose_region", "play", "pass", "discard_hand", "keep", "draw"]


@pytest.fixture(autouse=True)
def unlimited_flood(settings):
    require_redis()
    settings.SOCKET_FLOOD_FRAMES = settings.LOBBY_FLOOD_FRAMES = 10**9


@dataclass(frozen=True)
class Hostile:
    """A frame to send and the error codes that may answer it."""

    text: str | None = None
    data: bytes | None = None
    codes: frozenset = frozenset({"malformed"})


# --- Values and frames -------------------------------------------------------------------------

ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 0.5, "", "0", "true", [], {}, [0], {"a": 1}]


def odd_value(rng: random.Random):
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(ODD_VALUES)
    if choice == 1:
        return rng.randint(-(2**70), 2**70)
    if choice == 2:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))
    return rng.choice([[rng.choice(ODD_VALUES)], {"k": rng.choice(ODD_VALUES)}])


def some_action(rng: random.Random) -> dict:
    """An action-shaped object: known or unknown type, right or wrong keys and value types."""
    kind = rng.choice([*ACTION_TYPES, "cheat", "", "PLAY"])
    action = {"type": kind}
    field = {
        "choose_region": ("region", [*REGIONS, "milano", "Atlantis"]),
        "play": ("card", [*CARDS, "hidden", "m7", "M10"]),
        "discard_hand": ("discard", [True, False, 1, 0, "yes"]),
        "keep": ("cards", [[], ["m1"], ["m1", "m2", "m3"], "m1", [1]]),
        "draw": ("count", [0, 3, 4, -1, True, 1.0, "2"]),
    }.get(kind)
    if field and rng.random() < 0.9:
        action[field[0]] = rng.choice(field[1])
    if rng.random() < 0.3:
        action[rng.choice(["take", "pope", "reveal", "seat", "extra"])] = odd_value(rng)
    if rng.random() < 0.2:
        action[rng.choice(list(action))] = odd_value(rng)
    return action


def text(frame) -> str:
    return json.dumps(frame)


def unreadable(frame: str) -> Hostile:
    """Text that is no frame: `too_large` if it is over the size limit, else `malformed`."""
    too_large = len(frame.encode("utf-8", "surrogatepass")) > settings.SOCKET_FRAME_MAX_BYTES
    return Hostile(text=frame, codes=frozenset({"too_large" if too_large else "malformed"}))


def envelope_garbage(rng: random.Random) -> Hostile:
    """A frame no socket can read: never JSON, the wrong JSON, too big, too deep, binary."""
    limit = settings.SOCKET_FRAME_MAX_BYTES
    choice = rng.randrange(14)
    if choice == 0:
        return Hostile(data=rng.randbytes(rng.randrange(0, 200)))
    if choice == 1:
        return Hostile(data=text({"type": "sync"}).encode())
    if choice == 2:  # invalid UTF-8 arrives as bytes, lone surrogates as text
        return rng.choice([Hostile(data=b"\xc3\x28\xff" * 3), Hostile(text='"\udc80"')])
    if choice == 3:
        size = rng.randrange(limit + 1, limit * 3)
        frame = text({"type": "ping", "id": "x" * size})
        if rng.random() < 0.5:
            return Hostile(text=frame, codes=frozenset({"too_large"}))
        return Hostile(data=frame.encode(), codes=frozenset({"too_large"}))
    if choice == 4:
        depth = rng.choice([7, 8, 50, 999, 1000, 1001, 2000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        return unreadable(opener * depth + "1" + closer * depth)
    if choice == 5:
        inner = json.loads("[" * 6 + "]" * 6)
        return Hostile(text=text({"type": "ping", "id": inner}))
    if choice == 6:
        constant = rng.choice(["NaN", "Infinity", "-Infinity"])
        return Hostile(text='{"type": "ping", "id": ' + constant + "}")
    if choice == 7:
        alphabet = string.printable + '{}[]":,é€😀'
        return unreadable("".join(rng.choice(alphabet) for _ in range(rng.randrange(40))))
    if choice == 8:
        whole = text({"type": "sync", "n": odd_value(rng)})
        return Hostile(text=whole[: rng.randrange(len(whole))])
    if choice == 9:
        return Hostile(text=text(rng.choice([*ODD_VALUES[:-2], "sync", ["sync"]])))
    if choice == 10:
        return Hostile(text=text({"type": odd_value(rng)}))
    if choice == 11:
        word = rng.choice(["SYNC", "Ping", "actions", "standin ", "admin", "", "__class__"])
        return Hostile(text=text({"type": word, "on": True}))
    if choice == 12:
        version = rng.choice([True, False, -1, 0.0, 1.5, "0", None, [], {}, 2**64 * -1])
        frame = {"type": "action", "action": some_action(rng), "expected_version": version}
        if rng.random() < 0.3:
            frame.pop("expected_version")
        return Hostile(text=text(frame))
    frame = rng.choice(
        [
            {"type": "action", "action": odd_value(rng), "expected_version": 0},
            {"type": "standin", "on": rng.choice([1, 0, "true", None, [], {}, "false"])},
            {"type": "standin"},
        ]
    )
    if isinstance(frame.get("action"), dict):  # odd_value made an object: make it not one
        frame["action"] = [frame["action"]]
    return Hostile(text=text(frame))


# --- The three kinds of socket -------------------------------------------------------------------


@dataclass
class Table:
    """The game under fire: seat 0 and seat 1's sockets, its version and the mover's actions."""

    version: int
    mover: int
    legal: list


def seated_frame(rng: random.Random, table: Table) -> tuple[int, Hostile]:
    """(which seat sends it, the frame): a player's hostile frames, valid envelopes included."""
    seat = rng.randrange(2)
    # Frames with a valid envelope reach the database (a locked read, then a fresh state read):
    # one in sixteen keeps the run within its time and still sends over six hundred.
    choice = rng.randrange(80)
    if choice < 75:
        return seat, envelope_garbage(rng)
    if choice < 77:  # a move, right or not, against a version that is not the game's
        version = rng.choice([table.version + 1, table.version + 2, 2**63, 10**30])
        action = rng.choice([*table.legal, some_action(rng)])
        frame = {"type": "action", "action": action, "expected_version": version}
        return seat, Hostile(text=text(frame), codes=frozenset({"stale"}))
    if choice < 78:  # the mover's own move, sent by the other seat, with a forged seat
        frame = {
            "type": "action",
            "action": rng.choice(table.legal),
            "expected_version": table.version,
            "seat": table.mover,
        }
        return 1 - table.mover, Hostile(text=text(frame), codes=frozenset({"not_your_turn"}))
    action = some_action(rng)
    while action in table.legal:
        action = some_action(rng)
    frame = {"type": "action", "action": action, "expected_version": table.version}
    if seat == table.mover:
        return seat, Hostile(text=text(frame), codes=frozenset({"illegal"}))
    return seat, Hostile(text=text(frame), codes=frozenset({"not_your_turn"}))


def spectator_frame(rng: random.Random, table: Table) -> Hostile:
    """A spectator's hostile frames: garbage, and valid moves and stand-ins it may not send."""
    if rng.random() < 0.6:
        return envelope_garbage(rng)
    frame = rng.choice(
        [
            {"type": "action", "action": rng.choice(table.legal), "expected_version": 0},
            {"type": "action", "action": some_action(rng), "expected_version": 7},
            {"type": "standin", "on": rng.choice([True, False]), "seat": table.mover},
        ]
    )
    return Hostile(text=text(frame), codes=frozenset({"not_seated"}))


def lobby_frame(rng: random.Random, table: Table) -> Hostile:
    """The lobby answers `sync` only: anything else is garbage to it, game frames included."""
    if rng.random() < 0.7:
        return envelope_garbage(rng)
    frame = rng.choice(
        [
            {"type": "action", "action": rng.choice(table.legal), "expected_version": 0},
            {"type": "standin", "on": True},
            {"type": "ping", "id": 1},
            {"type": odd_value(rng)},
            {"sync": True},
        ]
    )
    return Hostile(text=text(frame))


# --- Sending and checking ----------------------------------------------------------------------


async def send(socket, hostile: Hostile):
    # Straight to the application: the communicator's send_to refuses empty frames.
    if hostile.text is not None:
        await socket.send_input({"type": "websocket.receive", "text": hostile.text})
    else:
        await socket.send_input({"type": "websocket.receive", "bytes": hostile.data})


async def answer_to(socket, hostile: Hostile, baseline: dict | None) -> str:
    """Check the answer to one frame: an error of an allowed code with a message for people,
    then, for codes that resync, a state equal to the one before. Returns the code."""
    message = await socket.receive_output(timeout=ANSWER_TIMEOUT)
    assert message["type"] == "websocket.send", (hostile, message)
    error = json.loads(message["text"])
    assert error["type"] == "error" and error["code"] in hostile.codes, (hostile, error)
    assert isinstance(error["message"], str) and error["message"], (hostile, error)
    assert "Traceback" not in error["message"]
    if error["code"] in RESYNC_AFTER:
        assert error["version"] == baseline["version"]
        state = await next_frame(socket, timeout=ANSWER_TIMEOUT)
        assert state == baseline, hostile
    else:
        assert error["version"] is None
    return error["code"]


async def still_answers(socket):
    await socket.send_json_to({"type": "ping", "id": "still there?"})
    assert await next_frame(socket) == {"type": "pong", "id": "still there?"}


def everything(game_id: int):
    """What no hostile frame may change: the game row, its seats, its log, the tables."""
    game = Game.objects.get(pk=game_id)
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    return (
        game.version,
        game.snapshot,
        game.status,
        seats,
        Action.objects.count(),
        Game.objects.count(),
    )


def a_game_under_fire(make_user, make_table):
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob})
    start_game(game.pk)
    game.refresh_from_db()
    state = load_state(game)
    table = Table(game.version, current_player(state), legal_actions(state))
    return game, {0: alice, 1: bob}, table


def next_hostile(kind: str, rng: random.Random, table: Table) -> tuple[int | None, Hostile]:
    if kind == "seated":
        return seated_frame(rng, table)
    return None, (spectator_frame if kind == "spectator" else lobby_frame)(rng, table)


async def fire(kind: str, make_user, make_table):
    game, people, table = await database_sync_to_async(a_game_under_fire)(make_user, make_table)
    before = await database_sync_to_async(everything)(game.pk)
    path = f"/ws/games/{game.pk}/"
    if kind == "seated":
        sockets = {seat: await ws_connect(path, user) for seat, user in people.items()}
    else:
        sockets = {None: await ws_connect("/ws/lobby/" if kind == "lobby" else path)}
    baselines = {name: await next_frame(socket) for name, socket in sockets.items()}

    rng = random.Random(f"{SEED}-{kind}")
    codes: dict[str, int] = {}
    started = time.monotonic()
    for _ in range(FRAMES_PER_SOCKET // BATCH):
        # A batch is sent before its answers are read: frames queue up on the socket, as from a
        # client that does not wait, and the answers must still come one per frame, in order.
        batch = [next_hostile(kind, rng, table) for _ in range(BATCH)]
        for name, hostile in batch:
            await send(sockets[name], hostile)
        for name, hostile in batch:
            code = await answer_to(sockets[name], hostile, baselines[name])
            codes[code] = codes.get(code, 0) + 1
    elapsed = time.monotonic() - started

    for socket in sockets.values():
        await socket.send_json_to({"type": "sync"})
    for name, socket in sockets.items():
        after = await next_frame(socket)
        if kind == "lobby":  # its frame carries the time it was made: compare the tables
            assert after["tables"] == baselines[name]["tables"]
        else:
            assert after == baselines[name]
            await still_answers(socket)
        await socket.disconnect()
    assert await database_sync_to_async(everything)(game.pk) == before
    assert elapsed < SECONDS_PER_SOCKET, f"{FRAMES_PER_SOCKET} frames took {elapsed:.1f} s"
    return codes


async def test_a_seated_players_hostile_frames_are_refused_and_change_nothing(
    make_user, make_table
):
    codes = await fire("seated", make_user, make_table)
    assert set(codes) == {"malformed", "too_large", "stale", "not_your_turn", "illegal"}


async def test_a_spectators_hostile_frames_are_refused_and_change_nothing(make_user, make_table):
    codes = await fire("spectator", make_user, make_table)
    assert set(codes) == {"malformed", "too_large", "not_seated"}


async def test_hostile_frames_on_the_lobby_are_refused_and_change_nothing(make_user, make_table):
    codes = await fire("lobby", make_user, make_table)
    assert set(codes) == {"malformed", "too_large"}


# --- Frames that once crashed a signed-in socket ----------------------------------------------

# Ids no row has: out of range for a 64-bit key, or simply absent (0 and -1 are no ids at all).
ODD_IDS = [0, -1, 2**63 - 1, 2**63, 2**64, 10**30, 987_654_321]
# Text a database column cannot hold (PostgreSQL refuses NUL; UTF-8 has no lone surrogates).
UNSTORABLE_TEXTS = ["\u0000", "a\u0000b", "\ud800", "x\udfffy", "\ud83d hello"]


def crashing_chat_frames(staff: bool) -> list[Hostile]:
    """The chat frames that closed a signed-in socket with 1011, and their neighbours: each must
    get its error frame (mute, delete and join ids that name nothing; text no column can hold)."""
    delete_code = "chat_no_message" if staff else "chat_not_staff"
    frames = [Hostile(text=text({"type": "chat_mute", "on": True}))]  # no id at all: malformed
    for odd in ODD_IDS:
        frames += [
            Hostile(
                text=text({"type": "chat_mute", "user": odd, "on": on}),
                codes=frozenset({"chat_no_user"}),
            )
            for on in (True, False)
        ]
        frames.append(
            Hostile(text=text({"type": "chat_delete", "id": odd}), codes=frozenset({delete_code}))
        )
    frames.append(Hostile(text=text({"type": "chat_delete"})))
    frames += [
        Hostile(text=text({"type": "chat", "text": odd}), codes=frozenset({"chat_bad_text"}))
        for odd in UNSTORABLE_TEXTS
    ]
    return frames


def lobby_join_frames() -> list[Hostile]:
    """A lobby's chat_join naming a table no id can name."""
    return [
        Hostile(text=text({"type": "chat_join", "table": odd}), codes=frozenset({"chat_no_room"}))
        for odd in ODD_IDS
    ]


def chat_rows() -> tuple[int, int]:
    from games.chat.models import ChatMessage, ChatMute

    return ChatMessage.objects.count(), ChatMute.objects.count()


@pytest.mark.parametrize("staff", [False, True], ids=["person", "staff"])
@pytest.mark.parametrize("kind", ["game", "lobby"])
async def test_chat_frames_that_crashed_a_signed_in_socket_are_refused(
    kind, staff, make_user, make_table
):
    """`chat_mute` of a missing id or of an id past 2^63, chat text holding NUL or a lone
    surrogate: each closed a signed-in socket with 1011 (its presence and its socket slots left
    behind). Each is now answered with an error frame, the socket stays open, nothing is stored."""
    game, people, _ = await database_sync_to_async(a_game_under_fire)(make_user, make_table)
    alice = people[0]
    if staff:
        alice.is_staff = True
        await database_sync_to_async(alice.save)()
    if kind == "game":
        socket = await ws_connect(f"/ws/games/{game.pk}/", alice)
        baseline = await next_frame(socket)
        hostiles = crashing_chat_frames(staff)
    else:
        table = await database_sync_to_async(make_table)(2, people={0: alice})
        socket = await ws_connect("/ws/lobby/", alice)
        baseline = await next_frame(socket)
        await socket.send_json_to({"type": "chat_join", "table": table.pk})
        await next_frame(socket, "chat_history")
        hostiles = [*crashing_chat_frames(staff), *lobby_join_frames()]
    before = await database_sync_to_async(everything)(game.pk)
    for hostile in hostiles:
        await send(socket, hostile)
        await answer_to(socket, hostile, baseline)
    await still_answers(socket) if kind == "game" else None
    await socket.send_json_to({"type": "sync"})
    assert (await next_frame(socket))["type"] in {"state", "tables"}
    await socket.disconnect()
    assert await database_sync_to_async(everything)(game.pk) == before
    assert await database_sync_to_async(chat_rows)() == (0, 0)
