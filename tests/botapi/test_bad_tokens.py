"""Unknown and revoked access tokens are limited per client address, HTTP and websockets alike
(BOT_API_BAD_TOKENS_PER_MINUTE): each presented token takes a slot before it is looked up, a usable
one gives it back, and requests sent together get exactly the limit's answers."""

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from condottiere_site.asgi import application
from tests.web.together import send_together

ACCOUNT = "/api/bot/account"
UNKNOWN = "cdt_" + "x" * 43
LIMIT = 5


@pytest.fixture(autouse=True)
def small_limit(settings):
    settings.BOT_API_BAD_TOKENS_PER_MINUTE = LIMIT


def get_account(secret: str, address: str):
    client = Client(REMOTE_ADDR=address)
    return client.get(ACCOUNT, headers={"Authorization": f"Bearer {secret}"})


@pytest.mark.django_db(transaction=True)
def test_unknown_tokens_sent_together_are_answered_up_to_the_limit_then_429(make_bot, make_token):
    secret = make_token(make_bot())

    answers = send_together(20, lambda _: get_account(UNKNOWN, "198.51.100.60"))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [401] * LIMIT + [429] * (20 - LIMIT)
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json()["error"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 60
    # Another address is not refused; the limited one is, whatever token it shows.
    assert get_account(secret, "198.51.100.61").status_code == 200
    assert get_account(secret, "198.51.100.60").status_code == 429


def test_usable_tokens_take_no_slot(make_bot, make_token):
    secret = make_token(make_bot())
    for _ in range(LIMIT * 2):
        assert get_account(secret, "198.51.100.62").status_code == 200

    assert [get_account(UNKNOWN, "198.51.100.62").status_code for _ in range(LIMIT + 1)] == [
        *[401] * LIMIT,
        429,
    ]


def test_a_zero_limit_is_no_limit(db, settings):
    settings.BOT_API_BAD_TOKENS_PER_MINUTE = 0
    answers = [get_account(UNKNOWN, "198.51.100.63").status_code for _ in range(LIMIT + 3)]
    assert answers == [401] * (LIMIT + 3)


async def handshake(address: str) -> tuple[str, int]:
    """A game socket opened with an unknown token from `address`: (error code, close code)."""
    headers = [(b"authorization", f"Bearer {UNKNOWN}".encode()), (b"x-forwarded-for", address)]
    socket = WebsocketCommunicator(application, "/ws/games/1/", headers=headers)
    connected, _ = await socket.connect(timeout=30)
    assert connected
    frame = await socket.receive_json_from(timeout=30)
    closed = await socket.receive_output(timeout=30)
    await socket.wait(timeout=30)
    return frame["code"], closed["code"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_socket_handshakes_with_a_bad_token_sent_together_are_limited(settings):
    settings.TRUSTED_PROXY_COUNT = 1

    answers = await asyncio.gather(*(handshake(b"203.0.113.70") for _ in range(12)))

    assert sorted(answers) == sorted(
        [("bad_token", 4401)] * LIMIT + [("rate_limited", 4008)] * (12 - LIMIT)
    )
    assert await handshake(b"203.0.113.71") == ("bad_token", 4401)
