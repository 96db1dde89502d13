"""The Bot API's HTTP endpoints (docs/bot-api.md): JSON in, JSON out, a bearer token each time.

No cookies, so no CSRF: a request is authenticated by its `Authorization: Bearer` header alone.
Every refusal is a JSON object `{"error": code, "message": ...}` (with the game's `version`
where one is known) and changes nothing. Each token may make BOT_API_REQUESTS_PER_MINUTE
requests a minute and open BOT_API_STREAMS_PER_MINUTE event streams a minute (django-ratelimit's
counters in Django's cache: Redis in production, shared by every process).
"""

import asyncio
import json
from functools import wraps

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django_ratelimit.core import get_usage

from games.accounts.sockets import token_active, token_group
from games.lobby import tables as lobby
from games.lobby.tables import LobbyError, SeatPlan
from games.models import Game, Seat
from games.services import ServiceError, game_frame, submit_action
from games.services.notify import remember_socket_loop
from games.sockets.database_threads import in_database_thread

from . import challenges, stream_slots, tokens
from .auth import TooManyBadTokens, limited_token_for
from .events import event_lines
from .models import SCOPE_CHALLENGE, SCOPE_PLAY
from .stream_slots import StreamSlot
from .tokens import TokenRefused

# How long GET .../state?after=N waits for a newer version before answering with the same one.
LONG_POLL_SECONDS = 25.0
STATUS_FOR_CODE = {
    "not_seated": 403,
    "stale": 409,
    "not_your_turn": 409,
    "not_playing": 409,
    "not_started": 409,
    "illegal": 422,
    "no_such_game": 404,
    "no_challenge": 404,
    "unavailable": 503,
}


def error(code: str, message, status: int | None = None, **extra) -> JsonResponse:
    body = {"error": code, "message": str(message), **extra}
    return JsonResponse(body, status=status or STATUS_FOR_CODE.get(code, 400))


def rate_limited(request, token, group: str, setting: str, default: int) -> JsonResponse | None:
    limit = getattr(settings, setting, default)
    if not limit:
        return None
    usage = get_usage(
        request,
        group=group,
        key=lambda _group, _request: str(token.pk),
        rate=(limit, 60),
        increment=True,
    )
    if usage is None or not usage["should_limit"]:
        return None
    response = error(
        "rate_limited",
        _("Too many requests for this token: at most %(n)d a minute.") % {"n": limit},
        429,
    )
    response["Retry-After"] = str(max(1, usage["time_left"]))
    return response


def no_token() -> JsonResponse:
    """The answer to a request without an `Authorization: Bearer` header, whatever it asks."""
    return error("no_token", _("Send your access token: Authorization: Bearer <token>."), 401)


def authenticate(request, scope: str):
    """(token, None) for a usable token with `scope`, else (None, the error response)."""
    secret = tokens.bearer_secret(request.headers.get("Authorization"))
    if not secret:
        return None, no_token()
    try:
        token = limited_token_for(request, secret, scope)
    except TokenRefused as refused:
        response = error(refused.code, refused.message, refused.status)
        if isinstance(refused, TooManyBadTokens):
            response["Retry-After"] = str(refused.seconds_left)
        return None, response
    limited = rate_limited(request, token, "botapi", "BOT_API_REQUESTS_PER_MINUTE", 600)
    return (None, limited) if limited else (token, None)


def bot_endpoint(scope: str, method: str):
    """A synchronous endpoint: the method, the token and its scope checked first."""

    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != method:
                return error("method_not_allowed", _("Use %(method)s.") % {"method": method}, 405)
            token, refusal = authenticate(request, scope)
            if refusal:
                return refusal
            request.bot = token.user
            request.bot_token = token
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def json_body(request) -> dict:
    """The request's JSON object ({} for an empty body); ValueError for anything else."""
    if not request.body:
        return {}
    body = json.loads(request.body)
    if not isinstance(body, dict):
        raise ValueError("not an object")
    return body


def malformed(message) -> JsonResponse:
    return error("malformed", message, 400)


def lobby_refusal(refused: LobbyError) -> JsonResponse:
    return error(refused.code, refused.message, STATUS_FOR_CODE.get(refused.code, 409))


# --- The account and its token ---------------------------------------------------------------


@bot_endpoint(SCOPE_PLAY, "GET")
def account(request):
    token = request.bot_token
    return JsonResponse(
        {
            "id": request.bot.pk,
            "username": request.bot.username,
            "name": request.bot.public_name,
            "bot": True,
            "token": {"name": token.name, "prefix": token.prefix, "scopes": token.scopes},
        }
    )


