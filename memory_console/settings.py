"""Memory Console settings, read from the environment (see CONTRACT.md "Settings").

DEBUG defaults to off. With DEBUG off the process refuses to start unless a real
SECRET_KEY, encryption keys and an HMAC key are given; with DEBUG on (make run,
make test) fixed development keys are used so a bare machine needs no set-up.
"""

import base64
import hashlib
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from memory_console.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)


def _dev_fernet_key(label: str) -> str:
    """A fixed key for development only; never valid when DEBUG is off."""
    return base64.urlsafe_b64encode(hashlib.sha256(f"dev-only:{label}".encode()).digest()).decode()


_DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me-0123456789-abcdefghijklmnop"  # noqa: S105
SECRET_KEY = env_str("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
MEMORY_CONSOLE_ENCRYPTION_KEYS = env_list("MEMORY_CONSOLE_ENCRYPTION_KEYS") or (
    [_dev_fernet_key("encryption")] if DEBUG else []
)
MEMORY_CONSOLE_HMAC_KEY = env_str("MEMORY_CONSOLE_HMAC_KEY") or (
    _dev_fernet_key("hmac") if DEBUG else ""
)
# Signs exported audit checkpoints; deliberately separate from anything in the database.
MEMORY_CONSOLE_AUDIT_SIGNING_KEY = env_str("MEMORY_CONSOLE_AUDIT_SIGNING_KEY") or (
    _dev_fernet_key("audit-signing") if DEBUG else ""
)

if not DEBUG:
    if not SECRET_KEY or SECRET_KEY == _DEV_SECRET_KEY or len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("Set SECRET_KEY to a random value of 50+ characters.")
    if not MEMORY_CONSOLE_ENCRYPTION_KEYS:
        raise ImproperlyConfigured(
            "Set MEMORY_CONSOLE_ENCRYPTION_KEYS (comma-separated Fernet keys, newest first)."
        )
    if not MEMORY_CONSOLE_HMAC_KEY or len(MEMORY_CONSOLE_HMAC_KEY) < 32:
        raise ImproperlyConfigured("Set MEMORY_CONSOLE_HMAC_KEY to a random value of 32+ chars.")
    if len(MEMORY_CONSOLE_AUDIT_SIGNING_KEY) < 32 or MEMORY_CONSOLE_AUDIT_SIGNING_KEY in {
        MEMORY_CONSOLE_HMAC_KEY,
        *MEMORY_CONSOLE_ENCRYPTION_KEYS,
    }:
        raise ImproperlyConfigured(
            "Set MEMORY_CONSOLE_AUDIT_SIGNING_KEY to its own random value of 32+ chars; keep a "
            "copy outside the database, since it proves exported audit checkpoints."
        )
    _dev_keys = {_dev_fernet_key(label) for label in ("encryption", "hmac", "audit-signing")}
    if _dev_keys & {
        *MEMORY_CONSOLE_ENCRYPTION_KEYS,
        MEMORY_CONSOLE_HMAC_KEY,
        MEMORY_CONSOLE_AUDIT_SIGNING_KEY,
    }:
        raise ImproperlyConfigured("Development keys cannot be used with DEBUG off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework_api_key",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "guardian",
    "django_celery_beat",
    "django_htmx",
    "csp",
    "axes",
    "django_prometheus",
    "apps.core",
    "apps.tenancy",
    "apps.access",
    "apps.audit",
    "apps.memory",
    "apps.quarantine",
    "apps.conflicts",
    "apps.privacy",
    "apps.snapshots",
    "apps.reports",
    # Last: wires the apps above together (memory_console/pipeline.py).
    "memory_console.apps.PipelineConfig",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.audit.middleware.RequestContextMiddleware",
    "apps.memory.api.limits.ApiRequestMiddleware",
    # A view's `section` its user holds no grant for answers 403, saying whose it is.
    "apps.access.sections.SectionMiddleware",
    # Last, as django-axes requires: answers a locked-out login with the lockout page.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "memory_console.urls"
WSGI_APPLICATION = "memory_console.wsgi.application"

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
                "apps.access.context_processors.navigation",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
    )
}
IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
if IS_POSTGRES:
    # Bind parameters on the server so psycopg can prepare the statements a process runs
    # over and over (the gate's scope, dedupe and activity lookups): each is then planned
    # once per connection instead of on every write. A pooler in transaction mode needs
    # PgBouncer ≥ 1.22 (prepared-statement support) or DATABASE_PREPARE_THRESHOLD=0.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "server_side_binding": True,
            "prepare_threshold": env_int("DATABASE_PREPARE_THRESHOLD", 2) or None,
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out username or address before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
# Login lockout (django-axes, on /login/ and /admin/login/): after this many failures for
# one username (from any address) or from one address (for any username), further
# attempts answer 429 until the cool-off has passed or an admin unlocks (admin → Access
# attempts → "Unlock"). A success resets the count.
AXES_FAILURE_LIMIT = env_int("MEMORY_CONSOLE_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("MEMORY_CONSOLE_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "access/locked_out.html"
AXES_ENABLE_ADMIN = False  # apps.access.admin registers attempts with an audited unlock
AXES_VERBOSE = False
ANONYMOUS_USER_NAME = None  # guardian: no anonymous user row; anonymous callers see nothing
GUARDIAN_RAISE_403 = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security headers. Production (DEBUG off) gets the strict set that check --deploy expects.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 8 * 3600)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG

