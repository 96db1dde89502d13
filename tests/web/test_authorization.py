"""The authorization suite: who may do what to a game, table-driven, on the real stack.

Five actors: an anonymous visitor, a logged-in outsider (no seat at the table), the player of
another seat (seat 1), the seat's own player (seat 0) and a staff user (seated nowhere). Each
operation is tried by each actor, over HTTP (Django's test client, the real views and admin) or
over the game socket (WebsocketCommunicator on the real ASGI application with the actor's own
session: Redis channel layer and PostgreSQL under the production profile). The table says what
must happen: allowed (and the change it makes), or a refusal with the documented HTTP status or
socket error code; every refusal leaves the database exactly as it was.

Every named URL of the site (every app's urls.py reached from condottiere_site/urls.py, Django's
admin and language switch aside) must have at least one row here: a new URL without an
authorization row fails `test_every_url_of_the_site_has_an_authorization_row`.
"""

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games.accounts.email import send_password_reset, verification_token
from games.analysis import hint_search
from games.analysis.models import Analysis
from games.botapi import accounts as bot_accounts
from games.botapi import tokens as bot_tokens
from games.botapi.models import SCOPES, AccessToken, BotAccount, Challenge
from games.chat.models import ChatMessage, ChatMute, Room
from games.engine import current_player, legal_actions, new_game
from games.engine.cards import CODES
from games.lobby import rematch as lobby_rematch
from games.matches.models import Match, MatchGame
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
    # Made on demand by the rows that need them (most rows don't): see `the_match`, `the_bot`.
    match: Match | None = None  # for points, its first game `playing`
    bot: User | None = None  # a bot account owned by own_player
    bot_token: AccessToken | None = None  # the bot's token, both scopes
    bot_secret: str = ""


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


def the_match(world: World) -> Match:
    """A match for points between the two players, its first game the one being played."""
    if world.match is None:
        world.match = Match.objects.create(
            players=2, target=20, created_by=world.users["own_player"]
        )
        MatchGame.objects.create(match=world.match, game=world.playing, number=1, seats=[0, 1])
    return world.match


def the_bot(world: World) -> User:
    """own_player's bot account and a token of it with both scopes."""
    if world.bot is None:
        world.bot = bot_accounts.create_bot_account(world.users["own_player"], "own_bot")
        new = bot_tokens.create_token(world.bot, "laptop", list(SCOPES))
        world.bot_token, world.bot_secret = new.token, new.secret
    return world.bot


def fingerprint() -> tuple:
    """Everything an operation could change (times of the last write or use, and sweep claims,
    aside), the mails sent included."""
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
        list(
            User.objects.order_by("pk").values_list(
                "pk",
                "username",
                "display_name",
                "is_active",
                "is_staff",
                "password",
                "email",
                "pending_email",
                "deleted_at",
            )
        ),
        list(
            ChatMessage.objects.order_by("pk").values_list(
                "pk", "game_id", "room", "user_id", "text", "deleted"
            )
        ),
        ChatMute.objects.count(),
        list(
            Match.objects.order_by("pk").values_list(
                "pk", "status", "ready", "next_game_at", "result"
            )
        ),
        list(MatchGame.objects.order_by("pk").values_list("pk", "match_id", "game_id", "points")),
        list(BotAccount.objects.order_by("pk").values_list("pk", "owner_id")),
        list(
            AccessToken.objects.order_by("pk").values_list(
                "pk", "user_id", "digest", "scopes", "revoked_at"
            )
        ),
        list(Challenge.objects.order_by("pk").values_list("pk", "game_id", "status")),
        [message.to for message in getattr(mail, "outbox", [])],
    )


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


# --- Expected outcomes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """Done: the HTTP status (and redirect), or a socket frame of type `frame`; `check` asserts
    the change; the answer's body holds every string of `shows` and none of `hides`."""

    status: int | None = None
    location: str | None = None
    check: Callable | None = None
    shows: Callable = lambda world: ()
    hides: Callable = lambda world: ()
    frame: str = "state"


