"""Schemathesis over every operation of /api/schema/: no generated call gets a 5xx, and
every error is JSON in the CONTRACT shape (issue 12, "0 server errors over ≥ 5,000 cases").

In-process (the Django WSGI app, no server), as an agent key and as a console session
with CSRF, so the calls pass authentication and reach the views. Marked `fuzz`: it runs
in the suite (about two minutes on two cores); `pytest -m "not fuzz"` skips it.
"""

import math
import secrets
from collections import Counter

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error

from apps.access.api_keys import create_api_key
from tests.conflicts.factories import ConflictFactory
from tests.factories import ScopeFactory
from tests.memory.api_helpers import remember_body

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz, pytest.mark.slow]

# The run spreads at least this many calls over every operation and both identities
# (Hypothesis stops early on operations with few distinct inputs, hence the margin).
MINIMUM_CASES = 5_000
MARGIN = 1.15


@pytest.fixture
def keep_test_connection():
    """The raw WSGI handler closes DB connections after each request; keep the test's."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def identities(tenant_a, admin_user) -> dict[str, dict]:
    """Call arguments of an agent key and of an admin's console session (with CSRF)."""
    _key, plaintext = create_api_key(username="fuzzer", tenant=tenant_a, actor="test-setup")
    agent = APIClient()
    agent.credentials(HTTP_AUTHORIZATION=f"Api-Key {plaintext}")
    assert agent.post("/api/v1/memories/", remember_body(), format="json").status_code == 201
    ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    browser = Client()
    browser.force_login(admin_user)
    csrf = secrets.token_hex(16)
    session = browser.cookies["sessionid"].value
    return {
        "agent": {"headers": {"Authorization": f"Api-Key {plaintext}"}},
        # An empty Authorization overrides the Api-Key header the schema makes up.
        "session": {
            "headers": {"Authorization": "", "X-CSRFToken": csrf},
            "cookies": {"sessionid": session, "csrftoken": csrf},
        },
    }


def errors_have_the_contract_shape(ctx, response, case) -> bool | None:
    """A 4xx answer is JSON `{"error": {"code", "message", "fields"}}`."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert set(body["error"]) >= {"code", "message", "fields"}, body
    return None


def fuzz(operation, *, identity: dict, examples: int, statuses: Counter) -> None:
    """Call one operation with `examples` generated cases, counting the statuses."""
    checks = [not_a_server_error, errors_have_the_contract_shape]

    @given(case=operation.as_strategy())
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def call(case):
        response = case.call_and_validate(checks=checks, **identity)
        statuses[response.status_code] += 1

    call()


@override_settings(MEMORY_CONSOLE_API_KEY_RATE="")
def test_no_generated_call_to_any_operation_gets_a_server_error(identities, keep_test_connection):
    # identities first: the test client it uses reconnects Django's connection closer,
    # which keep_test_connection must disconnect afterwards.
    app = get_wsgi_application()
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app, **identities["agent"])
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    per_operation = math.ceil(MINIMUM_CASES * MARGIN / (len(operations) * len(identities)))
    cache.clear()
    statuses: Counter[int] = Counter()
    for operation in operations:
        for identity in identities.values():
            fuzz(operation, identity=identity, examples=per_operation, statuses=statuses)
    total = sum(statuses.values())
    print(f"schemathesis: {total} calls, statuses {dict(sorted(statuses.items()))}")
    assert total >= MINIMUM_CASES, statuses
    assert not [code for code in statuses if code >= 500], statuses
    assert sum(n for code, n in statuses.items() if 200 <= code < 300) > 0, statuses
