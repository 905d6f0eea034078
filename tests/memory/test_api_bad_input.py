"""Every bad input the red team found answers a clear 4xx in the error shape, never 500
(issue 12 point 3): deep JSON, chunked bodies over the limit, non-integer or huge ids,
unbounded numeric filters."""

import io
import json

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from apps.memory.api.limits import MAX_JSON_DEPTH, NestedTooDeeply, SizeLimitedJSONParser
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db

LIST = "/api/v1/memories/"


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) >= {"code", "message", "fields"}
    if code:
        assert error["code"] == code
    return error


def nested(depth: int) -> dict:
    """An object `depth` levels deep (the outer object counts as level 1)."""
    value: dict = {"leaf": 1}
    for _ in range(depth - 1):
        value = {"n": value}
    return value


@pytest.fixture
def operator_api(operator_a):
    client = APIClient()
    client.force_authenticate(operator_a)
    return client


@pytest.mark.parametrize("path", [LIST, "/api/v1/recall/", f"{LIST}merge/"])
def test_json_nested_a_thousand_levels_deep_is_400_too_deep(api_a, path):
    raw = "[" * 1000 + "]" * 1000
    response = api_a.generic("POST", path, raw, content_type="application/json")
    assert_error(response, 400, "too_deep")


def test_json_nested_deeper_than_the_documented_limit_is_400(api_a):
    body = remember_body(content=nested(MAX_JSON_DEPTH))  # + the body itself
    response = api_a.post(LIST, body, format="json")
    assert_error(response, 400, "too_deep")


def test_json_nested_up_to_the_limit_is_accepted(api_a):
    body = remember_body(content=nested(MAX_JSON_DEPTH - 1))
    response = api_a.post(LIST, body, format="json")
    assert response.status_code == 201, response.content


def test_the_parser_refuses_depth_without_recursing():
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    with pytest.raises(NestedTooDeeply):
        SizeLimitedJSONParser().parse(io.BytesIO(deep))


@override_settings(MEMORY_CONSOLE_MAX_REQUEST_BYTES=2000)
def test_chunked_body_over_the_limit_is_413(api_a):
    payload = json.dumps(remember_body(content={"text": "x" * 5000})).encode()
    response = api_a.generic(
        "POST",
        LIST,
        payload,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input_terminated": True, "wsgi.input": io.BytesIO(payload)},
    )
    assert_error(response, 413, "too_large")


def test_chunked_body_within_the_limit_is_read(api_a):
    payload = json.dumps(remember_body()).encode()
    response = api_a.generic(
        "POST",
        LIST,
        payload,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input_terminated": True, "wsgi.input": io.BytesIO(payload)},
    )
    assert response.status_code == 201, response.content


def test_chunked_body_on_a_server_that_does_not_dechunk_is_411(api_a):
    payload = json.dumps(remember_body()).encode()
    response = api_a.generic(
        "POST",
        LIST,
        payload,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert_error(response, 411, "length_required")


@pytest.mark.parametrize("decision", ["release", "reject"])
@pytest.mark.parametrize("ident", ["abc", "1.5", "-1", "9" * 30])
def test_non_integer_or_huge_quarantine_ids_are_404(operator_api, decision, ident):
    response = operator_api.post(
        f"/api/v1/quarantine/{ident}/{decision}/", {"reason": "x"}, format="json"
    )
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("ident", ["abc", "9" * 30])
def test_non_integer_or_huge_conflict_and_audit_ids_are_404(operator_api, ident):
    assert_error(operator_api.get(f"/api/v1/conflicts/{ident}/"), 404, "not_found")
    assert_error(operator_api.get(f"/api/v1/audit-events/{ident}/"), 404, "not_found")


@pytest.mark.parametrize("days", ["99999999999", "36501", "-1", "ten"])
def test_out_of_range_older_than_days_is_400_naming_the_field(operator_api, days):
    response = operator_api.get("/api/v1/conflicts/", {"older_than_days": days})
    assert "older_than_days" in assert_error(response, 400)["fields"]


def test_a_century_of_older_than_days_is_accepted(operator_api):
    response = operator_api.get("/api/v1/conflicts/", {"older_than_days": 36_500})
    assert response.status_code == 200
