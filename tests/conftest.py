"""Personas shared by every test: operators on tenant A and B, two officers, an analyst,
an admin and an outsider (STYLE.md). Grants go through the same service the console uses."""

import os
import shutil

import pytest
from django.db import connection
from django.test import Client

from apps.access.roles import Role
from apps.access.services import grant_role
from tests.factories import TenantFactory, UserFactory

# Agents' API keys and clients of tenants A and B, for every app's API tests.
from tests.memory.api_helpers import agent_a_key, agent_b_key, api_a, api_b  # noqa: F401


def pytest_collection_modifyitems(items):
    """Files holding a `slow` test run first, each file's tests in their written order: with
    `make test`'s workers (pytest-xdist, whole files per worker) the minutes-long files then
    overlap the many short ones instead of starting last and running alone."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


@pytest.fixture
def tenant_a(db):
    return TenantFactory(slug="tenant-a", name="Tenant A")


@pytest.fixture
def tenant_b(db):
    return TenantFactory(slug="tenant-b", name="Tenant B")


def _persona(username: str, role: Role, *tenants):
    user = UserFactory(username=username)
    for tenant in tenants:
        grant_role(user=user, role=role, target=tenant, actor="test-setup")
    return user


@pytest.fixture
def operator_a(tenant_a):
    return _persona("operator_a", Role.OPERATOR, tenant_a)


@pytest.fixture
def operator_b(tenant_b):
    return _persona("operator_b", Role.OPERATOR, tenant_b)


@pytest.fixture
def officer(tenant_a, tenant_b):
    return _persona("officer", Role.COMPLIANCE_OFFICER, tenant_a, tenant_b)


@pytest.fixture
def officer2(tenant_a, tenant_b):
    return _persona("officer2", Role.COMPLIANCE_OFFICER, tenant_a, tenant_b)


@pytest.fixture
def analyst(tenant_a, tenant_b):
    return _persona("analyst", Role.ANALYST, tenant_a, tenant_b)


@pytest.fixture
def admin_user(db):
    return UserFactory(username="admin", is_staff=True, is_superuser=True)


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The audit table refuses TRUNCATE; let the flush between transactional tests through."""
    from tests.audit.db import allow_flush_of_test_database

    with django_db_blocker.unblock():
        allow_flush_of_test_database()


@pytest.fixture(autouse=True, scope="session")
def snapshot_dir_of_this_session(tmp_path_factory):
    """Snapshot packages go to this session's own directory (one per xdist worker), never
    the checkout's var/; the environment carries it to the Celery worker a test starts."""
    from django.conf import settings

    directory = tmp_path_factory.mktemp("snapshots")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settings, "MEMORY_CONSOLE_SNAPSHOT_DIR", directory)
        patch.setenv("MEMORY_CONSOLE_SNAPSHOT_DIR", str(directory))
        yield directory


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate-limit counters (API keys, invalid keys per address) start empty in every test."""
    from django.core.cache import cache

    from apps.core.cache import rate_limit_cache

    cache.clear()
    rate_limit_cache.local.clear()
    rate_limit_cache.down_until = 0.0


@pytest.fixture(autouse=True, scope="session")
def celery_runs_tasks_in_process():
    """Tasks run eagerly in tests even when CI sets a broker; `real_celery_worker` opts out."""
    from memory_console.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield


@pytest.fixture
def real_celery_worker(postgres_only, transactional_db, settings):
    """A real worker process on the configured broker, reading the committed test database."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    from memory_console.celery import app

    broker = os.environ.get("CELERY_BROKER_URL")
    if not broker:
        pytest.skip("needs CELERY_BROKER_URL (CI sets a Redis broker)")
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    queue = f"test-{os.getpid()}-{time.monotonic_ns()}"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "memory_console",
            "worker",
            "-P",
            "solo",
            "-c",
            "1",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-Q",
            queue,
            "-l",
            "warning",
        ],
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "DATABASE_URL": database_url, "DEBUG": "true"},
    )
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        yield app
    finally:
        app.conf.task_always_eager = True
        app.conf.task_default_queue = "celery"
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


# --- browser tests: Playwright driving Debian's chromium (never a downloaded browser) ---

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
browser_test = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian chromium not installed"),
]


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the whole session (launching one costs about a second)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API keeps an event loop on this thread; the test's own ORM calls
    # are still synchronous, so Django's async guard is lifted while the browser lives.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def logged_in_page(browser, live_server, user, *, width: int = 1280, height: int = 900):
    """A new browser context signed in as `user`; `page.dialogs` collects any dialog."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": height}
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    return page


@pytest.fixture
def page(browser, live_server, operator_a):
    """A browser page logged in as operator_a; `page.dialogs` collects any dialog (XSS canary)."""
    page = logged_in_page(browser, live_server, operator_a)
    yield page
    page.context.close()