# Memory content is hostile: no inline script may ever run, whatever a page renders.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

REST_FRAMEWORK = {
    # Agents: `Authorization: Api-Key <key>` (first, so a missing login answers 401);
    # console users: their session, with CSRF.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.access.authentication.AgentAPIKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "apps.core.schema.MemoryConsoleAutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["apps.memory.api.limits.SizeLimitedJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["apps.memory.api.throttling.AgentKeyRateThrottle"],
    "EXCEPTION_HANDLER": "apps.core.api.api_exception_handler",
    "UNAUTHENTICATED_USER": None,
}
# Requests per API key (DRF rate syntax, e.g. "1200/min"); empty disables throttling.
MEMORY_CONSOLE_API_KEY_RATE = env_str("MEMORY_CONSOLE_API_KEY_RATE", "1200/min")
# Invalid API keys accepted per client address per minute before it is answered 429
# (0 disables the limit).
MEMORY_CONSOLE_BAD_KEY_LIMIT = env_int("MEMORY_CONSOLE_BAD_KEY_LIMIT", 20)
# Largest API request body accepted (413 above it); memory content has its own 64 KiB cap.
MEMORY_CONSOLE_MAX_REQUEST_BYTES = env_int("MEMORY_CONSOLE_MAX_REQUEST_BYTES", 1024 * 1024)
# Where MemoryPackage files (exports, uploaded restores) are kept; served only through the
# permission-checked download view, never as static or media files.
MEMORY_CONSOLE_SNAPSHOT_DIR = Path(
    env_str("MEMORY_CONSOLE_SNAPSHOT_DIR") or (BASE_DIR / "var" / "snapshots")
)
# Largest package accepted by the console's upload (bytes).
MEMORY_CONSOLE_SNAPSHOT_MAX_UPLOAD = env_int("MEMORY_CONSOLE_SNAPSHOT_MAX_UPLOAD", 2 * 1024**3)
SPECTACULAR_SETTINGS = {
    "TITLE": "Memory Console API",
    "DESCRIPTION": "Remember, recall, forget and merge agent memories; govern them.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Operation ids and tags count from /api/v1/: `memories_create`, tag `memories`.
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Memory content, wherever a serializer carries it (apps.core.serializers.ContentField).
    "APPEND_COMPONENTS": {
        "schemas": {
            "MemoryContent": {
                "type": "object",
                "additionalProperties": {},
                "minProperties": 1,
                "description": "A non-empty JSON object (64 KiB encoded by default), kept as "
                "written; never flattened to text.",
                "example": {"city": "Haidian"},
            }
        }
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One schema name per domain choice set, whichever serializer uses it.
    "ENUM_NAME_OVERRIDES": {
        "MemoryTypeEnum": "apps.memory.models.MemoryType",
        "MemoryStatusEnum": "apps.memory.models.MemoryStatus",
        "SourceKindEnum": "apps.memory.models.SourceKind",
        "DeletionRequestStatusEnum": "apps.privacy.models.RequestStatus",
    },
}

# Celery: JSON only; with no broker configured, tasks run eagerly in-process.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else None
)
# A broker outage must not stall requests that enqueue: connect within half a second and
# do not retry publishing (apps.memory.tasks.send_recall_accesses keeps what it could not
# send in the database).
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 2.0}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 0.5
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Declared here and copied into django-celery-beat's tables by `migrate` (and again by
# beat's DatabaseScheduler), where admins see and adjust them. Times are UTC. Every entry
# passes trigger="scheduled" (its JobRun says so) and expires: a run that could not start
# before its next one is due is dropped rather than piled up behind a stopped worker.


