"""The authorization suite: who may do what to a game, table-driven, on the real stack.

Five actors: an anonymous visitor, a logged-in outsider (no seat at the table), the player of
another seat (seat 1), the seat's own player (seat 0) and a staff user (seated nowhere). Each
operation is tried by each actor, over HTTP (Django's test client, the real views and admin) or
over the game socket (WebsocketCommunicator on the real ASGI application with the actor's own
session: Redis channel layer and PostgreSQL under the production profile). The table says what
must happen: allowed (and the change it makes), or a refusal with the documented HTTP status or
socket error code; every refusal leaves the database exactly as it was.

Every URL name of games/urls.py must have at least one row here: a new URL without an
authorization row fails `test_every_url_of_the_site_has_an_authorization_row`.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from games import urls as game_urls
from games.engine import current_player, legal_actions
from games.models import Action, Game, Rating, RatingChange, Seat, User
from games.services import load_state, submit_action
from tests.services import in_ci, require_postgresql, require_redis
from tests.web.conftest import WS_TIMEOUT, ws_connect

ACTORS = ("anonymous", "outsider", "other_player", "own_player", "staff")
PEOPLE = ACTORS[1:]
LOGGED_IN = PEOPLE
LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
# Long enough that finding its digits in a page means the seed is there.
LONG_SEED = 7_318_902_114_653_229


@pytest.fixture(autouse=True)
def production_services_in_ci(announced):
    """Under CI (the production profile) the suite runs on PostgreSQL and the Redis layer.
    `announced` keeps jobs (bot turns, timers) from running behind the test's back."""
    if in_ci() or settings.REDIS_URL:
        require_redis()
    if in_ci():
        require_postgresql()


# --- The world: one started game, two open tables, a finished game ------------------------------


@dataclass
class World:
    users: dict
    playing: Game  # seat 0: own_player (to act first), seat 1: other_player
    table: Game  # open: seat 0 own_player, seat 1 other_player, seats 2 and 3 free
    last_seat: Game  # open: seat 0 own_player, seat 1 other_player, seat 2 free (joining starts)
    finished: Game | None = None  # played to the end on demand (see `finished_game`)
    notes: dict = field(default_factory=dict)


def build_world(make_user, make_table, start_stacked) -> World:
    users = {name: make_user(name) for name in PEOPLE}
    users["staff"].is_staff = users["staff"].is_superuser = True
    users["staff"].save()
    users["anonymous"] = None
    seated = {0: users["own_player"], 1: users["other_player"]}
    playing = start_stacked(make_table(2, people=seated, seed=LONG_SEED), first=0)
    table = make_table(4, people=seated)
    last_seat = make_table(3, people=seated)
    return World(users, playing, table, last_seat)


def finished_game(world: World) -> Game:
    """A game between the two players, played to its end through the one way in."""
    if world.finished is None:
        game = Game.objects.create(players=2, seed=77)
        Seat.objects.create(game=game, index=0, user=world.users["own_player"])
        Seat.objects.create(game=game, index=1, user=world.users["other_player"])
        from games.services import start_game

        start_game(game.pk)
        rng = random.Random(77)
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.PLAYING:
                break
            state = load_state(game)
            choice = rng.choice(legal_actions(state))
            submit_action(game.pk, current_player(state), choice, game.version)
        world.finished = game
    return world.finished


def fingerprint() -> tuple:
    """Everything an operation could change (times of the last write and sweep claims aside)."""
    return (
        list(
            Game.objects.order_by("pk").values_list(
                "pk", "status", "version", "snapshot", "seed", "turn_deadline", "result"
            )
        ),
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "game_id", "index", "user_id", "bot_level", "reserved_for_id", "standin"
            )
        ),
        list(Action.objects.order_by("pk").values_list("pk", "game_id", "seq", "seat")),
        list(Rating.objects.order_by("pk").values_list("pk", "mu", "sigma", "games")),
        RatingChange.objects.count(),
        list(User.objects.order_by("pk").values_list("pk", "is_staff", "password")),
    )


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


# --- Expected outcomes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """Done: the HTTP status (and redirect), or a state frame; `check` asserts the change."""

    status: int | None = None
    location: str | None = None
    check: Callable | None = None


