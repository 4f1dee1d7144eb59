"""memesite settings: one flat file, every value read from the environment.

Defaults give the embedded setup (SQLite, a server-less Celery broker, media
on local disk) so `make run` works on a fresh machine. Production sets
DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY, ALLOWED_HOSTS and DEBUG=false.
A malformed value stops the process with ImproperlyConfigured naming it.
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from memesite.logs import CLIENT_REFUSALS
from memesite.rates import Rate

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set")
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, minimum: int = 0, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {value}")
    return value


def env_rate(name: str, default: str) -> str:
    """A limit written as uses/period, e.g. ``120/minute`` or ``5/h`` (the one
    parser: memesite/rates.py)."""
    value = env_str(name, default).strip()
    try:
        Rate.parse(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} {error}") from None
    return value


# Limits that were a whole number of uses per hour or minute before every limit
# became a rate, by their old names: each still works, read as that rate, and
# `manage.py check` (which bin/serve runs at start-up) names the line to write
# instead (memesite/limits.py). {old name: "NEW_NAME=rate"}
LIMITS_UNDER_OLD_NAMES: dict[str, str] = {}


def env_limit(name: str, default: str, old_name: str = "", old_period: str = "hour") -> str:
    """A policy's rate from ``name`` (env_rate), or from ``old_name``, a whole
    number of uses per ``old_period``, where only that is set."""
    if not (old_name and os.environ.get(old_name)):
        return env_rate(name, default)
    if os.environ.get(name):
        raise ImproperlyConfigured(f"{old_name} is the old name of {name}: set {name} alone")
    rate = str(Rate(env_int(old_name, 0, minimum=1), old_period))
    LIMITS_UNDER_OLD_NAMES[old_name] = f"{name}={rate}"
    return rate


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_proxies(name: str) -> list[str]:
    """Addresses or networks (10.0.0.0/8), or "unix" for a proxy on a Unix socket."""
    entries = env_list(name)
    for entry in entries:
        if entry == "unix":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list addresses, networks (10.0.0.0/8) or unix, not {entry!r}"
            ) from None
    return entries


SUPPORTED_DATABASES = ("django.db.backends.postgresql", "django.db.backends.sqlite3")


def env_database(name: str, default: str) -> dict[str, Any]:
    url = env_str(name, default)
    try:
        config: dict[str, Any] = environ.Env.db_url_config(url)
    except Exception as error:  # django-environ raises several types for bad URLs
        raise ImproperlyConfigured(f"{name} is not a database URL: {error}") from None
    if config.get("ENGINE") not in SUPPORTED_DATABASES:
        raise ImproperlyConfigured(
            f"{name} must be a postgres:// or sqlite:/// URL, not {url.split(':', 1)[0]!r}"
        )
    return config


DEBUG = env_bool("DEBUG", True)
VAR_DIR = Path(env_str("MEMESITE_VAR_DIR", str(BASE_DIR / "var")))
# The default SQLite database, the server-less broker and local media live here,
# and a fresh clone has no such directory yet.
VAR_DIR.mkdir(parents=True, exist_ok=True)
if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "insecure-development-key-only-for-debug-mode-0123456789abcdef")
else:
    SECRET_KEY = env_str("SECRET_KEY")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long in production")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files (CSP: self)
    "axes",
    "memesite",  # the site's own mechanisms; its one table is the limiter's buckets
    "feed",
    "generation",
]

MIDDLEWARE = [
    # A trusted proxy that names no client is refused, not counted as every visitor (memesite/middleware.py).
    "memesite.middleware.ProxyNamesTheClientMiddleware",
    # A body declared over MAX_REQUEST_BYTES is a 413 before anything reads it (memesite/middleware.py).
    "memesite.middleware.RequestTooLargeMiddleware",
    # A database or Redis out of reach in any view is a 503, not a 500 (memesite/middleware.py).
    "memesite.middleware.ServiceUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "memesite.urls"
WSGI_APPLICATION = "memesite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{VAR_DIR / 'memesite.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat write to one file: WAL lets readers go on while one
    # writes, IMMEDIATE takes the write lock up front so two writers queue on
    # the busy timeout instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests share their database with threads and with worker processes, which
    # an in-memory database cannot do; one file per test run, so runs side by
    # side never share one.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-memesite-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60)
    # Before each request's first query: a connection PostgreSQL dropped (a
    # restart, a failover) is replaced instead of failing the request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_CONN_HEALTH_CHECKS", True)
    # psycopg 3 sends values apart from the statement and prepares a statement
    # the PREPARE_THRESHOLD-th time a connection runs it: PostgreSQL then
    # skips parsing and, once its generic plan is as cheap as planning anew,
    # planning (docs/feed.md, "Figures"). Off (DATABASE_PREPARED_STATEMENTS=false)
    # behind a pooler that hands one connection to several clients between
    # transactions, which the prepared statements of one would not follow.
    # (Beside the URL's own options, such as ?sslmode=require.)
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True,
            prepare_threshold=env_int("DATABASE_PREPARE_THRESHOLD", 5, minimum=0),
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    CACHES = {"default": environ.Env.cache_url_config(CACHE_URL)}
else:
    # Whatever caches must be shared by every web process; the default is the
    # database. (Rate limits do not use the cache: see memesite/limits.py.)
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "memesite_cache"}
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: Django's hook for "a password was changed" (feed/authentication.py).
    {"NAME": "feed.authentication.RevokeTokensOnPasswordChange"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "feed"
LOGOUT_REDIRECT_URL = "login"

# The proxies in front of the site (the TLS-terminating one): only from these
# is X-Forwarded-For believed (memesite/addresses.py). Empty: clients connect
# directly, and their own address is the one that counts.
TRUSTED_PROXIES = env_proxies("TRUSTED_PROXIES")

# Sign-in lock-outs on the client's address (memesite/sign_in_limits.py): a
# username + address pair after a few failures (guessing one password), an
# address after more failures across usernames (spraying one password over many).
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=1)
AXES_COOLOFF_TIME = env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "memesite.sign_in_limits.PairAndAddressLimits"
AXES_CLIENT_IP_CALLABLE = "memesite.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "memesite.sign_in_limits.locked_out"  # JSON for API clients
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env_bool("LOGIN_THROTTLE", True)
AXES_VERBOSE = False
# Days axes' logs of sign-ins (addresses, browsers) are kept to look into a
# reader's "someone signed in as me"; the hourly upkeep deletes older ones, and
# failed attempts once past the cool-off (memesite/sign_in_records.py).
LOGIN_LOG_DAYS = env_int("LOGIN_LOG_DAYS", 30, minimum=1)

# API tokens end this long after they are issued; signing out or changing the
# password ends them sooner (feed/authentication.py).
API_TOKEN_LIFETIME = timedelta(days=env_int("API_TOKEN_DAYS", 30, minimum=1))

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
WHITENOISE_USE_FINDERS = DEBUG
MEDIA_URL = env_str("MEDIA_URL", "/media/")
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))

# Media on S3-compatible object storage when web and workers run on different
# machines; local disk otherwise.
S3_BUCKET = env_str("S3_BUCKET", "")
_default_storage: dict[str, Any] = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
if S3_BUCKET:
    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "endpoint_url": env_str("S3_ENDPOINT_URL", "") or None,
            "region_name": env_str("S3_REGION", "") or None,
            "access_key": env_str("S3_ACCESS_KEY_ID", "") or None,
            "secret_key": env_str("S3_SECRET_ACCESS_KEY", "") or None,
            "custom_domain": env_str("S3_CUSTOM_DOMAIN", "") or None,
            "file_overwrite": False,
            "querystring_auth": env_bool("S3_SIGNED_URLS", False),
        },
    }
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "memesite.staticfiles.HashedStaticFiles"  # hashed names, module imports included
    },
}

# Uploads: the image checks in generation.images enforce their own limits (10 MB
# a file) and say so on the form; a request declaring a body over
# MAX_REQUEST_BYTES (well above that, so a somewhat large image still gets the
# form's message) is refused before it is read. Django buffers no more than
# 12 MiB in memory.
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 32_000_000, minimum=64 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "feed.authentication.ExpiringTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The API takes JSON only: no endpoint takes files, so multipart and form
    # bodies are refused (415) before anything parses them.
    # (DRF's JSON parser with a limit on nesting: memesite/parsers.py.)
    "DEFAULT_PARSER_CLASSES": ["memesite.parsers.DepthLimitedJSONParser"],
    # JSON out, in every configuration: no browsable API (an HTML page of every
    # endpoint's forms) for a browser that asks for text/html.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # A view's ``throttle_scope`` names a policy of the site's one limiter
    # (memesite/limits.py), which each request takes a use of; a view without
    # one is not throttled.
    "DEFAULT_THROTTLE_CLASSES": ["memesite.limits.ScopedLimit"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Limits on costly actions: one setting per policy of the site's one limiter
# (memesite/limits.py says what each counts, and whom), THROTTLE_<POLICY>,
# written as uses/period. Each is a bucket of uses per reader, address or the
# whole site that refills over the period, taken atomically in the database,
# so they hold across web processes and under parallel requests.
# Likes, dislikes, favourites, reports and staff hides, per reader.
THROTTLE_REACTIONS = env_limit("THROTTLE_REACTIONS", "120/minute")
# "Make a meme" requests per reader, a minute's and an hour's, and the whole site's a minute.
THROTTLE_GENERATION = env_limit("THROTTLE_GENERATION", "10/minute")
THROTTLE_GENERATION_HOURLY = env_limit(
    "THROTTLE_GENERATION_HOURLY", "30/hour", "GENERATION_USER_LIMIT_PER_HOUR"
)
THROTTLE_GENERATION_SITE = env_limit(
    "THROTTLE_GENERATION_SITE", "600/minute", "GENERATION_GLOBAL_LIMIT_PER_MINUTE", "minute"
)
# Fresh feed reads (no cursor) per reader: each writes up to 100 rows of the
# reader's frozen feed, which live a day. A person opens the feed, reloads,
# switches sort or template a few dozen times an hour at most; a script that
# starts feeds in a loop writes at most 100 rows a feed, 60 feeds an hour (and
# 60 more at once).
THROTTLE_FEED_SESSIONS = env_limit("THROTTLE_FEED_SESSIONS", "60/hour")
# Memes served per reader, fresh reads and following ``next`` alike: each one
# served is a row of the reader's memory of seen memes and at most one of a
# frozen feed. A person scrolling fast takes 2-3 a second; a script following
# ``next`` in a loop is held to 200 a minute, 12,200 in any hour.
THROTTLE_FEED_MEMES = env_limit("THROTTLE_FEED_MEMES", "200/minute")
# Jobs a reader's scrolling may start, once they have been served every ready
# meme of what they read (generation/services.py): 8 × 64 = 512 new memes an
# hour, one every 7 s, more than a person reads beyond what is already there.
# A script paging as fast as it can costs no more.
THROTTLE_FEED_JOBS = env_limit("THROTTLE_FEED_JOBS", "8/hour", "GENERATION_READER_JOBS_PER_HOUR")
# Memes the whole site may queue, whatever asks (scrolling, "make a meme", the
# stock top-up): about 1 GB of images an hour at ~165 KB each. One worker makes
# over 100,000 an hour, so under attack this budget is the limit.
THROTTLE_SITE_MEMES = env_limit("THROTTLE_SITE_MEMES", "6000/hour", "GENERATION_SITE_MEMES_PER_HOUR")
# Of those, what "make a meme" requests may queue, all readers together: the
# rest stays for the feed and the stock, so a few accounts asking all they may
# (THROTTLE_GENERATION_HOURLY each) cannot spend the site's whole budget.
_site_memes = Rate.parse(THROTTLE_SITE_MEMES)
THROTTLE_REQUEST_MEMES = env_limit(
    "THROTTLE_REQUEST_MEMES", str(Rate(max(1, _site_memes.uses // 2), _site_memes.period))
)
# Sign-in attempts (the pages, the admin's, the API's token, a password change's
# old password) per client address, right or wrong: each checks a password,
# about a second of a web worker's CPU. Failures also lock out
# (LOGIN_FAILURE_LIMIT); this bounds the rest. An office behind one address
# signs in a few times a day per person.
THROTTLE_SIGN_IN = env_limit("THROTTLE_SIGN_IN", "100/hour")
# Sign-ups: every per-reader limit is per account, so accounts are limited too.
# Per address (an office or a phone network may share one), and site-wide so
# that many addresses together cannot mint accounts without end.
THROTTLE_SIGN_UP = env_limit("THROTTLE_SIGN_UP", "10/hour", "SIGN_UP_ADDRESS_LIMIT_PER_HOUR")
THROTTLE_SIGN_UP_SITE = env_limit("THROTTLE_SIGN_UP_SITE", "500/hour", "SIGN_UP_GLOBAL_LIMIT_PER_HOUR")

SPECTACULAR_SETTINGS = {
    "TITLE": "memesite API",
    "DESCRIPTION": "AI-written memes: feed, reactions, favourites and meme requests.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery. The default broker is kombu's SQLAlchemy transport on a SQLite file:
# no server to install. Production points CELERY_BROKER_URL at Redis.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# When the broker connection drops, a task still running will be redelivered
# (acks_late): stop it rather than let two copies run (Celery 6's default).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Redis redelivers an unacknowledged message after this many seconds; it must
# exceed the longest task (a batch of captions on a CPU takes seconds).
# (The SQLAlchemy transport hands its options to create_engine, so only Redis gets it.)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600, minimum=30)
    }

CELERY_TASK_ROUTES = {
    "generation.tasks.write_captions": {"queue": "model"},
    "generation.tasks.*": {"queue": "default"},
    "feed.tasks.*": {"queue": "default"},
}
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-generation": {"task": "generation.tasks.sweep", "schedule": env_int("SWEEP_SECONDS", 30, 1)},
    "tidy-feed": {"task": "feed.tasks.tidy_feed", "schedule": 3600.0},
    "top-up-template-stock": {
        "task": "generation.tasks.top_up_stock",
        "schedule": env_int("TOP_UP_SECONDS", 60, 1),
    },
}

# Generation.
CAPTION_MODEL_DIR = Path(env_str("CAPTION_MODEL_DIR", str(BASE_DIR / "models" / "captions")))
CAPTION_DEVICE = env_str("CAPTION_DEVICE", "auto")
# Captions drawn per caption shown; the likeliest are kept (generation/captions/rerank.py).
# Quality against worker time: docs/captions.md has both, judged blind and measured.
CAPTION_CANDIDATES = env_int("CAPTION_CANDIDATES", 4, minimum=1, maximum=16)
# The same for captions asked for keywords (readers' make-a-meme requests): more to choose from.
CAPTION_KEYWORD_CANDIDATES = env_int("CAPTION_KEYWORD_CANDIDATES", 8, minimum=1, maximum=16)
# Sampling cost is dominated by per-token steps, not batch width: 64 captions
# take about as long as 16 on a CPU, so jobs are large.
# (At most 64: the caption model's limit on variants per request.)
GENERATION_BATCH_SIZE = env_int("GENERATION_BATCH_SIZE", 64, minimum=1, maximum=64)
# Fresh ready memes the stock top-up keeps per active template, on average: a
# third for every template, the rest shared out by the bandit's chances
# (generation/steering.py), so liked templates get more of the new memes.
GENERATION_STOCK_PER_TEMPLATE = env_int("GENERATION_STOCK_PER_TEMPLATE", 30, minimum=0)
GENERATION_JOB_DEADLINE_SECONDS = env_int("GENERATION_JOB_DEADLINE_SECONDS", 300, minimum=1)
# No scrolling starts a job for a template that already holds this many memes
# made in the last day that fewer than five readers have voted on: 500 memes
# is over a quarter of an hour of that one template at a meme every 2 s.
GENERATION_TEMPLATE_CEILING = env_int("GENERATION_TEMPLATE_CEILING", 500, minimum=1)
RENDER_WIDTH = env_int("RENDER_WIDTH", 800, minimum=100)
# JPEG encodes 3-4x faster than WebP with Pillow, and rendering shares the
# worker with sampling; WebP files are about a third smaller.
RENDER_FORMAT = env_str("RENDER_FORMAT", "jpeg").lower()
if RENDER_FORMAT not in ("webp", "jpeg"):
    raise ImproperlyConfigured(f"RENDER_FORMAT must be webp or jpeg, not {RENDER_FORMAT!r}")
# Lighter WebP copies of each meme for pages (full width and 600 px), made as it
# is rendered: render + store takes ~3.5x the CPU it takes with the JPEG alone
# (one worker end to end: a quarter fewer memes/s), for 38% fewer bytes per meme
# on a phone and 57% on a desktop (docs/rendering.md). Off, pages show the image
# alone, and manage.py make_image_variants makes the copies later.
RENDER_VARIANTS = env_bool("RENDER_VARIANTS", True)

# Content security policy on every page (django-csp 4 format).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:", *env_list("CSP_IMG_SOURCES")],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        # Style attributes cannot run script; the admin's box preview places
        # its outlines with them.
        "style-src-attr": ["'unsafe-inline'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must name this site's host(s) when DEBUG is off")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"client_refusal": {"()": "memesite.logs.ClientRefusal"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # A refused bad request (unknown Host, body too large): one WARNING
        # line, not an ERROR with a traceback (memesite/logs.py).
        **{f"django.security.{name}": {"filters": ["client_refusal"]} for name in CLIENT_REFUSALS},
    },
}
