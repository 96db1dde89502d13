"""Log-in and sign-up throttles: each limit at its edge, under concurrency, and a refused attempt
costs no hash; a guesser cannot lock the owner out.

A failed log-in or a sign-up costs a password hash (~300 ms with Django's default hasher). Each
attempt takes a slot before its hash (games/limits/throttles.py): per client address, per username
from one address, and per username from everywhere up to a high ceiling that a known device is not
held to; once a limit is reached the next attempt is refused with 429 and a "try again in N
minutes" message before any password is hashed. The limits are the settings' defaults (5
failures per username from one address, 20 per address and 100 per username in 15 minutes, 5
sign-ups per address in an hour) unless a test says otherwise.
"""

import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from django.urls import reverse

from games.limits.throttles import KNOWN_DEVICE_COOKIE
from games.models import User
from tests.services import require_redis
from tests.web.test_settings import ROOT
from tests.web.together import send_together

PASSWORD = "Mercenary-Captain-1494"
TOO_MANY = 429


class CountingHasher(MD5PasswordHasher):
    """A fast hasher that counts every hash it computes (checking a password or making one)."""

    algorithm = "counting_md5"
    hashes = 0
    lock = threading.Lock()  # requests sent together hash on threads of their own
    seconds = 0.0  # what a hash costs: a real one takes ~300 ms, and others arrive meanwhile

    def encode(self, password, salt):
        with CountingHasher.lock:
            CountingHasher.hashes += 1
        time.sleep(CountingHasher.seconds)
        return super().encode(password, salt)


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.hashes, CountingHasher.seconds = 0, 0.0
    yield CountingHasher
    CountingHasher.seconds = 0.0


@pytest.fixture
def colleoni(db, counting_hasher):
    user = User.objects.create_user(username="colleoni", password=PASSWORD)
    counting_hasher.hashes = 0  # the hash of making the account is not the test's
    return user


def client_from(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def client_behind_proxy(address: str) -> Client:
    """A client the site's trusted proxy (TRUSTED_PROXY_COUNT = 1) says comes from `address`."""
    return Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)


def log_in(client: Client, username: str, password: str = "wrong-password"):
    return client.post(reverse("login"), {"username": username, "password": password})


def sign_up(client: Client, username: str):
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), fields)


def assert_refused(response) -> None:
    assert response.status_code == TOO_MANY
    text = response.content.decode()
    assert "Too many attempts, try again in" in text
    minutes = int(text.split("try again in ")[1].split(" ")[0])
    assert 1 <= minutes <= 60


def test_five_failed_log_ins_for_a_username_from_an_address_are_answered_and_the_sixth_is_refused(
    colleoni, counting_hasher
):
    client = client_from("198.51.100.7")
    for _ in range(django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP):
        response = log_in(client, "colleoni")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    hashes = counting_hasher.hashes
    assert hashes == django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP

    refused = log_in(client, "colleoni", PASSWORD)  # even the right password: locked is locked

    assert_refused(refused)
    assert counting_hasher.hashes == hashes
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("guesses", [5, 50])
def test_guesses_from_one_address_do_not_lock_the_owner_out_from_another(
    colleoni, counting_hasher, settings, guesses
):
    settings.TRUSTED_PROXY_COUNT = 1
    guesser = client_behind_proxy("203.0.113.66")
    answers = [log_in(guesser, "colleoni").status_code for _ in range(guesses)]
    assert answers.count(200) == django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP

    owner = client_behind_proxy("198.51.100.77")
    assert log_in(owner, "colleoni", PASSWORD).status_code == 302
    assert owner.session["_auth_user_id"] == str(colleoni.pk)


def test_the_per_username_ceiling_holds_from_every_address_and_for_any_case(colleoni, settings):
    settings.LOGIN_FAILURES_PER_USERNAME = 6
    for index in range(settings.LOGIN_FAILURES_PER_USERNAME):
        assert log_in(client_from(f"203.0.113.{index + 1}"), "colleoni").status_code == 200

    assert_refused(log_in(client_from("203.0.113.200"), "COLLEONI", PASSWORD))