@dataclass(frozen=True)
class Refused:
    """Refused with this HTTP status (redirect target) or socket error code (for the Bot API's
    JSON refusals, its "error" code), changing nothing; the body holds none of `hides`."""

    status: int | None = None
    location: str | None = None
    code: str | None = None
    hides: Callable = lambda world: ()


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
    headers: Callable = lambda world: {}  # e.g. a Bot API token, sent along with the session
    json_body: bool = False  # `data` goes as a JSON body (the Bot API), not as a form


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


def offered_rematch(world):
    """own_player asked for a rematch of the finished game: other_player's seat waits for them."""
    lobby_rematch.rematch(finished_game(world).pk, world.users["own_player"])


def rematch_declined(world):
    declined = seat(Game.objects.get(rematch_of=world.finished), 1)
    assert (declined.user, declined.reserved_for) == (None, None)


def table_page(world_attr: str):
    return lambda world: reverse("table_detail", args=[getattr(world, world_attr).pk])


PUBLIC_PAGE = Allowed(200)
TABLE_URL = "/tables/"
GAME_URL = "/games/"

HTTP_OPS = [
    HttpOp("home page", ("home",), "get", lambda w: reverse("home"), everyone(PUBLIC_PAGE)),
    HttpOp("rules page", ("rules",), "get", lambda w: reverse("rules"), everyone(PUBLIC_PAGE)),
    HttpOp(
        "Renaissance rules page",
        ("rules_renaissance",),
        "get",
        lambda w: reverse("rules_renaissance"),
        everyone(PUBLIC_PAGE),
    ),
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
        "decline a rematch (only the person it waits for; their seat opens to anyone)",
        ("rematch_decline",),
        "post",
        lambda w: reverse("rematch_decline", args=[w.finished.pk]),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Refused(302, GAME_URL),
            "other_player": Allowed(302, GAME_URL, check=rematch_declined),
            "own_player": Refused(302, GAME_URL),  # the one who asked: nothing waits for them
            "staff": Refused(302, GAME_URL),
        },
        prepare=offered_rematch,
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


# --- Accounts: the e-mail address, password reset, deleting an account (docs/accounts.md) -----

PROFILE_URL = "/accounts/profile/"
OWN_ADDRESS = "own-player@example.com"
NEW_ADDRESS = "new-address@example.com"
PASSWORD = "a long enough pass phrase"
SET_PASSWORD = "set-password"  # the confirm view's own "token" once the link is in the session


def own(world) -> User:
    return world.users["own_player"]


def set_own(**fields):
    """A `prepare`: own_player's account gets these fields (e-mail addresses)."""

    def prepare(world):
        User.objects.filter(pk=own(world).pk).update(**fields)
        own(world).refresh_from_db()

    return prepare


def give_passwords(world):
    """Every person gets PASSWORD (on the same objects the clients log in with, so that their
    sessions stay valid)."""
    for actor in PEOPLE:
        world.users[actor].set_password(PASSWORD)
        world.users[actor].save(update_fields=["password"])


def both(*prepares):
    def prepare(world):
        for step in prepares:
            step(world)

    return prepare


def column(name: str) -> dict:
    return dict(User.objects.values_list("username", name))


def address_waits(actor: str):
    """Only the asker's account has the new address waiting, and its link was mailed there."""

    def check(world):
        assert column("pending_email") == {a: NEW_ADDRESS if a == actor else "" for a in PEOPLE}
        assert [message.to for message in mail.outbox] == [[NEW_ADDRESS]]

    return check


def mailed_to(address: str):
    def check(world):
        assert [message.to for message in mail.outbox] == [[address]]

    return check


def reset_job_mails(address: str):
    """The reset request leaves the mail to a job (games/accounts/email.py): run here as a worker
    runs it (a worker's own path is tested in tests/web/test_account_email.py), it mails the
    link to the verified address only."""

    def check(world):
        assert mail.outbox == []  # not sent by the request
        send_password_reset(address, "testserver", False, "en")
        assert [message.to for message in mail.outbox] == [[address]]

    return check


def own_address(verified: str, pending: str):
    def check(world):
        assert column("email")["own_player"] == verified
        assert column("pending_email")["own_player"] == pending

    return check


def deleted_account(actor: str):
    """The asker's account is scrubbed (and no one else's)."""

    def check(world):
        gone = User.objects.get(pk=world.users[actor].pk)
        assert gone.deleted_at is not None and not gone.is_active
        assert set(column("username")) - {gone.username} == set(PEOPLE) - {actor}

    return check


