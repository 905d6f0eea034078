"""The one API error mapping and cursor pagination base (apps.core.api)."""

import base64

import pytest
from rest_framework.test import APIClient

from apps.core.errors import ServiceError
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db

LISTS = ["/api/v1/memories/", "/api/v1/quarantine/", "/api/v1/conflicts/", "/api/v1/audit-events/"]


def _cursor(querystring: str) -> str:
    return base64.b64encode(querystring.encode()).decode()


FORGED = {
    "not base64": "!!!not-a-cursor",
    "text where the ordering value belongs": _cursor("p=garbage"),
    "a date beyond the calendar": _cursor("p=9999-99-99T99:99:99"),
    "negative offset": _cursor("o=-5"),
}


@pytest.fixture
def api(operator_a, tenant_a):
    MemoryItemFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    client = APIClient()
    client.force_authenticate(operator_a)
    return client


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize("cursor", FORGED.values(), ids=FORGED.keys())
def test_a_forged_cursor_answers_400_in_the_error_shape_on_every_list(api, url, cursor):
    response = api.get(url, {"cursor": cursor})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_cursor" and "cursor" in error["fields"]


@pytest.mark.parametrize("url", LISTS)
def test_the_cursor_a_list_hands_out_still_pages(api, url):
    first = api.get(url, {"limit": 1})
    assert first.status_code == 200
    if first.json()["next"]:
        assert api.get(first.json()["next"]).status_code == 200


def test_a_service_error_carries_its_own_code_status_fields_and_extra():
    refusal = ServiceError("Nope.", code="nope", status=409, fields={"a": ["b"]}, extra={"n": 1})
    assert refusal.as_body() == {
        "error": {"code": "nope", "message": "Nope.", "fields": {"a": ["b"]}, "n": 1}
    }
    assert (refusal.status, ServiceError("x").status, ServiceError("x").code) == (
        409,
        400,
        "invalid",
    )


def test_every_service_exception_is_a_service_error():
    from apps.audit.verification import CheckpointError
    from apps.conflicts.services import AlreadyResolved, ConflictError, NotResolved
    from apps.core.validation import InvalidContent
    from apps.memory.gate import GateRejected
    from apps.memory.recall import ScopeNotFound
    from apps.memory.services import MergeRefused, StaleVersion
    from apps.quarantine.services import AlreadyDecided, QuarantineError

    for refusal in (
        CheckpointError,
        ConflictError,
        AlreadyResolved,
        NotResolved,
        InvalidContent,
        GateRejected,
        ScopeNotFound,
        MergeRefused,
        StaleVersion,
        QuarantineError,
        AlreadyDecided,
    ):
        assert issubclass(refusal, ServiceError), refusal
    assert (StaleVersion(3).status, StaleVersion(3).as_body()["error"]["current_version"]) == (
        409,
        3,
    )
    assert (AlreadyDecided("x").status, AlreadyResolved("x").status) == (409, 409)
    assert GateRejected("x", code="not_found").status == 404
