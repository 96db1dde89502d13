"""The proxy headers are believed only when a proxy of ours is declared (TRUSTED_PROXY_COUNT).

Without one, X-Forwarded-Proto and X-Forwarded-For are whatever a client wrote: a forged
"https" must not pass for HTTPS, and a forged address must not move a client out of its
throttle. With n trusted proxies, the n-th address from the right is the client's.
"""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from games.limits.client_address import client_ip
from games.models import User
from tests.web.test_settings import PRODUCTION, settings_of

FORGED = "6.6.6.6"


def request_from(peer: str, forwarded_for: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=peer, **headers)


def scope_from(peer: str | None, *forwarded_for: str) -> dict:
    return {
        "type": "websocket",
        "client": (peer, 50000) if peer else None,
        "headers": [(b"host", b"example.org")]
        + [(b"x-forwarded-for", value.encode()) for value in forwarded_for],
    }


# --- client_ip -----------------------------------------------------------------------------


def test_without_a_trusted_proxy_the_peer_is_the_client_whatever_the_header_says(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request_from("192.0.2.10", FORGED)) == "192.0.2.10"
    assert client_ip(scope_from("192.0.2.10", FORGED)) == "192.0.2.10"


def test_behind_one_proxy_the_last_address_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client wrote the first entry; our proxy appended the address it saw.
    assert client_ip(request_from("10.0.0.2", f"{FORGED}, 203.0.113.9")) == "203.0.113.9"
    assert client_ip(scope_from("10.0.0.2", f"{FORGED}, 203.0.113.9")) == "203.0.113.9"
    # Several header lines are one list, in order.
    assert client_ip(scope_from("10.0.0.2", FORGED, "203.0.113.9")) == "203.0.113.9"


def test_behind_two_proxies_the_second_address_from_the_right_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    header = f"{FORGED}, 203.0.113.9, 10.0.0.3"
    assert client_ip(request_from("10.0.0.2", header)) == "203.0.113.9"
    assert client_ip(scope_from("10.0.0.2", header)) == "203.0.113.9"


@pytest.mark.parametrize("header", [None, "", "203.0.113.9", "not-an-address, junk"])
def test_a_header_too_short_or_garbled_for_the_proxies_falls_back_to_the_peer(settings, header):
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request_from("10.0.0.2", header)) == "10.0.0.2"


def test_ipv6_addresses_come_back_in_one_spelling(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request_from("10.0.0.2", "2001:DB8:0:0::1")) == "2001:db8::1"


def test_a_connection_with_no_peer_is_unknown_not_unthrottled(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(scope_from(None)) == "unknown"
    assert client_ip(request_from("")) == "unknown"


# --- The throttles follow client_ip ----------------------------------------------------------


@pytest.fixture
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def failed_log_ins(settings, forwarded_for_of) -> int:
    """Failed log-ins from one peer, each with its own X-Forwarded-For: the answer's status."""
    client = Client(REMOTE_ADDR="10.0.0.2")
    login = reverse("login")
    for index in range(settings.LOGIN_FAILURES_PER_IP):
        client.post(
            login,
            {"username": f"guess{index}", "password": "x"},
            HTTP_X_FORWARDED_FOR=forwarded_for_of(index),
        )
    User.objects.create_user(username="sforza", password="Mercenary-Captain-1494")
    answer = client.post(
        login,
        {"username": "sforza", "password": "Mercenary-Captain-1494"},
        HTTP_X_FORWARDED_FOR=forwarded_for_of(999),
    )
    return answer.status_code


def test_a_forged_forwarded_address_does_not_escape_the_address_throttle(db, settings, fast_hasher):
    settings.TRUSTED_PROXY_COUNT = 0
    assert failed_log_ins(settings, lambda index: f"198.18.0.{index % 250}") == 429


def test_behind_a_trusted_proxy_each_client_has_its_own_count(db, settings, fast_hasher):
    settings.TRUSTED_PROXY_COUNT = 1
    assert failed_log_ins(settings, lambda index: f"198.18.0.{index % 250}") == 302


# --- X-Forwarded-Proto, with the real settings module ----------------------------------------

IS_SECURE_WITH_FORGED_PROTO = (
    "(lambda r: (r.is_secure(), getattr(s, 'SECURE_PROXY_SSL_HEADER', None)))("
    "__import__('django.test', fromlist=['RequestFactory']).RequestFactory().get("
    "'/', HTTP_X_FORWARDED_PROTO='https', HTTP_HOST='condottiere.example.org'))"
)


def test_production_without_a_trusted_proxy_ignores_a_forged_x_forwarded_proto():
    assert settings_of(IS_SECURE_WITH_FORGED_PROTO, **PRODUCTION) == "(False, None)"


def test_production_behind_a_trusted_proxy_believes_its_x_forwarded_proto():
    answer = settings_of(IS_SECURE_WITH_FORGED_PROTO, **PRODUCTION, TRUSTED_PROXY_COUNT="1")
    assert answer == "(True, ('HTTP_X_FORWARDED_PROTO', 'https'))"


def test_a_plain_http_request_is_redirected_to_https_even_with_a_forged_header():
    code = (
        "__import__('django.middleware.security', fromlist=['x']).SecurityMiddleware("
        "lambda r: None).process_request(__import__('django.test', fromlist=['x'])"
        ".RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https',"
        " HTTP_HOST='condottiere.example.org'))['Location']"
    )
    assert settings_of(code, **PRODUCTION) == "https://condottiere.example.org/"


def test_a_bad_trusted_proxy_count_stops_the_start():
    from tests.web.test_settings import assert_stops_with, manage

    assert_stops_with(manage("check", TRUSTED_PROXY_COUNT="yes"), "TRUSTED_PROXY_COUNT")