def verify_path(world) -> str:
    return reverse("email_verify", args=[verification_token(own(world))])


def reset_path(token: Callable):
    def path(world):
        uid = urlsafe_base64_encode(force_bytes(own(world).pk))
        return reverse("password_reset_confirm", args=[uid, token(world)])

    return path


def password_unchanged(world):
    assert User.objects.get(pk=own(world).pk).password == own(world).password


def own_only(allowed: Allowed, refused: Refused) -> dict:
    """Only own_player may; anonymous is asked to log in."""
    return {
        "anonymous": to_login("anonymous"),
        **{actor: refused for actor in ("outsider", "other_player", "staff")},
        "own_player": allowed,
    }


def per_person(outcome: Callable) -> dict:
    """Logged-in people each get `outcome(actor)`; anonymous is asked to log in."""
    return {"anonymous": to_login("anonymous"), **{actor: outcome(actor) for actor in LOGGED_IN}}


HTTP_OPS += [
    HttpOp(
        "set a new e-mail address (one's own account only: no field names another)",
        ("email_change",),
        "post",
        lambda w: reverse("email_change"),
        per_person(lambda actor: Allowed(302, PROFILE_URL, check=address_waits(actor))),
        data=lambda w: {"email": NEW_ADDRESS, "username": "own_player", "user": own(w).pk},
    ),
    HttpOp(
        "send own_player's verification link again",
        ("email_resend",),
        "post",
        lambda w: reverse("email_resend"),
        own_only(
            Allowed(302, PROFILE_URL, check=mailed_to(OWN_ADDRESS)), Refused(302, PROFILE_URL)
        ),
        prepare=set_own(pending_email=OWN_ADDRESS),
    ),
    HttpOp(
        "remove own_player's verified address",
        ("email_remove",),
        "post",
        lambda w: reverse("email_remove"),
        own_only(Allowed(302, PROFILE_URL, check=own_address("", "")), Refused(302, PROFILE_URL)),
        data=lambda w: {"address": "verified"},
        prepare=set_own(email=OWN_ADDRESS),
    ),
    HttpOp(
        "open own_player's verification link (it changes nothing; only they see the address)",
        ("email_verify",),
        "get",
        verify_path,
        own_only(
            Allowed(200, check=own_address("", OWN_ADDRESS), shows=lambda w: (OWN_ADDRESS,)),
            Refused(400, hides=lambda w: (OWN_ADDRESS,)),
        ),
        prepare=set_own(pending_email=OWN_ADDRESS),
    ),
    HttpOp(
        "verify own_player's address by the link's button",
        ("email_verify",),
        "post",
        verify_path,
        own_only(
            Allowed(302, PROFILE_URL, check=own_address(OWN_ADDRESS, "")),
            Refused(400, hides=lambda w: (OWN_ADDRESS,)),
        ),
        prepare=set_own(pending_email=OWN_ADDRESS),
    ),
    HttpOp(
        "delete one's own account (refused while one's table is open or game played)",
        ("account_delete",),
        "post",
        lambda w: reverse("account_delete"),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Allowed(302, "/", check=deleted_account("outsider")),
            "other_player": Refused(400),
            "own_player": Refused(400),
            "staff": Allowed(302, "/", check=deleted_account("staff")),
        },
        data=lambda w: {"password": PASSWORD},
        prepare=give_passwords,
    ),
    HttpOp(
        "log one's own account out everywhere else (confirmed by the password)",
        ("log_out_everywhere",),
        "post",
        lambda w: reverse("log_out_everywhere"),
        login_required(Allowed(302, PROFILE_URL)),
        data=lambda w: {"sessions-password": PASSWORD},
        prepare=give_passwords,
    ),
    HttpOp(
        "password reset page",
        ("password_reset",),
        "get",
        lambda w: reverse("password_reset"),
        everyone(PUBLIC_PAGE),
    ),
    HttpOp(
        "ask for a reset of own_player's password (the link goes to their verified address)",
        ("password_reset",),
        "post",
        lambda w: reverse("password_reset"),
        everyone(
            Allowed(302, "/accounts/password/reset/sent/", check=reset_job_mails(OWN_ADDRESS))
        ),
        data=lambda w: {"email": OWN_ADDRESS},
        prepare=both(set_own(email=OWN_ADDRESS), give_passwords),
    ),
    HttpOp(
        "password reset sent page",
        ("password_reset_done",),
        "get",
        lambda w: reverse("password_reset_done"),
        everyone(PUBLIC_PAGE),
    ),
    HttpOp(
        "open own_player's reset link (whoever holds the link; it changes nothing yet)",
        ("password_reset_confirm",),
        "get",
        reset_path(lambda w: default_token_generator.make_token(own(w))),
        everyone(Allowed(302, "/accounts/password/reset/", check=password_unchanged)),
    ),
    HttpOp(
        "open a forged reset link for own_player",
        ("password_reset_confirm",),
        "get",
        reset_path(lambda w: "cb5k1z-0123456789abcdef0123456789abcdef"),
        everyone(Refused(200)),
    ),
    HttpOp(
        "set own_player's password without having opened their link",
        ("password_reset_confirm",),
        "post",
        reset_path(lambda w: SET_PASSWORD),
        everyone(Refused(200)),
        data=lambda w: {
            "new_password1": "Another pass phrase 9",
            "new_password2": "Another pass phrase 9",
        },
    ),
    HttpOp(
        "password reset done page",
        ("password_reset_complete",),
        "get",
        lambda w: reverse("password_reset_complete"),
        everyone(PUBLIC_PAGE),
    ),
]


