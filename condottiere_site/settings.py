"""One settings module for every profile, read from the environment.

Nothing set: the embedded default (SQLite, in-memory channel layer, bot turns
in-process, DEBUG on). DATABASE_URL selects PostgreSQL; REDIS_URL selects the
Redis channel layer and Celery; DJANGO_DEBUG=0 is production and requires
DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS. See README.md.
"""

from pathlib import Path

from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from .email_config import email_config, from_address
from .env import (
    SQLITE_OPTIONS,
    channel_layer_host,
    channel_layer_prefix,
    channel_layer_urls,
    database_config,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_str,
    redis_url,
    require,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)
PRODUCTION = not DEBUG

if PRODUCTION:
    SECRET_KEY = require("DJANGO_SECRET_KEY", "when DJANGO_DEBUG=0 (production)")
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        require("DJANGO_ALLOWED_HOSTS", "when DJANGO_DEBUG=0 (production), e.g. example.org")
else:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", "django-insecure-development-only-key-do-not-deploy")
    ALLOWED_HOSTS = env_list(
        "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"]
    )
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
    "games.matches",
    "games.chat",
    "games.botapi",
    "games.analysis",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "condottiere_site.content_security.SiteCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A database refusing connections answers 503 with Retry-After, not 500
    # (games/limits/middleware.py).
    "games.limits.middleware.DatabaseBusyMiddleware",
]

ROOT_URLCONF = "condottiere_site.urls"
ASGI_APPLICATION = "condottiere_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.accounts.next_links.account_links",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    # A pool of connections per process: opening one costs PostgreSQL a process fork, and every
    # socket call and job would otherwise open one. Size it so that every process's pool fits
    # under PostgreSQL's max_connections (docs/operations.md).
    DATABASES = {"default": database_config(DATABASE_URL, env_int("DATABASE_POOL_SIZE", 8))}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            # A file, not memory, so that a separately started test server (Daphne in a
            # subprocess, for browser tests) sees the same test database.
            "TEST": {"NAME": BASE_DIR / "test-db.sqlite3"},
            # WAL, a busy timeout and IMMEDIATE transactions: see SQLITE_OPTIONS (env.py).
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery ----------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    redis_url(REDIS_URL)
    # channels-redis's publish/subscribe layer: a group notice is one PUBLISH, which each Daphne
    # process watching the group receives once and hands to its own sockets in memory. Its list
    # layer (channels_redis.core) queued a copy per socket and took each out with four round trips
    # (about a third of a Daphne's CPU per move, and 1,000 copies for 1,000 spectators). Its
    # delivery is at most once, which is all a notice needs: the database is the truth, a notice
    # only says "version N exists", and a client that missed one asks for the state (protocol.md).
    # The channel layer alone may spread over several Redis servers (CHANNEL_LAYER_REDIS_URLS):
    # channels-redis puts each group, and each process's own channels, on one of its hosts by a
    # hash of the name, so every process must be given the same list in the same order. REDIS_URL
    # stays the broker, the cache and the counters.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [channel_layer_host(url) for url in channel_layer_urls(REDIS_URL)],
                "prefix": channel_layer_prefix(REDIS_URL),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # kombu's Redis transport, with one Redis client object per channel (games/jobs/broker.py).
    CELERY_BROKER_TRANSPORT = "games.jobs.broker:Transport"
    CELERY_RESULT_BACKEND = REDIS_URL
    # Jobs (bot turns, turn timers, ratings, autofill, the sweep) go to Celery workers.
    JOB_RUNNER = "celery"
else:
    if env_str("CHANNEL_LAYER_REDIS_URLS"):
        require("REDIS_URL", "with CHANNEL_LAYER_REDIS_URLS (the broker, cache and counters)")
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # No broker: jobs run in this process, on a thread pool off the event loop
    # (games/jobs/__init__.py).
    JOB_RUNNER = "in_process"

