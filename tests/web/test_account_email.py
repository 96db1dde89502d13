"""An e-mail address on the account: given at sign-up or on the profile, verified by a link,
and the password reset by mail (Django's views), throttled, never telling who has an address."""

import re
import threading
import time
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client
from django.urls import reverse

from games.accounts.email import SALT, verification_token
from games.jobs import wait_until_idle
from games.limits.throttles import KNOWN_DEVICE_COOKIE
from tests.services import require_redis
from tests.web.test_celery_worker import worker_on_a_queue_of_its_own
from tests.web.together import send_together

pytestmark = pytest.mark.django_db

PASSWORD = "Sforza-of-Milan-1450"
NEW_PASSWORD = "Colleoni-of-Bergamo-1475"
User = get_user_model()
# Explicit: force_login would otherwise take the first backend listed, whatever it is.
BACKEND = "games.limits.throttles.ThrottledModelBackend"
LINK = re.compile(r"https?://testserver(/\S+)")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_throttle_counters(settings):
    """Counters of this test alone (the cache is shared, and never flushed)."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:account-email:{uuid.uuid4().hex}:"


@pytest.fixture
def player(client):
    user = User.objects.create_user(username="colleoni", password=PASSWORD)
    client.force_login(user, backend=BACKEND)
    return user


def verified(username: str, address: str) -> User:
    return User.objects.create_user(username=username, password=PASSWORD, email=address)


def link_in(message) -> str:
    """The site path of the one link in a mail."""
    return LINK.search(message.body).group(1)


def sign_up(client, **fields):
    data = {"username": "federico", "password1": PASSWORD, "password2": PASSWORD} | fields
    return client.post(reverse("signup"), data)


# --- Sign-up ------------------------------------------------------------------------------------


def test_sign_up_without_an_address_sends_nothing(client):
    assert sign_up(client).status_code == 302

    user = User.objects.get(username="federico")
    assert (user.email, user.pending_email) == ("", "")
    assert mail.outbox == []


def test_sign_up_with_an_address_keeps_it_waiting_and_mails_the_link(client):
    response = sign_up(client, email="Federico@Urbino.IT")

    assert response.status_code == 302
    user = User.objects.get(username="federico")
    # Waiting, not verified: a reset could not reach it yet. The domain is stored lower-case.
    assert (user.email, user.pending_email) == ("", "Federico@urbino.it")
    [message] = mail.outbox
    assert message.to == ["Federico@urbino.it"]
    assert link_in(message).startswith("/accounts/email/verify/")
    profile = client.get(reverse("profile")).content.decode()
    assert "Waiting for verification" in profile and "Federico@urbino.it" in profile


def test_sign_up_with_a_malformed_address_creates_nothing(client):
    response = sign_up(client, email="not an address")

    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()
    assert not User.objects.filter(username="federico").exists()
    assert mail.outbox == []


def test_usernames_of_deleted_accounts_cannot_be_taken_at_sign_up(client):
    response = sign_up(client, username="Deleted-12")

    assert "are reserved" in response.content.decode()
    assert not User.objects.filter(username="Deleted-12").exists()


# --- The verification link ----------------------------------------------------------------------


def waiting(user, address="colleoni@bergamo.it") -> str:
    user.pending_email = address
    user.save()
    return reverse("email_verify", args=[verification_token(user)])


def test_opening_the_link_changes_nothing_and_its_button_verifies(client, player):
    url = waiting(player)

    page = client.get(url)
    assert page.status_code == 200
    assert "colleoni@bergamo.it" in page.content.decode()
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("", "colleoni@bergamo.it")

    response = client.post(url, follow=True)
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("colleoni@bergamo.it", "")
    assert "is now your verified address" in response.content.decode()
    assert "colleoni@bergamo.it" in response.context["player"].email
    # Used once: the address waits no more.
    assert client.post(url).status_code == 400


def test_an_expired_link_verifies_nothing(client, player, monkeypatch, settings):
    four_days_ago = time.time() - 4 * 24 * 3600
    player.pending_email = "colleoni@bergamo.it"
    monkeypatch.setattr(signing.time, "time", lambda: four_days_ago)
    token = signing.dumps({"user": player.pk, "email": player.pending_email}, salt=SALT)
    monkeypatch.undo()
    player.save()

    response = client.post(reverse("email_verify", args=[token]))

    assert response.status_code == 400
    assert "has expired" in response.content.decode()
    player.refresh_from_db()
    assert player.email == ""


def test_a_tampered_link_verifies_nothing(client, player):
    token = verification_token_for(player, "colleoni@bergamo.it")
    forged = signing.dumps({"user": player.pk, "email": "mallory@evil.example"}, salt="other")

    for bad in (token[:-3] + "xyz", forged, "garbage"):
        response = client.post(reverse("email_verify", args=[bad]))
        assert response.status_code == 400
        assert "not valid" in response.content.decode()
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("", "colleoni@bergamo.it")


def verification_token_for(user, address):
    user.pending_email = address
    user.save()
    return verification_token(user)


def test_a_link_opened_by_another_account_verifies_nothing(client, player):
    rival = User.objects.create_user(username="hawkwood", password=PASSWORD)
    url = waiting(rival, "john@hawkwood.example")

    response = client.post(url)  # the client is logged in as colleoni

    assert response.status_code == 400
    assert "for another account" in response.content.decode()
    rival.refresh_from_db()
    player.refresh_from_db()
    assert (rival.email, player.email, player.pending_email) == ("", "", "")


def test_the_link_needs_a_login_and_comes_back_to_it(player):
    url = waiting(player)

    response = Client().get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_an_address_verified_by_another_account_is_refused_whatever_its_case(client, player):
    verified("hawkwood", "colleoni@bergamo.it")
    url = waiting(player, "Colleoni@Bergamo.it")

    response = client.post(url)

    assert response.status_code == 400
    assert "Another account has already verified" in response.content.decode()
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("", "Colleoni@Bergamo.it")


# --- The profile: change, resend, remove -------------------------------------------------------


def test_a_new_address_waits_while_the_verified_one_stays(client, player):
    player.email = "old@bergamo.it"
    old_link = waiting(player, "typo@bergamo.it")

    response = client.post(reverse("email_change"), {"email": "new@bergamo.it"}, follow=True)

    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("old@bergamo.it", "new@bergamo.it")
    [message] = mail.outbox
    assert message.to == ["new@bergamo.it"]
    assert "We sent a link to new@bergamo.it" in response.content.decode()
    # The link for the address it replaced no longer works; the new one does.
    assert client.post(old_link).status_code == 400
    client.post(link_in(message))
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("new@bergamo.it", "")


@pytest.mark.parametrize(
    ("address", "error"),
    [("", "This field is required."), ("nobody", "Enter a valid email address.")],
)
def test_a_bad_address_on_the_profile_is_refused_and_changes_nothing(
    client, player, address, error
):
    player.email = "old@bergamo.it"
    player.save()

    response = client.post(reverse("email_change"), {"email": address})

    assert response.status_code == 400
    assert error in response.content.decode()
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("old@bergamo.it", "")
    assert mail.outbox == []


def test_the_verified_address_again_is_refused(client, player):
    player.email = "old@bergamo.it"
    player.save()

    response = client.post(reverse("email_change"), {"email": "OLD@bergamo.it"})

    assert response.status_code == 400
    assert "already your verified address" in response.content.decode()


def test_the_profile_shows_the_state_and_removes_either_address(client, player):
    player.email = "old@bergamo.it"
    waiting(player, "new@bergamo.it")
    page = client.get(reverse("profile")).content.decode()
    assert "Verified address" in page and "old@bergamo.it" in page
    assert "Waiting for verification" in page and "new@bergamo.it" in page

    client.post(reverse("email_remove"), {"address": "pending"})
    player.refresh_from_db()
    assert (player.email, player.pending_email) == ("old@bergamo.it", "")

    client.post(reverse("email_remove"), {"address": "verified"})
    player.refresh_from_db()
    assert player.email == ""
    assert "a forgotten password cannot be reset" in client.get(reverse("profile")).content.decode()


def test_the_addresses_are_shown_to_their_owner_only(client, player):
    player.email = "old@bergamo.it"
    player.save()

    page = Client().get(reverse("player", args=["colleoni"])).content.decode()

    assert "old@bergamo.it" not in page


def test_resending_needs_a_waiting_address(client, player):
    client.post(reverse("email_resend"))
    assert mail.outbox == []

    waiting(player)
    client.post(reverse("email_resend"))
    assert [m.to for m in mail.outbox] == [["colleoni@bergamo.it"]]


# --- Password reset -----------------------------------------------------------------------------


def ask_reset(client, address):
    return client.post(reverse("password_reset"), {"email": address})


@pytest.fixture
def jobs_in_this_process(settings):
    """The reset mail is a job: here it runs on this process's job threads, which see only what
    the test committed (hence transaction=True below)."""
    settings.JOB_RUNNER = "in_process"


def mailed_by_a_job(test):
    return pytest.mark.django_db(transaction=True)(
        pytest.mark.usefixtures("jobs_in_this_process")(test)
    )


def sent_mails() -> list:
    """The mails sent, once every job announced so far has run."""
    assert wait_until_idle(timeout=60)
    return mail.outbox


class HeldBackend(EmailBackend):
    """Django's test backend, which sends nothing until the test lets it (at most HOLD s)."""

    HOLD = 30
    release = threading.Event()

    def send_messages(self, messages):
        HeldBackend.release.wait(timeout=self.HOLD)
        return super().send_messages(messages)