def _expiring(seconds: int) -> dict:
    """Beat options for a run that expires: `expires` is Celery's name for it, and
    `expire_seconds` the field django-celery-beat's tables read (they ignore `expires`)."""
    return {"expires": seconds, "expire_seconds": seconds}


CELERY_BEAT_SCHEDULE = {
    # Chain verify + health reports (per tenant and installation) + anomaly scan.
    "weekly-audit": {
        "task": "apps.reports.tasks.weekly_audit_task",
        "schedule": crontab(minute=0, hour=3, day_of_week="mon"),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(6 * 60 * 60),
    },
    "daily-decay-archival": {
        "task": "apps.memory.tasks.decay_task",
        "schedule": crontab(minute=15, hour=2),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(12 * 60 * 60),
    },
    # After the decay (fewer active rows to index); builds concurrently, writes go on.
    "daily-large-scope-vector-indexes": {
        "task": "apps.memory.tasks.index_large_scopes_task",
        "schedule": crontab(minute=45, hour=2),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(12 * 60 * 60),
    },
    "hourly-expiry": {
        "task": "apps.memory.tasks.expiry_task",
        "schedule": crontab(minute=5),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(50 * 60),
    },
    "hourly-gdpr-sla-watch": {
        "task": "apps.reports.tasks.gdpr_sla_task",
        "schedule": crontab(minute=10),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(50 * 60),
    },
    "monthly-full-audit-chain-verify": {
        "task": "apps.audit.tasks.verify_audit_chain_task",
        "schedule": crontab(minute=0, hour=4, day_of_month="1"),
        "kwargs": {"full": True, "trigger": "scheduled"},
        "options": _expiring(12 * 60 * 60),
    },
    "weekly-conflict-scan": {
        "task": "apps.conflicts.tasks.detect_conflicts_task",
        "schedule": crontab(minute=30, hour=3, day_of_week="mon"),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(6 * 60 * 60),
    },
    "weekly-review-queue-check": {
        "task": "apps.reports.tasks.check_review_queues_task",
        "schedule": crontab(minute=45, hour=3, day_of_week="mon"),
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(6 * 60 * 60),
    },
    "pending-recall-accesses": {
        "task": "apps.memory.tasks.apply_pending_accesses_task",
        "schedule": 60.0,
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(50),
    },
    "audit-denials-flush": {
        "task": "apps.audit.tasks.flush_denials_task",
        "schedule": 60.0,
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(50),
    },
    "dashboard-summary-refresh": {
        "task": "apps.reports.tasks.refresh_dashboard_summary_task",
        "schedule": 240.0,
        "kwargs": {"trigger": "scheduled"},
        "options": _expiring(200),
    },
}
CELERY_TIMEZONE = TIME_ZONE

# Mail (the GDPR SLA watch writes to compliance officers): printed to the console unless
# an SMTP server is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "memory-console@localhost")

