"""The critical settings are pinned, and production refuses to start without real keys."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-production-secret-key-for-the-deploy-check-0123456789",
    "MEMORY_CONSOLE_ENCRYPTION_KEYS": "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE=",
    "MEMORY_CONSOLE_HMAC_KEY": "an-hmac-key-that-is-long-enough-for-production-use",
    "MEMORY_CONSOLE_AUDIT_SIGNING_KEY": "a-separate-checkpoint-signing-key-kept-off-the-database",
    "ALLOWED_HOSTS": "console.example.org",
}


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    # DJANGO_ALLOW_ASYNC_UNSAFE is the browser tests' (tests/conftest.py), set while their
    # session-wide chromium lives; a deployment never has it, so neither does this check.
    test_only = {"DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV and k not in test_only}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_critical_settings_are_pinned():
    assert settings.CELERY_TASK_SERIALIZER == "json"
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert settings.USE_TZ is True
    assert "guardian.backends.ObjectPermissionBackend" in settings.AUTHENTICATION_BACKENDS
    assert settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["script-src"] == ["'self'"]
    assert settings.X_FRAME_OPTIONS == "DENY"
    assert settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES == 64 * 1024
    assert "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE


def test_tasks_run_eagerly_only_without_a_broker():
    assert settings.CELERY_TASK_ALWAYS_EAGER is (not settings.CELERY_BROKER_URL)


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "missing",
    [
        "SECRET_KEY",
        "MEMORY_CONSOLE_ENCRYPTION_KEYS",
        "MEMORY_CONSOLE_HMAC_KEY",
        "MEMORY_CONSOLE_AUDIT_SIGNING_KEY",
    ],
)
def test_production_refuses_to_start_without_each_key(missing):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}
    result = _manage("check", env={**env, missing: ""})
    assert result.returncode != 0
    assert missing in result.stderr


def test_a_malformed_boolean_is_an_error_not_a_silent_default():
    result = _manage("check", env={**PRODUCTION_ENV, "DEBUG": "ture"})
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


def test_every_beat_schedule_names_a_registered_task():
    from memory_console.celery import app

    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name


@pytest.mark.django_db
def test_favicon_answers_at_the_root_and_is_linked_from_every_page(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"].endswith(".ico")
    assert finders.find("favicon.ico")
    assert 'rel="icon"' in client.get("/login/").content.decode()
