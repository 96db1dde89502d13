"""Throttles on what costs a password hash: failed log-ins and sign-ups.

A failed log-in costs about 300 ms of hashing, so unthrottled it lets anyone burn the CPU or guess
passwords. Failures are counted per username and per client address, sign-ups per address, in
fixed windows in Django's cache (django-ratelimit's counters: Redis in production, so every
process sees the same counts). A refused attempt is refused before any hash is computed, and is
not itself counted: the counts are of hashes spent.

Limits and windows are settings (LOGIN_FAILURES_PER_USERNAME, LOGIN_FAILURES_PER_IP,
LOGIN_FAILURE_WINDOW_MINUTES, SIGNUPS_PER_IP, SIGNUP_WINDOW_MINUTES); a limit of 0 is no limit.
"""

import math
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from games.client_address import address_group, client_ip


@dataclass(frozen=True)
class Refusal:
    """An attempt refused by a throttle, and when the window that refused it ends."""

    seconds_left: int

    @property
    def minutes_left(self) -> int:
        return max(1, math.ceil(self.seconds_left / 60))

    @property
    def message(self) -> str:
        return ngettext(
            "Too many attempts, try again in %(minutes)d minute.",
            "Too many attempts, try again in %(minutes)d minutes.",
            self.minutes_left,
        ) % {"minutes": self.minutes_left}


@dataclass(frozen=True)
class Counter:
    """One throttle: a group of counters, a limit per window, and what a count is kept for."""

    group: str
    limit_setting: str
    window_setting: str

    def refusal(self, request, value: str) -> Refusal | None:
        """Refused once `limit` attempts were counted in this window; counts nothing itself."""
        usage = self._usage(request, value, increment=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            return Refusal(usage["time_left"])
        return None

    def count(self, request, value: str) -> None:
        self._usage(request, value, increment=True)

    def _usage(self, request, value: str, *, increment: bool):
        limit = getattr(settings, self.limit_setting)
        if not limit:
            return None
        window = getattr(settings, self.window_setting) * 60
        return get_usage(
            request,
            group=self.group,
            key=lambda _group, _request: value,
            rate=(limit, window),
            increment=increment,
        )


LOGIN_FAILURES_BY_USERNAME = Counter(
    "login-failures-username", "LOGIN_FAILURES_PER_USERNAME", "LOGIN_FAILURE_WINDOW_MINUTES"
)
LOGIN_FAILURES_BY_ADDRESS = Counter(
    "login-failures-address", "LOGIN_FAILURES_PER_IP", "LOGIN_FAILURE_WINDOW_MINUTES"
)
SIGNUPS_BY_ADDRESS = Counter("signups-address", "SIGNUPS_PER_IP", "SIGNUP_WINDOW_MINUTES")


def address_key(request) -> str:
    """The client's address, or its /64 network for IPv6."""
    return address_group(client_ip(request))


def username_key(username) -> str:
    # Case-folded, so that "Alice" and "ALICE" share the count whatever the user model makes of
    # case; the cache key is a hash of it, so a huge username makes no huge key.
    return str(username).casefold()


def login_refusal(request, username) -> Refusal | None:
    """Why a log-in attempt must be refused unhashed, if it must: the longer wait wins."""
    refusals = [
        LOGIN_FAILURES_BY_USERNAME.refusal(request, username_key(username)),
        LOGIN_FAILURES_BY_ADDRESS.refusal(request, address_key(request)),
    ]
    refusals = [refusal for refusal in refusals if refusal]
    return max(refusals, key=lambda refusal: refusal.seconds_left, default=None)


def count_login_failure(request, username) -> None:
    LOGIN_FAILURES_BY_USERNAME.count(request, username_key(username))
    LOGIN_FAILURES_BY_ADDRESS.count(request, address_key(request))


def signup_refusal(request) -> Refusal | None:
    return SIGNUPS_BY_ADDRESS.refusal(request, address_key(request))


def count_signup(request) -> None:
    SIGNUPS_BY_ADDRESS.count(request, address_key(request))


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend behind the log-in throttle, for every log-in form (the admin's too).

    A refused attempt raises PermissionDenied, which makes django.contrib.auth.authenticate stop
    before any hash; the refusal is left on the request for the page to explain.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None or password is None:
            # No request (a shell, Client.login in tests): nothing to throttle by.
            return super().authenticate(request, username, password, **kwargs)
        refusal = login_refusal(request, username)
        if refusal:
            request.login_refusal = refusal
            raise PermissionDenied(refusal.message)
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            count_login_failure(request, username)
        return user