# --- Matches for points (docs/matches.md) ----------------------------------------------------


def match_path(name: str):
    return lambda world: reverse(name, args=[the_match(world).pk])


def between_games(world):
    """The match waits for its next game (its first game scored), so "ready" means something."""
    Match.objects.filter(pk=the_match(world).pk).update(
        next_game_at=timezone.now() + timedelta(seconds=60)
    )
    MatchGame.objects.filter(match=world.match).update(points=[1, 0])


def said_ready(index: int):
    def check(world):
        assert Match.objects.get(pk=world.match.pk).ready == [index]
        assert MatchGame.objects.filter(match=world.match).count() == 1  # no game opened yet

    return check


def match_created_by(actor: str, status: str):
    def check(world):
        match = Match.objects.get(created_by=world.users[actor])
        first = MatchGame.objects.get(match=match, number=1).game
        assert first.status == status
        assert first.seats.filter(user=world.users[actor]).exists()

    return check


PLAYING_GAME_SECRETS = lambda w: (str(w.playing.seed), w.playing.snapshot[:60])  # noqa: E731
MATCH_URL = "/matches/"

HTTP_OPS += [
    HttpOp(
        "the list of matches",
        ("matches",),
        "get",
        lambda w: reverse("matches"),
        everyone(PUBLIC_PAGE),
        prepare=the_match,
        forbidden_text=PLAYING_GAME_SECRETS,
    ),
    HttpOp(
        "the page of a match being played",
        ("match",),
        "get",
        match_path("match"),
        everyone(PUBLIC_PAGE),
        forbidden_text=PLAYING_GAME_SECRETS,
    ),
    HttpOp(
        "the JSON of a match being played",
        ("match_json",),
        "get",
        match_path("match_json"),
        everyone(PUBLIC_PAGE),
        forbidden_text=PLAYING_GAME_SECRETS,
    ),
    HttpOp(
        "the match of a game being played",
        ("match_of_game",),
        "get",
        lambda w: reverse("match_of_game", args=[the_match(w).entries.get().game_id]),
        everyone(PUBLIC_PAGE),
        forbidden_text=PLAYING_GAME_SECRETS,
    ),
    HttpOp(
        "say ready for the next game of a match (its players only)",
        ("match_ready",),
        "post",
        match_path("match_ready"),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Refused(302, MATCH_URL),
            "other_player": Allowed(302, GAME_URL, check=said_ready(1)),
            "own_player": Allowed(302, GAME_URL, check=said_ready(0)),
            "staff": Refused(302, MATCH_URL),
        },
        prepare=between_games,
    ),
    HttpOp(
        "the record of a match being played (its game's seed would show every card)",
        ("match_record",),
        "get",
        match_path("match_record"),
        everyone(Refused(404)),
    ),
    HttpOp(
        "open a table for points",
        ("match_table_new",),
        "post",
        lambda w: reverse("match_table_new"),
        per_person(
            lambda actor: Allowed(302, TABLE_URL, check=match_created_by(actor, Game.Status.OPEN))
        ),
        data=lambda w: {
            "play_for_points": "on",
            "target": "20",
            "players": "2",
            "seat_0_kind": "me",
            "seat_1_kind": "open",
        },
    ),
    HttpOp(
        "play for points against the site's bots",
        ("match_play",),
        "post",
        lambda w: reverse("match_play"),
        per_person(
            lambda actor: Allowed(302, GAME_URL, check=match_created_by(actor, Game.Status.PLAYING))
        ),
        data=lambda w: {"play_for_points": "on", "target": "20", "bots": "1", "level": "heuristic"},
    ),
]