# The cache holds counters of django-ratelimit (the Bot API's per-token rates) and others: on
# Redis they are shared by every Daphne process; without Redis there is one process, and its
# memory will do. The throttles of games/limits/throttles.py keep theirs in Redis directly.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "condottiere",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Two broker queues, so that play never waits behind heavy work: each job goes to the queue of its
# kind (`job(name, queue=...)` in games/tasks.py) through the router of games/jobs/__init__.py, and
# each queue has workers of its own (docs/operations.md): "play" for anything a live game waits on,
# "background" for analyses and the like.
JOB_QUEUES = {"play": "play", "background": "background"}
CELERY_TASK_DEFAULT_QUEUE = JOB_QUEUES["play"]
CELERY_TASK_ROUTES = ("games.jobs.route",)
# A task taken by a worker that then died (SIGKILL, OOM: no chance to hand it back) is delivered
# again after this many seconds; Redis's default is an hour. Jobs here take seconds; a delay
# longer than half of it reaches the broker in hops (games/jobs/__init__.py), since a countdown
# longer than the visibility timeout would be delivered twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 60}
# Celery's Django fixup closes the database connection (and, in a prefork child, the whole pool)
# before and after every task unless this is set: a new PostgreSQL connection per job. With it,
# the pool survives; condottiere_site/celery.py gives the connection back to it after each job.
CELERY_DB_REUSE_MAX = 500
# Seconds between two sweeps for overdue work (games/jobs/sweep.py): a turn timer, bot turn or
# autofill lost with the broker or a restart is announced again. Celery beat runs it with the broker
# (`make run` and production run one `celery beat` beside the workers); the embedded
# profile runs it on a timer thread. 0 turns the embedded timer off (the tests do).
JOB_SWEEP_SECONDS = env_float("JOB_SWEEP_SECONDS", 5.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-due-work": {
        "task": "games.sweep",
        "schedule": JOB_SWEEP_SECONDS or 5.0,
        # A sweep not started before the next one is due is dropped, not queued up.
        "options": {"expires": JOB_SWEEP_SECONDS or 5.0},
    },
}

# Seconds a bot waits before moving, so people can follow the play.
BOT_MOVE_DELAY = env_float("BOT_MOVE_DELAY", 0.8)
# Seconds of thinking given to the strongest bots on the site.
BOT_THINK_SECONDS = env_float("BOT_THINK_SECONDS", 1.5)

# --- Limits against abuse (docs/protocol.md, docs/operations.md "Limits") ----------------------
# Open websockets per account and per client address, across every process (0: no cap).
SOCKETS_PER_ACCOUNT = env_int("SOCKETS_PER_ACCOUNT", 20)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 40)
# Sockets one client address may open per minute, game and lobby together (0: no cap): a client
# that reconnects after every flood close would otherwise start each socket's count afresh.
SOCKET_CONNECTS_PER_MINUTE = env_int("SOCKET_CONNECTS_PER_MINUTE", 60)
# A crashed process's sockets stop counting this many seconds after their last renewal.
SOCKET_SLOT_SECONDS = 60.0
# Bot API event streams open at once per token and per account, across every process (0: no
# cap; games/botapi/stream_slots.py). A waiting stream holds no database connection, but each
# read borrows one: keep these below DATABASE_POOL_SIZE.
BOT_API_STREAMS_PER_TOKEN = env_int("BOT_API_STREAMS_PER_TOKEN", 2)
BOT_API_STREAMS_PER_ACCOUNT = env_int("BOT_API_STREAMS_PER_ACCOUNT", 4)
# Bot API requests, and event streams opened, per token in a minute (0: no limit).
BOT_API_REQUESTS_PER_MINUTE = env_int("BOT_API_REQUESTS_PER_MINUTE", 600)
BOT_API_STREAMS_PER_MINUTE = env_int("BOT_API_STREAMS_PER_MINUTE", 20)
# Frames from a client: at most this many bytes, objects and lists nested this deep.
SOCKET_FRAME_MAX_BYTES = 4096
SOCKET_FRAME_MAX_DEPTH = 6
# A flood closes the socket: more than N frames within S seconds (the lobby asks for less).
SOCKET_FLOOD_FRAMES, SOCKET_FLOOD_SECONDS = 20, 2.0
LOBBY_FLOOD_FRAMES, LOBBY_FLOOD_SECONDS = 10, 10.0
# Tables an account may have open and waiting, and open per minute (any kind, bots included).
OPEN_TABLES_PER_ACCOUNT = 3
TABLES_OPENED_PER_MINUTE = 10
# The lobby lists at most this many open tables besides your own (the longest waiting first).
LOBBY_OPEN_TABLES_LISTED = 50
# What one account can make the site compute (games/accounts/quotas.py, games/analysis/service.py,
# games/history/records.py); 0: no limit. Analyses of theirs queued or running at once, and asked
# for an hour; records imported an hour, and actions replayed for one record (a match's games
# together).
ANALYSES_QUEUED_PER_ACCOUNT = env_int("ANALYSES_QUEUED_PER_ACCOUNT", 2)
ANALYSES_PER_HOUR = env_int("ANALYSES_PER_HOUR", 10)
RECORD_IMPORTS_PER_HOUR = env_int("RECORD_IMPORTS_PER_HOUR", 10)
RECORD_IMPORT_MAX_ACTIONS = env_int("RECORD_IMPORT_MAX_ACTIONS", 15000)
# Bytes of one HTTP request body, refused with 413 before more is read, whatever server or proxy
# stands in front (condottiere_site/body_limits.py; 0: no cap). A 2 MB record file and its form.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", 3 * 1024 * 1024)