@dataclass(frozen=True)
class Refused:
    """Refused with this HTTP status (redirect target) or socket error code, changing nothing."""

    status: int | None = None
    location: str | None = None
    code: str | None = None


def to_login(actor):
    return Refused(302, LOGIN)


# --- HTTP operations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HttpOp:
    name: str
    url_names: tuple[str, ...]
    method: str
    path: Callable  # (world) -> path
    expected: dict  # actor -> Allowed | Refused
    data: Callable = lambda world: {}
    prepare: Callable = lambda world: None
    forbidden_text: Callable = lambda world: ()  # strings the answer must never hold
    slow: bool = False  # plays a whole game first (about 2 s on PostgreSQL)


def everyone(outcome) -> dict:
    return {actor: outcome for actor in ACTORS}


def login_required(outcome) -> dict:
    return {"anonymous": to_login("anonymous"), **{actor: outcome for actor in LOGGED_IN}}


def staff_only(outcome) -> dict:
    refused = Refused(302, ADMIN_LOGIN)
    return {**{actor: refused for actor in ACTORS if actor != "staff"}, "staff": outcome}


def game_path(name):
    return lambda world: reverse(name, args=[world.playing.pk])


def admin_changelist(model: str) -> str:
    return reverse(f"admin:games_{model}_changelist")


def took_seat(who: str, table: str, index: int):
    def check(world):
        game = getattr(world, table)
        assert seat(game, index).user == world.users[who]

    return check


def started(world):
    world.last_seat.refresh_from_db()
    assert world.last_seat.status == Game.Status.PLAYING


def left(who: str, index: int, other_index: int):
    def check(world):
        assert seat(world.table, index).user is None
        assert seat(world.table, other_index).user is not None  # nobody else's seat

    return check


def aborted(world):
    world.playing.refresh_from_db()
    assert world.playing.status == Game.Status.ABORTED


def seat_zero_handed_over(world):
    assert seat(world.playing, 0).standin is True


def join_refused_for_seated(allowed: Allowed, refused_to: Callable) -> dict:
    return {
        "anonymous": to_login("anonymous"),
        "outsider": allowed,
        "other_player": refused_to(),
        "own_player": refused_to(),
        "staff": allowed,
    }


def rematch_seats(who: str, index: int):
    """The asker sits at their old seat of the finished game; the other player is invited."""

    def check(world):
        rematch = Game.objects.get(rematch_of=world.finished)
        other = {"own_player": "other_player", "other_player": "own_player"}[who]
        assert seat(rematch, index).user == world.users[who]
        assert seat(rematch, 1 - index).reserved_for == world.users[other]

    return check


def table_page(world_attr: str):
    return lambda world: reverse("table_detail", args=[getattr(world, world_attr).pk])


PUBLIC_PAGE = Allowed(200)
TABLE_URL = "/tables/"
GAME_URL = "/games/"