# --- Table talk: a room's history (docs/protocol.md, section 16) ------------------------------

PLAYERS_WORDS = "words for the players' room only"
SPECTATORS_WORDS = "words for the spectators' room only"


def talk_in_both_rooms(world):
    ChatMessage.objects.create(
        game=world.playing, room=Room.PLAYERS, user=own(world), seat=0, text=PLAYERS_WORDS
    )
    ChatMessage.objects.create(
        game=world.playing,
        room=Room.SPECTATORS,
        user=world.users["outsider"],
        text=SPECTATORS_WORDS,
    )


SEES_PLAYERS_ROOM = Allowed(
    200, shows=lambda w: (PLAYERS_WORDS,), hides=lambda w: (SPECTATORS_WORDS,)
)
SEES_SPECTATORS_ROOM = Allowed(
    200, shows=lambda w: (SPECTATORS_WORDS,), hides=lambda w: (PLAYERS_WORDS,)
)

HTTP_OPS += [
    HttpOp(
        "the chat history of a game being played (the players' room for its seats only)",
        ("chat_history",),
        "get",
        game_path("chat_history"),
        {
            **{actor: SEES_SPECTATORS_ROOM for actor in ("anonymous", "outsider", "staff")},
            "other_player": SEES_PLAYERS_ROOM,
            "own_player": SEES_PLAYERS_ROOM,
        },
        prepare=talk_in_both_rooms,
    ),
]


# --- The Bot API (docs/bot-api.md) and the pages of bot accounts -------------------------------

NO_TOKEN = Refused(401, code="no_token")  # a session is not a token
BOT_NAME = "own_bot"


def bearer(world) -> dict:
    the_bot(world)
    return {"Authorization": f"Bearer {world.bot_secret}"}


def api_op(name: str, url_name: str, method: str, path: Callable, data=lambda w: {}) -> HttpOp:
    """An endpoint asked with the actor's session and no token: refused, 401 `no_token`."""
    return HttpOp(
        f"{name}, with a session and no token",
        (url_name,),
        method,
        path,
        everyone(NO_TOKEN),
        data=data,
        json_body=True,
        prepare=the_bot,
    )


def bot_owns(actor: str, username: str):
    def check(world):
        bot = BotAccount.objects.get(user__username=username)
        assert bot.owner == world.users[actor]

    return check


def became_bot(actor: str):
    def check(world):
        user = world.users[actor]
        assert BotAccount.objects.filter(user=user, owner=None).exists()
        assert AccessToken.objects.filter(user=user, revoked_at=None).count() == 1

    return check


def bot_has_tokens(count: int):
    def check(world):
        assert AccessToken.objects.filter(user=world.bot, revoked_at=None).count() == count

    return check


def challenged_by(actor: str):
    def check(world):
        challenge = Challenge.objects.get(bot=world.bot)
        assert challenge.challenger == world.users[actor]
        assert seat(challenge.game, 1).reserved_for == world.bot

    return check


def bot_path(name: str):
    return lambda world: reverse(name, args=[the_bot(world).username])