# --- Accounts -------------------------------------------------------------------------------
AUTH_USER_MODEL = "games.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Throttles (games/limits/throttles.py): a slot is taken before the work, in sliding windows (Redis
# in production). A refused attempt costs no password hash. 0 turns a throttle off (a load test
# signing up hundreds of players from one address does). Log-in failures are counted per address
# and per username from one address; per username from everywhere only up to a high ceiling,
# which a device the owner logged in from before is not held to (a guesser cannot lock them out).
LOGIN_FAILURES_PER_USERNAME_AND_IP = env_int("LOGIN_FAILURES_PER_USERNAME_AND_IP", 5)
LOGIN_FAILURES_PER_IP = env_int("LOGIN_FAILURES_PER_IP", 20)
LOGIN_FAILURES_PER_USERNAME = env_int("LOGIN_FAILURES_PER_USERNAME", 100)
# Requests and socket handshakes presenting an unknown or revoked Bot API token, per client
# address in any minute (games/botapi/auth.py): HTTP 429, or close 4008.
BOT_API_BAD_TOKENS_PER_MINUTE = env_int("BOT_API_BAD_TOKENS_PER_MINUTE", 60)
LOGIN_FAILURE_WINDOW_MINUTES = env_int("LOGIN_FAILURE_WINDOW_MINUTES", 15, minimum=1)
SIGNUPS_PER_IP = env_int("SIGNUPS_PER_IP", 5)
SIGNUP_WINDOW_MINUTES = env_int("SIGNUP_WINDOW_MINUTES", 60, minimum=1)
# Every log-in, the site's and the admin's, passes the throttle before a password is hashed.
AUTHENTICATION_BACKENDS = ["games.limits.throttles.ThrottledModelBackend"]

# --- E-mail (docs/accounts.md) -----------------------------------------------------------------
# EMAIL_URL names the backend (condottiere_site/email_config.py); nothing set: every mail is a
# file in sent-mail/ beside manage.py, to read in development.
EMAIL_DEFAULT_FOLDER = BASE_DIR / "sent-mail"
_email = email_config(env_str("EMAIL_URL"), EMAIL_DEFAULT_FOLDER)
EMAIL_BACKEND = _email.backend
EMAIL_HOST, EMAIL_PORT = _email.host, _email.port
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _email.user, _email.password
EMAIL_USE_TLS, EMAIL_USE_SSL, EMAIL_TIMEOUT = _email.use_tls, _email.use_ssl, _email.timeout
EMAIL_FILE_PATH = _email.file_path
DEFAULT_FROM_EMAIL = from_address(env_str("DEFAULT_FROM_EMAIL", "Condottiere <noreply@localhost>"))
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A verification link works this long; a password reset link, Django's PASSWORD_RESET_TIMEOUT.
EMAIL_VERIFICATION_SECONDS = 3 * 24 * 3600
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600
# Mails a person may ask for (password resets and verification links together) per address and
# per client address in a window (games/accounts/email.py); 0: no limit.
ACCOUNT_MAILS_PER_ADDRESS = env_int("ACCOUNT_MAILS_PER_ADDRESS", 3)
ACCOUNT_MAILS_PER_IP = env_int("ACCOUNT_MAILS_PER_IP", 10)
ACCOUNT_MAIL_WINDOW_MINUTES = env_int("ACCOUNT_MAIL_WINDOW_MINUTES", 60, minimum=1)

# --- Languages ------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# In development WhiteNoise serves straight from the source folders, no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Content-Security-Policy (django-csp; condottiere_site/content_security.py adds the host's
# ws:// and wss:// to connect-src) ------------------------------------------------------------
# Scripts and styles come from the site's own files; the one inline script (base.html's no-js
# switch, which must run before the first paint) carries the request's nonce. No style
# attributes: seat colours come from static/css/seats.css. No page may be framed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Production security ----------------------------------------------------------------------
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

# --- A reverse proxy in front (docs/operations.md, "HTTPS and a reverse proxy") ----------------
# How many proxies of ours stand between the clients and Daphne. 0 (the default): nobody is
# trusted, X-Forwarded-Proto and X-Forwarded-For are ignored (any client can write them), the
# client is the connection's peer. n >= 1: the proxy's X-Forwarded-Proto says whether the client
# used HTTPS, and the n-th address from the right of X-Forwarded-For is the client's
# (games/limits/client_address.py). The host stays the Host header the proxy passes on, checked
# against ALLOWED_HOSTS: X-Forwarded-Host is never believed.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}

# --- The Bot API (games/botapi, docs/bot-api.md) ------------------------------------------------
# A bot account's browser log-in is refused with a clear message, before any password hash;
# every other log-in goes on to the throttled backend as before.
AUTHENTICATION_BACKENDS = ["games.botapi.auth.RefuseBotAccountLogin", *AUTHENTICATION_BACKENDS]