HTTP_OPS = [
    HttpOp("home page", ("home",), "get", lambda w: reverse("home"), everyone(PUBLIC_PAGE)),
    HttpOp("rules page", ("rules",), "get", lambda w: reverse("rules"), everyone(PUBLIC_PAGE)),
    HttpOp(
        "leaderboard",
        ("leaderboard",),
        "get",
        lambda w: reverse("leaderboard"),
        everyone(PUBLIC_PAGE),
    ),
    HttpOp("history", ("history",), "get", lambda w: reverse("history"), everyone(PUBLIC_PAGE)),
    HttpOp(
        "a player's page",
        ("player",),
        "get",
        lambda w: reverse("player", args=["own_player"]),
        everyone(PUBLIC_PAGE),
    ),
    HttpOp(
        "sign-up page",
        ("signup",),
        "get",
        lambda w: reverse("signup"),
        {"anonymous": PUBLIC_PAGE, **{a: Allowed(302, "/") for a in LOGGED_IN}},
    ),
    HttpOp(
        "log-in page",
        ("login",),
        "get",
        lambda w: reverse("login"),
        {"anonymous": PUBLIC_PAGE, **{a: Allowed(302, "/") for a in LOGGED_IN}},
    ),
    HttpOp(
        "log out", ("logout",), "post", lambda w: reverse("logout"), everyone(Allowed(302, "/"))
    ),
    HttpOp(
        "password change page",
        ("password_change",),
        "get",
        lambda w: reverse("password_change"),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp(
        "own profile",
        ("profile",),
        "get",
        lambda w: reverse("profile"),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp("play page", ("play",), "get", lambda w: reverse("play"), login_required(PUBLIC_PAGE)),
    HttpOp("lobby", ("lobby",), "get", lambda w: reverse("lobby"), login_required(PUBLIC_PAGE)),
    HttpOp(
        "new table page",
        ("table_new",),
        "get",
        lambda w: reverse("table_new"),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp(
        "play now by GET",
        ("play_now",),
        "get",
        lambda w: reverse("play_now"),
        login_required(Refused(405)),
    ),
    HttpOp(
        "my games", ("my_games",), "get", lambda w: reverse("my_games"), login_required(PUBLIC_PAGE)
    ),
    HttpOp(
        "import page",
        ("import_record",),
        "get",
        lambda w: reverse("import_record"),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp(
        "staff dashboard",
        ("staff_dashboard",),
        "get",
        lambda w: reverse("staff_dashboard"),
        staff_only(PUBLIC_PAGE),
    ),
    HttpOp(
        "the board of a game being played",
        ("game",),
        "get",
        game_path("game"),
        everyone(PUBLIC_PAGE),
        forbidden_text=lambda w: (str(w.playing.seed), w.playing.snapshot[:60]),
    ),
    HttpOp(
        "an open table's page",
        ("table_detail",),
        "get",
        table_page("table"),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp(
        "an invitation's page",
        ("invite",),
        "get",
        lambda w: reverse("invite", args=[w.table.invite_code]),
        login_required(PUBLIC_PAGE),
    ),
    HttpOp(
        "join a free seat",
        ("table_join",),
        "post",
        lambda w: reverse("table_join", args=[w.table.pk]),
        join_refused_for_seated(
            Allowed(302, TABLE_URL, check=None), lambda: Refused(302, TABLE_URL)
        ),
        data=lambda w: {"seat": "2"},
    ),
    HttpOp(
        "join a free seat by the invitation link",
        ("invite",),
        "post",
        lambda w: reverse("invite", args=[w.table.invite_code]),
        join_refused_for_seated(Allowed(302, TABLE_URL), lambda: Refused(302, TABLE_URL)),
        data=lambda w: {"seat": "2"},
    ),
    HttpOp(
        "take the seat another person holds",
        ("table_join",),
        "post",
        lambda w: reverse("table_join", args=[w.table.pk]),
        login_required(Refused(302, TABLE_URL)),
        data=lambda w: {"seat": "1"},
    ),
    HttpOp(
        "join a seat of a game being played",
        ("table_join",),
        "post",
        game_path("table_join"),
        login_required(Refused(302, GAME_URL)),
        data=lambda w: {"seat": "1"},
    ),
    HttpOp(
        "start a table by taking its last seat",
        ("table_join",),
        "post",
        lambda w: reverse("table_join", args=[w.last_seat.pk]),
        join_refused_for_seated(
            Allowed(302, GAME_URL, check=started), lambda: Refused(302, TABLE_URL)
        ),
    ),
    HttpOp(
        "leave an open table",
        ("table_leave",),
        "post",
        lambda w: reverse("table_leave", args=[w.table.pk]),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Refused(302, TABLE_URL),
            "other_player": Allowed(302, "/lobby/", check=left("other_player", 1, 0)),
            "own_player": Allowed(302, "/lobby/", check=left("own_player", 0, 1)),
            "staff": Refused(302, TABLE_URL),
        },
    ),
    HttpOp(
        "leave a game being played",
        ("table_leave",),
        "post",
        game_path("table_leave"),
        login_required(Refused(302, GAME_URL)),
    ),
    HttpOp(
        "the record of a game being played (its seed would show every card)",
        ("game_record",),
        "get",
        game_path("game_record"),
        everyone(Refused(404)),
    ),
    HttpOp(
        "the record of a finished game",
        ("game_record",),
        "get",
        lambda w: reverse("game_record", args=[finished_game(w).pk]),
        everyone(PUBLIC_PAGE),
        slow=True,
    ),
    HttpOp(
        "the replay page of a game being played",
        ("replay",),
        "get",
        game_path("replay"),
        everyone(Refused(302, GAME_URL)),
    ),
    HttpOp(
        "the replay frames of a game being played",
        ("replay_frames",),
        "get",
        game_path("replay_frames"),
        everyone(Refused(404)),
    ),
    HttpOp(
        "the replay of a finished game",
        ("replay", "replay_frames"),
        "get",
        lambda w: reverse("replay_frames", args=[finished_game(w).pk]),
        everyone(PUBLIC_PAGE),
        slow=True,
    ),
    HttpOp(
        "ask for a rematch of a game being played",
        ("rematch",),
        "post",
        game_path("rematch"),
        login_required(Refused(302, GAME_URL)),
    ),
    HttpOp(
        "ask for a rematch of a finished game (only its players; one table however often)",
        ("rematch",),
        "post",
        lambda w: reverse("rematch", args=[finished_game(w).pk]),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Refused(403),
            "other_player": Allowed(302, TABLE_URL, check=rematch_seats("other_player", 1)),
            "own_player": Allowed(302, TABLE_URL, check=rematch_seats("own_player", 0)),
            "staff": Refused(403),
        },
        slow=True,
    ),
    HttpOp(
        "the admin page of a game being played",
        (),
        "get",
        lambda w: reverse("admin:games_game_change", args=[w.playing.pk]),
        staff_only(PUBLIC_PAGE),
        forbidden_text=lambda w: (str(w.playing.seed), w.playing.snapshot[:60], "snapshot"),
    ),
    HttpOp(
        "an admin filter on the seed",
        (),
        "get",
        lambda w: admin_changelist("game") + f"?seed={w.playing.seed}",
        staff_only(Refused(400)),
    ),
    HttpOp(
        "an admin filter on the snapshot",
        (),
        "get",
        lambda w: admin_changelist("seat") + "?game__snapshot__contains=m10",
        staff_only(Refused(400)),
    ),
    HttpOp(
        "abort a game (the admin's action)",
        (),
        "post",
        lambda w: admin_changelist("game"),
        staff_only(Allowed(302, admin_changelist("game"), check=aborted)),
        data=lambda w: {
            "action": "abort_games",
            ACTION_CHECKBOX_NAME: [str(w.playing.pk)],
            "index": "0",
        },
    ),
    HttpOp(
        "hand a seat to the stand-in (the admin's action)",
        (),
        "post",
        lambda w: admin_changelist("seat"),
        staff_only(Allowed(302, admin_changelist("seat"), check=seat_zero_handed_over)),
        data=lambda w: {
            "action": "hand_to_standin",
            ACTION_CHECKBOX_NAME: [str(seat(w.playing, 0).pk)],
            "index": "0",
        },
    ),
]

# The join rows' checks name the joiner, so they are filled per actor below.
JOIN_CHECKS = {
    "join a free seat": lambda actor: took_seat(actor, "table", 2),
    "join a free seat by the invitation link": lambda actor: took_seat(actor, "table", 2),
}


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(
    "op",
    [pytest.param(op, marks=[pytest.mark.slow] if op.slow else [], id=op.name) for op in HTTP_OPS],
)
def test_http_operation(op, actor, make_user, make_table, start_stacked):
    world = build_world(make_user, make_table, start_stacked)
    op.prepare(world)
    path, data = op.path(world), op.data(world)
    client = client_for(world.users[actor])
    before = fingerprint()

    response = getattr(client, op.method)(path, data)

    expected = op.expected[actor]
    assert response.status_code == expected.status, (op.name, actor, response.status_code)
    if expected.location is not None:
        assert response["Location"].startswith(expected.location), (op.name, actor)
    if isinstance(expected, Refused):
        assert fingerprint() == before, f"{op.name} by {actor} was refused but changed the data"
    else:
        check = expected.check or JOIN_CHECKS.get(op.name, lambda actor: None)(actor)
        if check is not None:
            check(world)
    if response.status_code == 200 and not response.streaming:
        body = response.content.decode()
        for secret in op.forbidden_text(world):
            assert secret not in body, (op.name, actor, secret)


# --- Socket operations --------------------------------------------------------------------------


@dataclass(frozen=True)
class SocketOp:
    name: str
    frame: dict
    expected: dict  # actor -> Allowed (a state frame follows; check it) | Refused (an error)
    prepare: Callable = lambda world: None


def seat_standin(index: int, on: bool):
    def check(world):
        assert seat(world.playing, index).standin is on

    return check


def only_own_seat_handed_over(world):
    assert seat(world.playing, 1).standin is True
    assert seat(world.playing, 0).standin is False


def seat_zero_moved(world):
    world.playing.refresh_from_db()
    assert world.playing.version == 1
    assert Action.objects.get(game=world.playing).seat == 0


def first_region(world) -> dict:
    return legal_actions(load_state(world.playing))[0]


NOT_SEATED = Refused(code="not_seated")
SPECTATORS = {a: NOT_SEATED for a in ("anonymous", "outsider", "staff")}

SOCKET_OPS = [
    SocketOp(
        "act for seat 0",
        # A frame cannot name a seat: the "seat" key is ignored, the socket's seat is its own.
        {"type": "action", "action": None, "expected_version": 0, "seat": 0},
        {
            **SPECTATORS,
            "other_player": Refused(code="not_your_turn"),
            "own_player": Allowed(check=seat_zero_moved),
        },
    ),
    SocketOp(
        "hand seat 0 to the stand-in",
        {"type": "standin", "on": True, "seat": 0},
        {
            **SPECTATORS,
            # Their frame hands over their own seat, never seat 0.
            "other_player": Allowed(check=only_own_seat_handed_over),
            "own_player": Allowed(check=seat_standin(0, True)),
        },
    ),
    SocketOp(
        "take seat 0 back from the stand-in",
        {"type": "standin", "on": False, "seat": 0},
        {
            **SPECTATORS,
            # Their own seat is already theirs: nothing happens, nothing is sent.
            "other_player": Refused(code=None),
            "own_player": Allowed(check=seat_standin(0, False)),
        },
        prepare=lambda world: Seat.objects.filter(game=world.playing, index=0).update(standin=True),
    ),
]


async def next_answer(socket, *, silence_expected: bool) -> dict:
    """The next error or state frame. When the server should send nothing, a ping goes after the
    frame and its pong comes back as {"type": "nothing"} (frames on one socket are in order; a
    change's state frame comes through the channel layer, later than a pong would)."""
    if silence_expected:
        await socket.send_json_to({"type": "ping", "id": "after"})
    while True:
        frame = await socket.receive_json_from(timeout=WS_TIMEOUT)
        if frame["type"] == "pong" and frame["id"] == "after":
            return {"type": "nothing"}
        if frame["type"] in ("error", "state"):
            return frame


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("op", SOCKET_OPS, ids=lambda op: op.name)
async def test_socket_operation(op, actor, make_user, make_table, start_stacked):
    def set_up():
        world = build_world(make_user, make_table, start_stacked)
        op.prepare(world)
        frame = dict(op.frame)
        if frame["type"] == "action":
            frame["action"] = first_region(world)
        return world, frame, fingerprint()

    world, frame, before = await database_sync_to_async(set_up)()
    socket = await ws_connect(f"/ws/games/{world.playing.pk}/", world.users[actor])
    first = await socket.receive_json_from(timeout=WS_TIMEOUT)
    assert first["type"] == "state" and first["version"] == 0

    expected = op.expected[actor]
    await socket.send_json_to(frame)
    silence = isinstance(expected, Refused) and expected.code is None
    answer = await next_answer(socket, silence_expected=silence)
    await socket.disconnect()

    if isinstance(expected, Refused):
        if expected.code is None:
            assert answer["type"] == "nothing", (op.name, actor, answer)
        else:
            assert answer["type"] == "error" and answer["code"] == expected.code, answer
        after = await database_sync_to_async(fingerprint)()
        assert after == before, f"{op.name} by {actor} was refused but changed the data"
    else:
        assert answer["type"] == "state", (op.name, actor, answer)
        await database_sync_to_async(expected.check)(world)


# --- The table covers the site ------------------------------------------------------------------


def test_every_url_of_the_site_has_an_authorization_row():
    named = {pattern.name for pattern in game_urls.urlpatterns}
    covered = {name for op in HTTP_OPS for name in op.url_names}
    assert named - covered == set(), "a URL without an authorization row"
    assert covered - named == set(), "a row names a URL that does not exist"


def test_every_row_says_what_each_actor_gets():
    for op in [*HTTP_OPS, *SOCKET_OPS]:
        assert set(op.expected) == set(ACTORS), op.name
