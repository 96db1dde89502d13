"""EMAIL_URL and DEFAULT_FROM_EMAIL: how the site sends its mails, read from the environment.

One URL names the backend and its options, as DATABASE_URL does for the database:

    smtp://user:password@host:587?tls=1   SMTP with STARTTLS (user and password percent-encoded)
    smtps://user:password@host            SMTP over TLS from the first byte (port 465)
    console://                            each mail printed on the server's standard output
    file:///var/mail/condottiere          each mail written to a file in that folder
    locmem://  dummy://                   kept in memory (tests) / thrown away

Nothing set: the file backend, writing into the default folder the settings give (the README
says where). Parsed here with the standard library: the packages that do it (dj-email-url) are
unmaintained, and the grammar is small. A bad URL raises ImproperlyConfigured with one line
that never repeats the password.
"""

from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from .env import FALSE_WORDS, TRUE_WORDS

BACKEND = "django.core.mail.backends.{}.EmailBackend"
# Schemes that need nothing but their name.
PLAIN_BACKENDS = {"console": "console", "locmem": "locmem", "dummy": "dummy"}
SMTP_OPTIONS = {"tls", "ssl", "timeout"}
EXAMPLE = "smtp://user:password@host:587?tls=1, console://, or file:///path/to/folder"


@dataclass(frozen=True)
class EmailConfig:
    """Django's EMAIL_* settings, with Django's defaults where the URL says nothing."""

    backend: str
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    timeout: float | None = None
    file_path: str | None = None


def email_config(url: str | None, default_folder: Path) -> EmailConfig:
    """The e-mail settings EMAIL_URL asks for; without it, mails become files in the folder."""
    if not url:
        return EmailConfig(backend=BACKEND.format("filebased"), file_path=str(default_folder))
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in PLAIN_BACKENDS:
        return EmailConfig(backend=BACKEND.format(PLAIN_BACKENDS[scheme]))
    if scheme == "file":
        return _file_config(url, parts)
    if scheme in {"smtp", "smtps"}:
        return _smtp_config(url, parts, implicit_tls=scheme == "smtps")
    raise _bad(url, f"must look like {EXAMPLE}")


def _file_config(url: str, parts) -> EmailConfig:
    folder = unquote(parts.path)
    if parts.netloc or not folder.startswith("/"):
        raise _bad(url, "needs an absolute folder after file://, e.g. file:///var/mail/site")
    return EmailConfig(backend=BACKEND.format("filebased"), file_path=folder)


def _smtp_config(url: str, parts, *, implicit_tls: bool) -> EmailConfig:
    if not parts.hostname:
        raise _bad(url, "names no SMTP host")
    options = _smtp_options(url, parts.query)
    use_ssl = implicit_tls or options.get("ssl", False)
    use_tls = options.get("tls", False)
    if use_ssl and use_tls:
        raise _bad(url, "asks for both tls (STARTTLS) and ssl (TLS from the start): choose one")
    try:
        port = parts.port
    except ValueError:
        raise _bad(url, "has a malformed port") from None
    return EmailConfig(
        backend=BACKEND.format("smtp"),
        host=parts.hostname,
        port=port or (465 if use_ssl else 587 if use_tls else 25),
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=use_tls,
        use_ssl=use_ssl,
        timeout=options.get("timeout", 10.0),
    )


def _smtp_options(url: str, query: str) -> dict:
    options = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name not in SMTP_OPTIONS:
            raise _bad(url, f"has an unknown option {name!r} (known: tls, ssl, timeout)")
        options[name] = _timeout(url, value) if name == "timeout" else _flag(url, name, value)
    return options


def _flag(url: str, name: str, value: str) -> bool:
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _bad(url, f"option {name} must be 1 or 0; got {value!r}")


def _timeout(url: str, value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise _bad(url, f"option timeout must be a number of seconds above 0; got {value!r}")
    return seconds


def _bad(url: str, why: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"EMAIL_URL {why}; got {redacted(url)!r}")


def redacted(url: str) -> str:
    """The URL with its password replaced, fit for an error message or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def from_address(value: str) -> str:
    """DEFAULT_FROM_EMAIL, checked: an address, with or without a name ("Site <a@b.org>")."""
    _name, address = parseaddr(value)
    if "@" not in address or address.startswith("@") or address.endswith("@"):
        raise ImproperlyConfigured(
            f"DEFAULT_FROM_EMAIL must be an e-mail address, e.g. Condottiere <noreply@example.org>;"
            f" got {value!r}"
        )
    return value
