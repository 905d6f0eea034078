"""The OpenAPI schema is real: it describes the memory endpoints, the docs page works
air-gapped, and property-based calls generated from it find no 5xx and no response that
contradicts it."""

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from apps.access.api_keys import create_api_key
from tests.memory.api_helpers import remember_body
from tests.remembering import remember

pytestmark = pytest.mark.django_db

MEMORY_PATHS = [
    ("/api/v1/memories/", "post"),
    ("/api/v1/memories/", "get"),
    ("/api/v1/memories/{id}/", "get"),
    ("/api/v1/memories/{id}/", "patch"),
    ("/api/v1/memories/{id}/", "delete"),
    ("/api/v1/memories/{id}/feedback/", "post"),
    ("/api/v1/memories/merge/", "post"),
    ("/api/v1/memories/by-key/", "get"),
    ("/api/v1/memories/by-key/", "put"),
]


def test_schema_describes_every_memory_operation_with_errors(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path, method in MEMORY_PATHS:
        operation = schema["paths"][path][method]
        if "{id}" in path or method == "post":
            assert "404" in operation["responses"], (path, method)
        assert {"401", "429"} <= set(operation["responses"]), (path, method)
    remember_op = schema["paths"]["/api/v1/memories/"]["post"]
    assert {"201", "200", "400"} <= set(remember_op["responses"])
    body = remember_op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    required = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["required"]
    assert {"scope", "memory_type", "content", "source"} <= set(required)
    assert "tenant" not in required  # optional for a one-tenant key (issue 18 point 6)
    assert schema["components"]["securitySchemes"]["ApiKeyAuth"]["type"] == "apiKey"


def test_docs_page_renders_from_local_assets_only(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "googleapis"):
        assert cdn not in html
    assert "/static/drf_spectacular_sidecar/" in html


@pytest.fixture
def keep_test_connection():
    """The raw WSGI handler closes DB connections after each request; Django's test
    client avoids that the same way, so calls stay inside the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(keep_test_connection):
    loaded = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    # The memory endpoints and recall (which shares their authentication and errors).
    return loaded.include(path_regex=r"^/api/v1/(memories|recall)/")


@override_settings(MEMORY_CONSOLE_API_KEY_RATE="")
def test_generated_calls_find_no_server_errors_or_schema_violations(tenant_a, api_schema):
    key, plaintext = create_api_key(username="fuzzer", tenant=tenant_a, actor="test-setup")
    remember(actor=key.user, payload=remember_body())
    headers = {"Authorization": f"Api-Key {plaintext}"}
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
    ]
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= len(MEMORY_PATHS)
    cache.clear()
    statuses: list[int] = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=6,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def call(case):
            response = case.call_and_validate(headers=headers, checks=checks)
            statuses.append(response.status_code)

        call()
    assert 401 not in statuses  # the key was accepted: these were real, authorised calls
    assert any(200 <= code < 300 for code in statuses)