HTTP_OPS += [
    api_op("the bot's account", "botapi_account", "get", lambda w: reverse("botapi_account")),
    api_op(
        "revoke the request's own token",
        "botapi_revoke_own_token",
        "post",
        lambda w: reverse("botapi_revoke_own_token"),
    ),
    api_op("the event stream", "botapi_stream", "get", lambda w: reverse("botapi_stream")),
    api_op("accept a challenge", "botapi_accept", "post", game_path("botapi_accept")),
    api_op("decline a challenge", "botapi_decline", "post", game_path("botapi_decline")),
    api_op("open a table", "botapi_open_table", "post", lambda w: reverse("botapi_open_table")),
    api_op(
        "join a table",
        "botapi_join_table",
        "post",
        lambda w: reverse("botapi_join_table", args=[w.table.pk]),
    ),
    api_op(
        "move in a game being played",
        "botapi_move",
        "post",
        game_path("botapi_move"),
        data=lambda w: {"action": first_region(w), "expected_version": 0},
    ),
    api_op("a game's state", "botapi_state", "get", game_path("botapi_state")),
    HttpOp(
        "the bot's account, with its token (whoever's session comes along)",
        ("botapi_account",),
        "get",
        lambda w: reverse("botapi_account"),
        everyone(Allowed(200, shows=lambda w: (f'"username": "{BOT_NAME}"',))),
        headers=bearer,
    ),
    HttpOp(
        "a move in a game the bot has no seat in, with its token",
        ("botapi_move",),
        "post",
        game_path("botapi_move"),
        everyone(Refused(403, code="not_seated")),
        data=lambda w: {"action": first_region(w), "expected_version": 0},
        headers=bearer,
        json_body=True,
    ),
    HttpOp(
        "make a bot account (owned by whoever makes it)",
        ("botapi_create_bot",),
        "post",
        lambda w: reverse("botapi_create_bot"),
        per_person(lambda actor: Allowed(302, PROFILE_URL, check=bot_owns(actor, "new_bot"))),
        data=lambda w: {"username": "new_bot"},
    ),
    HttpOp(
        "turn one's account into a bot (only a fresh account that never sat, not staff)",
        ("botapi_upgrade",),
        "post",
        lambda w: reverse("botapi_upgrade"),
        {
            "anonymous": to_login("anonymous"),
            "outsider": Allowed(200, check=became_bot("outsider")),
            "other_player": Refused(302, PROFILE_URL),
            "own_player": Refused(302, PROFILE_URL),
            "staff": Refused(302, PROFILE_URL),
        },
        data=lambda w: {"confirm": "on"},
    ),
    HttpOp(
        "make a token for own_player's bot (its owner only)",
        ("botapi_create_token",),
        "post",
        bot_path("botapi_create_token"),
        own_only(Allowed(200, check=bot_has_tokens(2)), Refused(404)),
        data=lambda w: {"name": "server", "scopes": ["bot:play"]},
    ),
    HttpOp(
        "revoke a token of own_player's bot (its owner only)",
        ("botapi_revoke_token",),
        "post",
        lambda w: reverse("botapi_revoke_token", args=[the_bot(w) and w.bot_token.pk]),
        own_only(Allowed(302, PROFILE_URL, check=bot_has_tokens(0)), Refused(404)),
    ),
    HttpOp(
        "challenge own_player's bot (anyone logged in; the table is the challenger's)",
        ("botapi_challenge",),
        "post",
        bot_path("botapi_challenge"),
        per_person(lambda actor: Allowed(302, TABLE_URL, check=challenged_by(actor))),
        data=lambda w: {"players": "2", "level": "heuristic"},
    ),
]


# --- Computer analysis and hints (docs/protocol.md, section 13) ---------------------------------


def analysis_asked(world):
    analysis = Analysis.objects.get(game=finished_game(world))
    assert analysis.status == Analysis.Status.QUEUED


def game_against_a_bot(world) -> Game:
    """own_player (seat 0, to act first) against one of the site's bots: no other person."""
    if "bots_game" not in world.notes:
        game = Game.objects.create(players=2, seed=LONG_SEED + 1)
        Seat.objects.create(game=game, index=0, user=world.users["own_player"])
        Seat.objects.create(game=game, index=1, bot_level="heuristic")
        state = new_game(2, seed=game.seed, first=0)
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.PLAYING, version=0, snapshot=state.to_json()
        )
        world.notes["bots_game"] = game
    return world.notes["bots_game"]