@csrf_exempt
def revoke_own_token(request):
    """POST: revoke the token of this request (it works without any scope)."""
    if request.method != "POST":
        return error("method_not_allowed", _("Use %(method)s.") % {"method": "POST"}, 405)
    secret = tokens.bearer_secret(request.headers.get("Authorization"))
    if not secret:
        return no_token()
    try:
        token = limited_token_for(request, secret, SCOPE_PLAY)
    except TokenRefused as refused:
        if refused.code != "missing_scope":
            return error(refused.code, refused.message, refused.status)
        token = tokens.AccessToken.objects.get(digest=tokens.digest_of(secret))
    tokens.revoke(token, token.user)
    return JsonResponse({"revoked": True})


# --- Challenges and tables ---------------------------------------------------------------------


@bot_endpoint(SCOPE_CHALLENGE, "POST")
def accept_challenge(request, game_id: int):
    try:
        seat = challenges.accept(request.bot, game_id)
    except LobbyError as refused:
        return lobby_refusal(refused)
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
    return JsonResponse({"game": game_id, "seat": seat.index, "status": status})


@bot_endpoint(SCOPE_CHALLENGE, "POST")
def decline_challenge(request, game_id: int):
    try:
        challenges.decline(request.bot, game_id)
    except LobbyError as refused:
        return lobby_refusal(refused)
    return JsonResponse({"declined": game_id})


def seat_plans(seats) -> list[SeatPlan]:
    """The "seats" list of an open-table request: "me", "open" or a bot level each."""
    if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
        raise ValueError(_('\'seats\' must be a list of "me", "open" or bot levels.'))
    if seats.count("me") != 1:
        raise ValueError(_("'seats' must hold \"me\" exactly once."))
    plans = []
    for seat in seats:
        if seat in ("me", "open"):
            plans.append(SeatPlan(seat))
        elif seat in lobby.bot_levels():
            plans.append(SeatPlan("bot", level=seat))
        else:
            raise ValueError(_("Unknown seat “%(seat)s”.") % {"seat": seat[:40]})
    return plans


@bot_endpoint(SCOPE_CHALLENGE, "POST")
def open_table(request):
    try:
        body = json_body(request)
        plans = seat_plans(body.get("seats", ["me", "open"]))
        options = body.get("options") or {}
        turn_seconds = body.get("turn_seconds")
        if not isinstance(options, dict):
            raise ValueError(_("'options' must be an object of optional rules."))
        if turn_seconds not in lobby.TURN_TIMERS:
            raise ValueError(_("'turn_seconds' must be null, 30, 60 or 120."))
    except ValueError as bad:
        return malformed(bad)
    try:
        game = lobby.create_table(
            request.bot, len(plans), plans, options=options, turn_seconds=turn_seconds
        )
    except (LobbyError, ValueError, TypeError) as refused:
        if isinstance(refused, LobbyError):
            return lobby_refusal(refused)
        return malformed(_("Unknown optional rule."))
    seat = Seat.objects.get(game=game, user=request.bot)
    return JsonResponse({"game": game.pk, "seat": seat.index, "status": game.status}, status=201)


@bot_endpoint(SCOPE_CHALLENGE, "POST")
def join_table(request, game_id: int):
    try:
        index = json_body(request).get("seat")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise ValueError
    except ValueError:
        return malformed(_("The body may hold 'seat', a seat number."))
    if not Game.objects.filter(pk=game_id).exists():
        return error("no_such_game", _("There is no such game."))
    try:
        seat = lobby.join_table(game_id, request.bot, index)
    except LobbyError as refused:
        return lobby_refusal(refused)
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
    return JsonResponse({"game": game_id, "seat": seat.index, "status": status})


# --- Playing -------------------------------------------------------------------------------------


def bot_seat(game_id: int, user) -> tuple[str | None, int | None]:
    row = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
    index = Seat.objects.filter(game_id=game_id, user=user).values_list("index", flat=True).first()
    return row, index


@bot_endpoint(SCOPE_PLAY, "POST")
def move(request, game_id: int):
    try:
        body = json_body(request)
    except ValueError:
        return malformed(_("The body must be a JSON object."))
    action, version = body.get("action"), body.get("expected_version")
    if not isinstance(action, dict):
        return malformed(_("A move needs an 'action' object."))
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        return malformed(_("A move needs 'expected_version', a whole number."))
    status, seat = bot_seat(game_id, request.bot)
    if status is None:
        return error("no_such_game", _("There is no such game."))
    if seat is None:
        return error("not_seated", _("You have no seat in this game."))
    try:
        new_version = submit_action(game_id, seat, action, version)
    except ServiceError as refused:
        return error(refused.code, refused.message, version=refused.version)
    return JsonResponse({"version": new_version})


