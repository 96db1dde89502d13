"""EMAIL_URL and DEFAULT_FROM_EMAIL: each form of the URL, the default folder, bad values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured

from condottiere_site.email_config import email_config, from_address

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = Path("/srv/site/sent-mail")


def test_nothing_set_writes_files_into_the_default_folder(tmp_path):
    config = email_config(None, tmp_path / "sent-mail")
    assert config.backend == "django.core.mail.backends.filebased.EmailBackend"

    connection = mail.get_connection(config.backend, file_path=config.file_path)
    mail.send_mail(
        "Subject", "The body", "site@example.org", ["a@example.org"], connection=connection
    )

    [written] = (tmp_path / "sent-mail").iterdir()
    assert "The body" in written.read_text()


def test_a_file_url_names_the_folder():
    config = email_config("file:///var/mail/condottiere%20site", DEFAULT)
    assert config.backend.endswith("filebased.EmailBackend")
    assert config.file_path == "/var/mail/condottiere site"


@pytest.mark.parametrize(("scheme", "backend"), [("console", "console"), ("locmem", "locmem")])
def test_console_and_memory(scheme, backend):
    config = email_config(f"{scheme}://", DEFAULT)
    assert config.backend == f"django.core.mail.backends.{backend}.EmailBackend"
    assert config.file_path is None


def test_smtp_with_starttls_and_an_encoded_password():
    config = email_config("smtp://mailer%40example.org:p%40ss%3Aw@smtp.example.org?tls=1", DEFAULT)
    assert config.backend == "django.core.mail.backends.smtp.EmailBackend"
    assert (config.host, config.port) == ("smtp.example.org", 587)
    assert (config.user, config.password) == ("mailer@example.org", "p@ss:w")
    assert (config.use_tls, config.use_ssl) == (True, False)


def test_smtps_and_explicit_port_and_timeout():
    config = email_config("smtps://u:p@smtp.example.org:2465?timeout=3", DEFAULT)
    assert (config.port, config.use_ssl, config.use_tls, config.timeout) == (2465, True, False, 3)
    plain = email_config("smtp://localhost", DEFAULT)
    assert (plain.port, plain.user, plain.use_tls, plain.use_ssl) == (25, "", False, False)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("pigeon://loft", "must look like"),
        ("smtp://", "names no SMTP host"),
        ("smtp://u:secret@host:port", "malformed port"),
        ("smtp://u:secret@host?tls=maybe", "option tls must be 1 or 0"),
        ("smtp://u:secret@host?tls=1&ssl=1", "choose one"),
        ("smtp://u:secret@host?starttls=1", "unknown option 'starttls'"),
        ("smtp://u:secret@host?timeout=0", "option timeout"),
        ("file://relative/folder", "absolute folder"),
    ],
)
def test_a_bad_url_is_explained_without_its_password(url, words):
    with pytest.raises(ImproperlyConfigured) as raised:
        email_config(url, DEFAULT)
    message = str(raised.value)
    assert words in message
    assert "secret" not in message
    assert "\n" not in message


@pytest.mark.parametrize("value", ["Condottiere <noreply@example.org>", "site@example.org"])
def test_a_from_address(value):
    assert from_address(value) == value


@pytest.mark.parametrize("value", ["Condottiere", "<@example.org>", "noreply@"])
def test_a_bad_from_address_stops(value):
    with pytest.raises(ImproperlyConfigured, match="DEFAULT_FROM_EMAIL must be an e-mail address"):
        from_address(value)


def test_a_bad_email_url_stops_the_start_with_one_line():
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "EMAIL_URL": "smtp://u:pw@h:x"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("Configuration error: EMAIL_URL has a malformed port")
    assert "pw" not in line.split("got")[1].replace("***", "")