def hint_path(world) -> str:
    return reverse("analysis_hint", args=[game_against_a_bot(world).pk])


def hint_answer_path(world) -> str:
    """Where own_player reads a hint they asked for (its search not run: no job is announced)."""
    game = game_against_a_bot(world)
    token = hint_search.open_entry(world.users["own_player"], game, 0)
    return reverse("analysis_hint_answer", args=[game.pk, token])


NOT_SEATED = Refused(403, code="not_seated")

HTTP_OPS += [
    HttpOp(
        "ask for the analysis of a game being played",
        ("analysis_request",),
        "post",
        game_path("analysis_request"),
        login_required(Refused(404)),
    ),
    HttpOp(
        "ask for the analysis of a finished game (anyone logged in; one per game)",
        ("analysis_request",),
        "post",
        lambda w: reverse("analysis_request", args=[finished_game(w).pk]),
        login_required(Allowed(302, GAME_URL, check=analysis_asked)),
        slow=True,
    ),
    HttpOp(
        "the analysis of a game being played",
        ("analysis_json",),
        "get",
        game_path("analysis_json"),
        everyone(Refused(404)),
    ),
    HttpOp(
        "the analysis of a finished game (anyone may read it)",
        ("analysis_json",),
        "get",
        lambda w: reverse("analysis_json", args=[finished_game(w).pk]),
        everyone(Allowed(200, shows=lambda w: ('"status"',))),
        slow=True,
    ),
    HttpOp(
        "a hint in a game between people",
        ("analysis_hint",),
        "post",
        game_path("analysis_hint"),
        {
            "anonymous": to_login("anonymous"),
            "outsider": NOT_SEATED,
            "other_player": Refused(403, code="not_bots_only"),
            "own_player": Refused(403, code="not_bots_only"),
            "staff": NOT_SEATED,
        },
    ),
    HttpOp(
        "a hint in an unrated game against a bot (its one seated person only)",
        ("analysis_hint",),
        "post",
        hint_path,
        {
            "anonymous": to_login("anonymous"),
            "outsider": NOT_SEATED,
            "other_player": NOT_SEATED,
            "own_player": Allowed(202, shows=lambda w: ('"pending"', '"url"')),
            "staff": NOT_SEATED,
        },
        prepare=game_against_a_bot,
    ),
    HttpOp(
        "the answer of a hint (its asker only; searched by a worker, pending until then)",
        ("analysis_hint_answer",),
        "get",
        hint_answer_path,
        {
            "anonymous": to_login("anonymous"),
            "outsider": Refused(404),
            "other_player": Refused(404),
            "own_player": Allowed(202, shows=lambda w: ('"pending"',)),
            "staff": Refused(404),
        },
    ),
]


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
def test_http_operation(op, actor, make_user, make_table, start_stacked, settings):
    # Rows that confirm a password hash it with MD5: PBKDF2 would cost a second a row, and how
    # the hash is made is not what this suite checks.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = build_world(make_user, make_table, start_stacked)
    op.prepare(world)
    # Logged in first: a log-in changes what a password reset link is made of (last_login).
    client = client_for(world.users[actor])
    path, data, headers = op.path(world), op.data(world), op.headers(world)
    before = fingerprint()

    send = getattr(client, op.method)
    if op.json_body and op.method != "get":
        response = send(path, json.dumps(data), content_type="application/json", headers=headers)
    else:
        response = send(path, data, headers=headers)

    expected = op.expected[actor]
    assert response.status_code == expected.status, (op.name, actor, response.status_code)
    if expected.location is not None:
        assert response["Location"].startswith(expected.location), (op.name, actor)
    if isinstance(expected, Refused):
        assert fingerprint() == before, f"{op.name} by {actor} was refused but changed the data"
        if expected.code is not None:
            assert response.json()["error"] == expected.code, (op.name, actor)
    else:
        check = expected.check or JOIN_CHECKS.get(op.name, lambda actor: None)(actor)
        if check is not None:
            check(world)
    if not response.streaming:
        body = response.content.decode()
        for secret in [*op.forbidden_text(world), *expected.hides(world)]:
            assert secret not in body, (op.name, actor, secret)
        for needed in getattr(expected, "shows", lambda world: ())(world):
            assert needed in body, (op.name, actor, needed)


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