def state_frame(game_id: int, user) -> tuple[str | None, dict | None]:
    """(error code, None) or (None, the seat's state frame)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "no_such_game", None
    seat = Seat.objects.filter(game=game, user=user).values_list("index", flat=True).first()
    if seat is None:
        return "not_seated", None
    if game.status == Game.Status.OPEN:
        return "not_started", None
    return None, game_frame(game, seat)


def version_of(game_id: int) -> tuple[int, str] | None:
    return Game.objects.filter(pk=game_id).values_list("version", "status").first()


async def wait_past(game_id: int, after: int, seconds: float, token_id: int) -> None:
    """Return once the game's version is past `after`, it stopped, `seconds` went by, or the
    token's credentials went (games/accounts/sockets.py): woken by the game's channel-layer
    group, as the game's sockets are, and by the token's."""
    remember_socket_loop(asyncio.get_running_loop())
    layer = get_channel_layer()
    channel = await layer.new_channel()
    groups = (Game(pk=game_id).group_name(), token_group(token_id))
    for group in groups:  # before the read: no version slips between
        await layer.group_add(group, channel)
    deadline = asyncio.get_running_loop().time() + seconds
    try:
        while True:
            row = await in_database_thread(version_of)(game_id)
            if row is None or row[0] > after or row[1] != Game.Status.PLAYING:
                return
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            try:
                message = await asyncio.wait_for(layer.receive(channel), left)
            except asyncio.TimeoutError:
                return
            if message["type"] == "account.end":
                return
    finally:
        for group in groups:
            await layer.group_discard(group, channel)


def authenticate_and_count(request, scope: str, limit_setting=None, default=0):
    """authenticate(), then the per-minute limit named by `limit_setting` if any."""
    token, refusal = authenticate(request, scope)
    if refusal is None and limit_setting:
        refusal = rate_limited(request, token, "botapi-streams", limit_setting, default)
    return token, refusal


async def authenticate_async(request, scope: str, limit_setting=None, default=0):
    """authenticate_and_count() for the views that wait: the connection it borrows goes back to
    the pool at once, not when the response ends (a stream or a long poll would hold it)."""
    return await in_database_thread(authenticate_and_count)(request, scope, limit_setting, default)


@csrf_exempt
async def state(request, game_id: int):
    """GET: the seat's state frame; with ?after=N, waits (long poll) for a version past N."""
    if request.method != "GET":
        return error("method_not_allowed", _("Use %(method)s.") % {"method": "GET"}, 405)
    token, refusal = await authenticate_async(request, SCOPE_PLAY)
    if refusal:
        return refusal
    after = request.GET.get("after")
    if after is not None:
        if not after.isdigit() or len(after) > 9:
            return malformed(_("'after' must be a version number."))
        await wait_past(game_id, int(after), LONG_POLL_SECONDS, token.pk)
        if not await in_database_thread(token_active)(token.pk):  # revoked while it waited
            return error("revoked_token", _("This access token was revoked."), 401)
    code, frame = await in_database_thread(state_frame)(game_id, token.user)
    if code:
        messages = {
            "no_such_game": _("There is no such game."),
            "not_seated": _("You have no seat in this game."),
            "not_started": _("This table has not started yet."),
        }
        return error(code, messages[code])
    return JsonResponse(frame)


@csrf_exempt
async def event_stream(request):
    """GET: the account's events as NDJSON, one JSON object a line, a bare newline every 10 s."""
    if request.method != "GET":
        return error("method_not_allowed", _("Use %(method)s.") % {"method": "GET"}, 405)
    token, refusal = await authenticate_async(request, SCOPE_PLAY, "BOT_API_STREAMS_PER_MINUTE", 20)
    if refusal:
        return refusal
    slot = StreamSlot(token)
    full = await slot.claim()
    if full:
        return too_many_streams(full)
    response = StreamingHttpResponse(
        event_lines(token, slot), content_type="application/x-ndjson; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


def too_many_streams(full: str) -> JsonResponse:
    if full == stream_slots.TOKEN:
        cap = settings.BOT_API_STREAMS_PER_TOKEN
        message = _("This token has %(n)d event streams open already: close one first.")
    else:
        cap = settings.BOT_API_STREAMS_PER_ACCOUNT
        message = _("This account has %(n)d event streams open already: close one first.")
    return error("too_many_streams", message % {"n": cap}, 429)