def test_a_known_device_lets_the_owner_in_past_the_per_username_ceiling(colleoni, settings):
    settings.LOGIN_FAILURES_PER_USERNAME = 6
    owner = client_from("198.51.100.40")
    assert log_in(owner, "colleoni", PASSWORD).status_code == 302  # the device becomes known
    known = owner.cookies[KNOWN_DEVICE_COOKIE]
    assert known["httponly"]
    owner.logout()  # which forgets every cookie: the browser would keep this one
    owner.cookies[KNOWN_DEVICE_COOKIE] = known.value
    for index in range(settings.LOGIN_FAILURES_PER_USERNAME):
        log_in(client_from(f"203.0.113.{index + 1}"), "colleoni")
    stranger = client_from("198.51.100.41")
    assert_refused(log_in(stranger, "colleoni", PASSWORD))

    owner.defaults["REMOTE_ADDR"] = "198.51.100.41"  # the owner travels, with their browser
    assert log_in(owner, "colleoni", PASSWORD).status_code == 302
    # The cookie is signed and names its account: forged or another's, it is worth nothing.
    stranger.cookies[KNOWN_DEVICE_COOKIE] = "colleoni"
    assert_refused(log_in(stranger, "colleoni", PASSWORD))
    stranger.cookies[KNOWN_DEVICE_COOKIE] = known.value
    User.objects.create_user(username="sforza", password=PASSWORD)
    for index in range(settings.LOGIN_FAILURES_PER_USERNAME):
        log_in(client_from(f"203.0.114.{index + 1}"), "sforza")
    assert_refused(log_in(stranger, "sforza", PASSWORD))


@pytest.mark.django_db(transaction=True)
def test_thirty_guesses_sent_together_hash_only_the_limit(counting_hasher):
    User.objects.create_user(username="colleoni", password=PASSWORD)
    counting_hasher.hashes, counting_hasher.seconds = 0, 0.05
    limit = django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP

    answers = send_together(30, lambda _: log_in(client_from("198.51.100.50"), "colleoni"))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200] * limit + [TOO_MANY] * (30 - limit)
    assert counting_hasher.hashes == limit


def test_a_locked_username_does_not_lock_out_another_player(colleoni, counting_hasher):
    User.objects.create_user(username="sforza", password=PASSWORD)
    client = client_from("198.51.100.8")
    for _ in range(django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP):
        log_in(client, "colleoni")

    response = log_in(client, "sforza", PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="sforza").pk)


def test_twenty_failures_from_an_address_are_answered_and_the_next_is_refused_unhashed(
    colleoni, counting_hasher
):
    client = client_from("192.0.2.55")
    # Different usernames, each under its own limit: only the address's count can refuse.
    for index in range(django_settings.LOGIN_FAILURES_PER_IP):
        assert log_in(client, f"guess{index}").status_code == 200
    hashes = counting_hasher.hashes

    assert_refused(log_in(client, "colleoni", PASSWORD))
    assert counting_hasher.hashes == hashes
    # Another address is not refused.
    assert log_in(client_from("192.0.2.56"), "colleoni", PASSWORD).status_code == 302


def test_an_ipv6_client_is_counted_by_its_64_network(colleoni):
    for index in range(django_settings.LOGIN_FAILURES_PER_IP):
        log_in(client_from(f"2001:db8:1:2::{index + 1:x}"), f"guess{index}")

    assert_refused(log_in(client_from("2001:db8:1:2:ffff::1"), "colleoni", PASSWORD))
    assert log_in(client_from("2001:db8:1:3::1"), "colleoni", PASSWORD).status_code == 302


def test_a_successful_log_in_counts_nothing(colleoni):
    client = client_from("198.51.100.9")
    for _ in range(django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP + 1):
        assert log_in(client, "colleoni", PASSWORD).status_code == 302
        client.logout()


def test_the_admin_log_in_is_throttled_too(colleoni, counting_hasher):
    client = client_from("198.51.100.10")
    admin_login = reverse("admin:login")
    for _ in range(django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP):
        client.post(admin_login, {"username": "colleoni", "password": "wrong"})
    hashes = counting_hasher.hashes

    response = client.post(admin_login, {"username": "colleoni", "password": PASSWORD})

    assert counting_hasher.hashes == hashes
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200  # the admin's own form, with its own error


def test_a_new_window_lets_the_username_try_again(colleoni, monkeypatch):
    client = client_from("198.51.100.11")
    for _ in range(django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP):
        log_in(client, "colleoni")
    assert_refused(log_in(client, "colleoni", PASSWORD))

    later = time.time() + django_settings.LOGIN_FAILURE_WINDOW_MINUTES * 60 + 1
    monkeypatch.setattr("games.limits.throttles.time.time", lambda: later)

    assert log_in(client, "colleoni", PASSWORD).status_code == 302