def card_only_seat_zero_holds(world) -> str:
    hands = load_state(world.playing).hands
    kind = next(k for k, count in enumerate(hands[0]) if count and not hands[1][k])
    return CODES[kind]


def seat_zero_showed(world):
    world.playing.refresh_from_db()
    assert world.playing.version == 1
    show = Action.objects.get(game=world.playing)
    assert show.seat == 0 and show.action["type"] == "show" and show.action["to"] == 1


CHAT_TEXT = "Shall we gang up on yellow?"


def posted(actor: str, room: str):
    def check(world):
        message = ChatMessage.objects.get(game=world.playing)
        assert (message.user, message.room, message.text) == (world.users[actor], room, CHAT_TEXT)

    return check


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
    SocketOp(
        "show a card of seat 0's hand to seat 1",
        # Filled in by `card_only_seat_zero_holds`; a frame cannot name the showing seat either.
        {"type": "show", "to": 1, "cards": None, "expected_version": 0, "seat": 0},
        {
            **SPECTATORS,
            # From seat 1 the frame shows seat 1 to itself a card it does not hold.
            "other_player": Refused(code="illegal"),
            "own_player": Allowed(check=seat_zero_showed),
        },
    ),
    SocketOp(
        "chat in the game's room",
        {"type": "chat", "text": CHAT_TEXT},
        {
            "anonymous": Refused(code="chat_login"),
            **{
                actor: Allowed(frame="chat", check=posted(actor, Room.SPECTATORS))
                for actor in ("outsider", "staff")
            },
            **{
                actor: Allowed(frame="chat", check=posted(actor, Room.PLAYERS))
                for actor in ("other_player", "own_player")
            },
        },
    ),
]


async def next_answer(socket, *, silence_expected: bool) -> dict:
    """The next error, state or chat frame. When the server should send nothing, a ping goes
    after the frame and its pong comes back as {"type": "nothing"} (frames on one socket are in
    order; a change's state frame comes through the channel layer, later than a pong would)."""
    if silence_expected:
        await socket.send_json_to({"type": "ping", "id": "after"})
    while True:
        frame = await socket.receive_json_from(timeout=WS_TIMEOUT)
        if frame["type"] == "pong" and frame["id"] == "after":
            return {"type": "nothing"}
        if frame["type"] in ("error", "state", "chat"):
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
        if frame["type"] == "show":
            frame["cards"] = [card_only_seat_zero_holds(world)]
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
        assert answer["type"] == expected.frame, (op.name, actor, answer)
        await database_sync_to_async(expected.check)(world)


# --- The table covers the site ------------------------------------------------------------------


# Django's own URLs: the admin has its rows above (by path, it names no URL of the site), the
# language switch is Django's set_language view.
ADMIN_NAMESPACE, LANGUAGE_SWITCH = "admin", "django.conf.urls.i18n"


def site_patterns(patterns, module: str = ""):
    """(module of its urls.py, pattern) for every URL reached from `patterns`, Django's aside."""
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            yield module, pattern
            continue
        inner = getattr(pattern.urlconf_module, "__name__", module)
        if pattern.namespace != ADMIN_NAMESPACE and inner != LANGUAGE_SWITCH:
            yield from site_patterns(pattern.url_patterns, inner)


def test_every_url_of_the_site_has_an_authorization_row():
    patterns = list(site_patterns(get_resolver().url_patterns))
    modules = {module for module, _pattern in patterns}
    assert modules >= {"games.urls", "games.matches.urls", "games.chat.urls", "games.botapi.urls"}
    assert [str(p.pattern) for _m, p in patterns if not p.name] == [], "a URL without a name"
    named = {pattern.name for _module, pattern in patterns}
    covered = {name for op in HTTP_OPS for name in op.url_names}
    assert named - covered == set(), "a URL without an authorization row"
    assert covered - named == set(), "a row names a URL that does not exist"


def test_every_row_says_what_each_actor_gets():
    for op in [*HTTP_OPS, *SOCKET_OPS]:
        assert set(op.expected) == set(ACTORS), op.name
