"""An account kept in a real Chromium: sign up with an address, verify it from the mail, reset the
password through the pages, then delete the account. The server writes its mails to files (the
embedded default's backend), which the test reads as a person reads their inbox."""

import re
import tempfile
import time
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.conftest import daphne_server, prepare_server_process

pytestmark = pytest.mark.e2e

PASSWORD = "Gonfalonier-of-Florence-1478"
NEW_PASSWORD = "Signoria-of-Venice-1423"
LINK = re.compile(r"https?://\S+")
MAIL_WAIT_SECONDS = 30


def prepare_mail_to_files(folder: str, database_name: str):
    prepare_server_process(database_name)
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = folder
    # The reset mail is a job: the server runs its own (a Celery worker's path has its own test,
    # tests/web/test_account_email.py), so its file lands in the folder read here.
    settings.JOB_RUNNER = "in_process"


@pytest.fixture(scope="module")
def mail_folder():
    with tempfile.TemporaryDirectory(prefix="condottiere-mail-") as folder:
        yield Path(folder)


@pytest.fixture(scope="module")
def mail_server(django_db_setup, django_db_blocker, mail_folder):
    prepare = partial(prepare_mail_to_files, str(mail_folder))
    with daphne_server(django_db_blocker, prepare) as url:
        yield url


@pytest.fixture
def live(mail_server, transactional_db):
    return mail_server


def last_link(folder: Path, count: int) -> str:
    """The link of the newest mail, once `count` mails were written (a reset mail is written by
    a job, a moment after the page answered)."""
    deadline = time.monotonic() + MAIL_WAIT_SECONDS
    while len(list(folder.iterdir())) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    files = sorted(folder.iterdir(), key=lambda path: path.stat().st_mtime)
    assert len(files) == count, [file.name for file in files]
    # A file holds each message of one connection; the newest message is last.
    return LINK.findall(files[-1].read_text())[-1]


def test_sign_up_verify_reset_and_delete(page, live, mail_folder):
    page.goto(f"{live}/accounts/signup/")
    page.get_by_label("Username").fill("caterina")
    page.get_by_label("E-mail address").fill("caterina@forli.example")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("status")).to_contain_text("We sent a link to caterina@forli.example")

    # The link from the mail: a page that asks, a button that verifies.
    page.goto(last_link(mail_folder, 1))
    expect(page.get_by_test_id("verify-address")).to_have_text("caterina@forli.example")
    page.get_by_role("button", name="Verify this address").click()
    expect(page.get_by_role("status")).to_contain_text("is now your verified address")
    expect(page.get_by_test_id("email-verified")).to_contain_text("caterina@forli.example")

    # Forgotten password: from the log-in page, through the mail, to a new password.
    page.get_by_role("button", name="Log out", exact=True).click()
    page.goto(f"{live}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("E-mail address").fill("Caterina@forli.example")
    page.get_by_role("button", name="Send me the link").click()
    expect(page.get_by_test_id("reset-sent")).to_be_visible()
    page.goto(last_link(mail_folder, 2))
    page.get_by_label(re.compile(r"^New password:?$")).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set my new password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()

    page.get_by_role("link", name="Log in").last.click()
    page.get_by_label("Username").fill("caterina")
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("header-name")).to_have_text("caterina")

    # Delete the account, confirmed by the password; it cannot log in again.
    page.goto(f"{live}/accounts/profile/")
    page.get_by_test_id("profile-delete").get_by_label("Your password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.get_by_role("status")).to_contain_text("Your account is deleted.")
    expect(page.get_by_test_id("header-name")).to_have_count(0)
    page.goto(f"{live}/accounts/login/")
    page.get_by_label("Username").fill("caterina")
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