# Domain knobs (per-tenant values live on Tenant; these are installation defaults).
# Weekly report anomalies: writes by one API key in one hour, distinct subjects one key
# wrote about in the week, and writes (most from sources new to it) that flag a scope.
MEMORY_CONSOLE_REPORT_BURST_WRITES_PER_HOUR = env_int(
    "MEMORY_CONSOLE_REPORT_BURST_WRITES_PER_HOUR", 500
)
MEMORY_CONSOLE_REPORT_FANOUT_SUBJECTS = env_int("MEMORY_CONSOLE_REPORT_FANOUT_SUBJECTS", 100)
MEMORY_CONSOLE_REPORT_SOURCE_SHIFT_MIN_WRITES = 5
MEMORY_CONSOLE_ARCHIVE_THRESHOLD = 0.1
MEMORY_CONSOLE_MAX_CONTENT_BYTES = 64 * 1024
# The gate's stages and the hooks between apps are code: memory_console/pipeline.py.
# Injection detectors (ARCHITECTURE §4): dotted paths, each returning score, reasons, spans.
# The learned layer (n-gram model, issue 17) can be switched off by dropping its line.
MEMORY_CONSOLE_INJECTION_DETECTORS = [
    "apps.quarantine.detectors.rules.RuleDetector",
    "apps.quarantine.detectors.learned.LearnedDetector",
]
MEMORY_CONSOLE_QUARANTINE_THRESHOLD = 0.5
MEMORY_CONSOLE_CORROBORATION_WRITES = env_int("MEMORY_CONSOLE_CORROBORATION_WRITES", 3)
# Behavioural poisoning signals (apps/quarantine/behaviour.py). They raise the score of a
# writer's writes; set so a busy support agent serving many users stays below them.
MEMORY_CONSOLE_BEHAVIOUR_WINDOW_MINUTES = 10
MEMORY_CONSOLE_BEHAVIOUR_FANOUT_SCOPES = env_int("MEMORY_CONSOLE_BEHAVIOUR_FANOUT_SCOPES", 200)
MEMORY_CONSOLE_BEHAVIOUR_FANOUT_SCORE = 0.35
MEMORY_CONSOLE_BEHAVIOUR_BURST_WRITES = env_int("MEMORY_CONSOLE_BEHAVIOUR_BURST_WRITES", 1200)
MEMORY_CONSOLE_BEHAVIOUR_BURST_SCORE = 0.35
# The rate signals compare a writer with its own baseline: the writes it made in the
# BASELINE_HOURS before the window. They fire only above FACTOR times its usual volume per
# window (so an agent that always serves thousands of users stays normal), and count only
# when the text itself has a finding of at least MIN_TEXT_SCORE (issue 17).
MEMORY_CONSOLE_BEHAVIOUR_BASELINE_HOURS = env_int("MEMORY_CONSOLE_BEHAVIOUR_BASELINE_HOURS", 24)
MEMORY_CONSOLE_BEHAVIOUR_BASELINE_FACTOR = 3
MEMORY_CONSOLE_BEHAVIOUR_MIN_TEXT_SCORE = 0.25
MEMORY_CONSOLE_BEHAVIOUR_TRUSTED_ACCESS_COUNT = 5
MEMORY_CONSOLE_BEHAVIOUR_CONTRADICTION_SCORE = 0.45
# Optional embedding provider (issue 18): an OpenAI-compatible `POST {URL}/v1/embeddings`.
# When set, recall embeds a query that came without an embedding, and a write without one
# is embedded by a Celery task after commit. A failure or a timeout degrades recall to the
# lexical path (flagged in the answer), never an error. Unset: agents send embeddings.
EMBEDDING_PROVIDER_URL = env_str("EMBEDDING_PROVIDER_URL")
EMBEDDING_PROVIDER_MODEL = env_str("EMBEDDING_PROVIDER_MODEL")
EMBEDDING_PROVIDER_API_KEY = env_str("EMBEDDING_PROVIDER_API_KEY")
EMBEDDING_PROVIDER_TIMEOUT_MS = env_int("EMBEDDING_PROVIDER_TIMEOUT_MS", 2000)
# Prometheus metrics at /metrics (memory_console/metrics.py): off, or open only to these
# networks (comma-separated CIDRs; the scraper's address as the app sees it).
MEMORY_CONSOLE_METRICS_ENABLED = env_bool("MEMORY_CONSOLE_METRICS_ENABLED", True)
MEMORY_CONSOLE_METRICS_ALLOWED_NETWORKS = env_list(
    "MEMORY_CONSOLE_METRICS_ALLOWED_NETWORKS", ["127.0.0.1/32", "::1/128"]
)

# Optional error reporting: only initialised when SENTRY_DSN is set. No request bodies
# (memory content) and no personal data are sent.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0") or 0),
    )

# Structured logs (memory_console/logging.py): request id and actor on every line, no
# query strings; JSON lines in production (LOG_FORMAT=json|text).
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_fields": {"()": "memory_console.logging.RequestFieldsFilter"},
        "no_query_strings": {"()": "memory_console.logging.DropQueryStrings"},
    },
    "formatters": {
        "json": {"()": "memory_console.logging.JsonFormatter"},
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s %(actor)s] %(message)s"
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT if LOG_FORMAT in ("json", "text") else "json",
            "filters": ["request_fields", "no_query_strings"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # runserver's request lines go through the same handler (and lose query strings).
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