@mailed_by_a_job
def test_the_reset_request_answers_before_the_mail_is_sent(settings):
    """A slow SMTP server must not make the answer for a verified address slower than for an
    unknown one: the request leaves the sending to a job and answers at once."""
    settings.EMAIL_BACKEND = f"{__name__}.HeldBackend"
    HeldBackend.release.clear()
    verified("colleoni", "colleoni@bergamo.it")
    try:
        answer = ask_reset(Client(), "colleoni@bergamo.it")

        assert answer.status_code == 302
        assert mail.outbox == [], "the request waited for the mail"
    finally:
        HeldBackend.release.set()
    [message] = sent_mails()
    assert message.to == ["colleoni@bergamo.it"]


@mailed_by_a_job
def test_ten_reset_requests_sent_together_mail_only_the_limit(settings):
    verified("colleoni", "colleoni@bergamo.it")
    limit = settings.ACCOUNT_MAILS_PER_ADDRESS

    def ask(index):
        return ask_reset(Client(REMOTE_ADDR=f"198.51.100.{index}"), "colleoni@bergamo.it")

    answers = send_together(10, ask)

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [302] * limit + [429] * (10 - limit)
    assert len(sent_mails()) == limit


@mailed_by_a_job
def test_a_password_reset_end_to_end(client):
    user = verified("colleoni", "colleoni@bergamo.it")
    assert 'href="/accounts/password/reset/"' in client.get(reverse("login")).content.decode()

    response = ask_reset(client, "COLLEONI@bergamo.it")

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    [message] = sent_mails()
    assert message.to == ["colleoni@bergamo.it"]
    assert "colleoni" in message.body  # the username, in case it was forgotten too
    form_page = client.get(link_in(message), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # Following the link proved the mailbox: the browser is now a known device.
    assert client.cookies[KNOWN_DEVICE_COOKIE].value
    # The link works once.
    assert "does not work" in client.get(link_in(message), follow=True).content.decode()


@mailed_by_a_job
def test_the_reset_page_says_the_same_whoever_has_the_address(client):
    verified("colleoni", "colleoni@bergamo.it")
    unverified = User.objects.create_user(username="hawkwood", password=PASSWORD)
    unverified.pending_email = "john@hawkwood.example"
    unverified.save()

    answers = [
        ask_reset(Client(REMOTE_ADDR=f"192.0.2.{i}"), address)
        for i, address in enumerate(
            ["colleoni@bergamo.it", "john@hawkwood.example", "nobody@nowhere.example"]
        )
    ]

    assert {(a.status_code, a["Location"]) for a in answers} == {
        (302, reverse("password_reset_done"))
    }
    # Only the verified address got a mail.
    assert [m.to for m in sent_mails()] == [["colleoni@bergamo.it"]]


@mailed_by_a_job
def test_no_reset_for_a_deactivated_account(client):
    user = verified("colleoni", "colleoni@bergamo.it")
    user.is_active = False
    user.save()

    assert ask_reset(client, "colleoni@bergamo.it").status_code == 302
    assert sent_mails() == []


@mailed_by_a_job
def test_resets_are_limited_per_address_without_blocking_other_addresses(settings):
    verified("colleoni", "colleoni@bergamo.it")
    verified("hawkwood", "john@hawkwood.example")

    answers = [
        ask_reset(Client(REMOTE_ADDR=f"198.51.100.{i}"), "colleoni@bergamo.it") for i in range(4)
    ]

    assert [a.status_code for a in answers] == [302, 302, 302, 429]
    assert "Too many attempts" in answers[-1].content.decode()
    assert len(sent_mails()) == settings.ACCOUNT_MAILS_PER_ADDRESS == 3
    # Someone else's address from the same client is still served.
    assert ask_reset(Client(REMOTE_ADDR="198.51.100.3"), "john@hawkwood.example").status_code == 302
    assert len(sent_mails()) == 4


def test_resets_are_limited_per_client_address_known_or_not(settings):
    settings.ACCOUNT_MAILS_PER_IP = 2
    client = Client(REMOTE_ADDR="203.0.113.9")

    answers = [ask_reset(client, f"someone{i}@nowhere.example") for i in range(3)]

    assert [a.status_code for a in answers] == [302, 302, 429]
    assert ask_reset(Client(REMOTE_ADDR="203.0.113.10"), "x@nowhere.example").status_code == 302


def test_a_malformed_reset_request_is_refused_and_counts_nothing(client, settings):
    settings.ACCOUNT_MAILS_PER_IP = 1

    response = ask_reset(client, "not an address")

    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()
    assert ask_reset(client, "nobody@nowhere.example").status_code == 302


@pytest.mark.production
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_mails_the_reset_link(settings, monkeypatch, tmp_path):
    """The production path: the request announces the job on the broker, a worker process finds
    the account and writes the mail (its file backend, into a folder of this test's)."""
    require_redis()
    assert settings.JOB_RUNNER == "celery"
    monkeypatch.setenv("EMAIL_URL", f"file://{tmp_path}")
    verified("colleoni", "colleoni@bergamo.it")
    with worker_on_a_queue_of_its_own("test-reset-mail") as (worker, _queue):
        assert ask_reset(Client(), "colleoni@bergamo.it").status_code == 302
        assert mail.outbox == []  # not sent by this process
        deadline = time.monotonic() + 60
        while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
            assert worker.poll() is None, "the worker died"
            time.sleep(0.2)
    [written] = list(tmp_path.iterdir())
    text = written.read_text()
    assert "To: colleoni@bergamo.it" in text
    assert "http://testserver/accounts/password/reset/" in text