def timed_log_in(client: Client, password: str = "wrong-password"):
    """(response, seconds) of one log-in attempt as malatesta."""
    started = time.perf_counter()
    response = log_in(client, "malatesta", password)
    return response, time.perf_counter() - started


def test_a_refused_log_in_takes_no_time_with_the_real_hasher(db, site_password_hashing):
    """With Django's default hasher (no test shortcut): a failure costs a hash, a refusal not."""
    User.objects.create_user(username="malatesta", password=PASSWORD)
    client = client_from("198.51.100.12")
    limit = django_settings.LOGIN_FAILURES_PER_USERNAME_AND_IP
    failures = [timed_log_in(client) for _ in range(limit)]
    refusals = [timed_log_in(client, PASSWORD) for _ in range(3)]
    for response, _seconds in refusals:
        assert_refused(response)
    failure_times = [seconds for _response, seconds in failures]
    refusal_times = [seconds for _response, seconds in refusals]

    # Relative, not absolute: on a loaded machine both grow. A refusal that hashed would take
    # about as long as the fastest failure; the best of three refusals takes a small part of it.
    assert min(failure_times) > 4 * min(refusal_times), (refusal_times, failure_times)


def test_five_sign_ups_from_an_address_pass_and_the_sixth_is_refused_unhashed(db, counting_hasher):
    client = client_from("198.51.100.20")
    for index in range(django_settings.SIGNUPS_PER_IP):
        response = sign_up(client, f"recruit{index}")
        assert response.status_code == 302, response.content.decode()[:2000]
        client.logout()
    users, hashes = User.objects.count(), counting_hasher.hashes

    refused = sign_up(client, "recruit-too-many")

    assert_refused(refused)
    assert User.objects.count() == users
    assert counting_hasher.hashes == hashes
    # Another address may still sign up.
    assert sign_up(client_from("198.51.100.21"), "recruit-elsewhere").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_fifteen_sign_ups_sent_together_make_only_the_limit_of_accounts(counting_hasher):
    counting_hasher.seconds = 0.05
    limit = django_settings.SIGNUPS_PER_IP

    answers = send_together(15, lambda index: sign_up(client_from("198.51.100.25"), f"levy{index}"))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [302] * limit + [TOO_MANY] * (15 - limit)
    assert User.objects.filter(username__startswith="levy").count() == limit


def test_a_refused_sign_up_is_not_counted_as_an_account(db, counting_hasher):
    client = client_from("198.51.100.22")
    for index in range(django_settings.SIGNUPS_PER_IP - 1):
        sign_up(client, f"soldier{index}")
        client.logout()
    # An invalid form creates no account and so uses up no sign-up.
    bad = client.post(reverse("signup"), {"username": "x", "password1": "a", "password2": "b"})
    assert bad.status_code == 200

    assert sign_up(client, "soldier-last").status_code == 302


def test_a_zero_limit_turns_a_throttle_off(db, counting_hasher, settings):
    settings.SIGNUPS_PER_IP = 0
    client = client_from("198.51.100.23")
    for index in range(7):
        assert sign_up(client, f"conscript{index}").status_code == 302
        client.logout()


@pytest.mark.production
def test_the_counts_are_shared_by_every_process_through_redis(colleoni, settings):
    """Failures counted by this process refuse the next attempt in another process."""
    redis_url = require_redis()
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    settings.LOGIN_FAILURES_PER_USERNAME = 5
    for index in range(settings.LOGIN_FAILURES_PER_USERNAME):
        log_in(client_from(f"198.51.100.{30 + index}"), "colleoni")

    # The other process reads this test's counters: the same Redis, the same prefix.
    program = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        f"settings.RATELIMIT_CACHE_PREFIX = {settings.RATELIMIT_CACHE_PREFIX!r}\n"
        f"settings.LOGIN_FAILURES_PER_USERNAME = {settings.LOGIN_FAILURES_PER_USERNAME!r}\n"
        "from django.test import RequestFactory\n"
        "from games.limits.throttles import take_login_slot\n"
        "request = RequestFactory().post('/accounts/login/', REMOTE_ADDR='198.51.100.39')\n"
        "print(take_login_slot(request, 'colleoni').refusal)\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "condottiere_site.settings",
        "REDIS_URL": redis_url,
    }
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Refusal(seconds_left="), result.stdout
