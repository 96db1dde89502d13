"""Small helpers that read the environment and fail loudly on bad values.

Every helper raises ImproperlyConfigured with a one-line explanation, so a bad
setting stops the start with a message an operator can act on.
"""

import os
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool) -> bool:
    raw = env_str(name)
    if raw is None:
        return default
    word = raw.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = env_str(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {value}")
    return value


def env_float(name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = env_str(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number; got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = env_str(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def require(name: str, why: str) -> str:
    value = env_str(name)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set {why}")
    return value


# SQLite, the embedded default's database (or a sqlite:// DATABASE_URL): one process's request
# handlers, sockets and job threads all write to it, and SQLite lets one connection write at a
# time. The options against "database is locked" (Django's notes on SQLite, SQLite's own advice):
# - transaction_mode IMMEDIATE: a transaction takes the write lock at BEGIN, where SQLite waits
#   for it (the busy timeout). A deferred transaction that reads first and writes later is
#   refused at once when another connection wrote in between, whatever the timeout: SQLite cannot
#   make it wait there without a deadlock. Every transaction of the site writes, or reads to write.
# - timeout: seconds a connection waits for the write lock before "database is locked".
# - WAL journal: readers never wait for the writer, nor the writer for readers; with it,
#   synchronous NORMAL is safe from a crash of the process (a power cut may lose the last commits).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}


def database_config(url: str, pool_size: int = 0) -> dict:
    """Parse DATABASE_URL, accepting only the engines this project supports. With `pool_size`,
    PostgreSQL connections come from a pool of that many per process (psycopg's pool, which
    Django uses; the way Django advises under ASGI, where persistent connections are not)."""
    scheme = urlparse(url).scheme
    if scheme not in {"postgres", "postgresql", "sqlite"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or sqlite://; got {url!r}"
        )
    try:
        config = dj_database_url.parse(url, conn_max_age=0)
    except Exception as error:  # dj_database_url raises several types for bad URLs
        raise ImproperlyConfigured(f"DATABASE_URL is malformed ({error}): {url!r}") from None
    if scheme.startswith("postgres") and not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL names no database: {url!r}")
    if scheme == "sqlite":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    if scheme.startswith("postgres") and pool_size > 0:
        config["CONN_HEALTH_CHECKS"] = True  # the pool checks a connection before lending it
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, pool_size),
            "max_size": pool_size,
            # A request that finds every connection lent waits this long, then fails.
            "timeout": POOL_TIMEOUT,
        }
    return config


# Seconds a database call waits for a free pooled connection before it fails.
POOL_TIMEOUT = 10


def redis_url(url: str, name: str = "REDIS_URL") -> str:
    """`url` if it names a Redis server; `name` is the variable it came from, for the message."""
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ImproperlyConfigured(f"{name} must look like redis://host:6379/0; got {url!r}")
    try:
        parsed.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a malformed port: {url!r}") from None
    return url


def redis_urls(name: str) -> list[str]:
    """A comma-separated list of Redis URLs, each checked as REDIS_URL is; [] when unset.
    A server named twice is refused: it would take two shares of the keys, and is a typo."""
    raw = env_str(name)
    if raw is None:
        return []
    urls = [redis_url(item.strip(), name) for item in raw.split(",")]
    if len(set(urls)) != len(urls):
        raise ImproperlyConfigured(f"{name} names a server twice: {raw!r}")
    return urls


def channel_layer_urls(broker_url: str) -> list[str]:
    """The channel layer's Redis servers: CHANNEL_LAYER_REDIS_URLS if set, else REDIS_URL's."""
    return redis_urls("CHANNEL_LAYER_REDIS_URLS") or [broker_url]


def channel_layer_prefix(broker_url: str) -> str:
    """The channel layer's prefix of names: channels-redis's own ("asgi") on REDIS_URL's
    database 0, else one naming the database. Redis's publish/subscribe channels belong to no
    database, so two sites (or test runs, or a load test beside them) on one Redis server with
    different databases would otherwise hear each other's game notices."""
    database = urlparse(broker_url).path.strip("/") or "0"
    return "asgi" if database == "0" else f"asgi-db{database}-"


# The channel layer waits for a socket's next message with a blocking Redis read of 5 s
# (channels-redis's brpop_timeout). redis-py 8 gives every connection a 5 s socket timeout by
# default, which cut that read short: a socket that heard nothing for 5 s was closed (1011).
CHANNEL_LAYER_SOCKET_TIMEOUT = 30
# redis-py 8 caps a pool at 100 connections and fails the 101st at once; 200 sockets closing
# together (each leaving its group) raised "Too many connections" in the load test.
CHANNEL_LAYER_MAX_CONNECTIONS = 1000


def channel_layer_retry() -> Retry:
    """After Redis restarts, every connection a pool kept is dead, and channels-redis's pools
    retry nothing: the first command on each failed, a hint was lost and a socket's group_add
    closed it. Retried on a connection error only (the command then runs on a new connection);
    a timeout is a hung server, and the socket timeout is already 30 s. Should a server have run
    a command before its connection died, the retry delivers it twice, which the clients take
    in their stride: a hint names a version, a chat message carries its id."""
    backoff = ExponentialBackoff(cap=0.5, base=0.05)
    return Retry(backoff, retries=2, supported_errors=(RedisConnectionError,))


def channel_layer_host(url: str) -> dict:
    """channels-redis's host entry for REDIS_URL, with a read timeout longer than its blocking
    read (and keepalive, so that a dead server is still noticed), and a retry on a dead
    connection."""
    return {
        "retry": channel_layer_retry(),
        "address": url,
        "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 30,
        "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
    }
