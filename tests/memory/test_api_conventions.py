"""HTTP conventions of the memory API (issue 18 point 6): an optional tenant for a
one-tenant key, Location on 201, 428 / 412 / `If-Match: *`, and rate-limit headers."""

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.memory.models import MemoryItem
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db

LIST = "/api/v1/memories/"


def without_tenant(**overrides) -> dict:
    body = remember_body(**overrides)
    del body["tenant"]
    return body


def test_a_one_tenant_key_may_leave_the_tenant_out(api_a):
    answer = api_a.post(LIST, without_tenant(), format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["tenant"] == "tenant-a"
    by_key = api_a.put(
        f"{LIST}by-key/?scope=user:u_1024&key=seat",
        {"memory_type": "semantic", "content": {"text": "aisle"}, "source": "s"},
        format="json",
    )
    assert by_key.status_code == 201
    read = api_a.get(f"{LIST}by-key/", {"scope": "user:u_1024", "key": "seat"})
    assert read.status_code == 200


def test_a_key_reaching_two_tenants_must_name_one(api_a, agent_a_key, tenant_b):
    grant_role(user=agent_a_key[0].user, role=Role.AGENT, target=tenant_b, actor="test-setup")
    answer = api_a.post(LIST, without_tenant(), format="json")
    assert answer.status_code == 400
    assert "tenant" in answer.json()["error"]["fields"]
    assert not MemoryItem.objects.exists()
    assert api_a.post(LIST, remember_body(), format="json").status_code == 201


def test_201_carries_the_location_of_the_new_memory(api_a):
    created = api_a.post(LIST, remember_body(), format="json")
    assert created.status_code == 201
    location = created["Location"]
    assert location == f"{LIST}{created.json()['id']}/"
    assert api_a.get(location).json()["id"] == created.json()["id"]
    merged = api_a.post(LIST, remember_body(), format="json")
    assert merged.status_code == 200 and "Location" not in merged


def created_id(client) -> str:
    return client.post(LIST, remember_body(), format="json").json()["id"]


def test_patch_without_any_version_is_428(api_a):
    answer = api_a.patch(f"{LIST}{created_id(api_a)}/", {"importance": 0.9}, format="json")
    assert answer.status_code == 428
    assert answer.json()["error"]["code"] == "precondition_required"


def test_a_stale_if_match_is_412_and_a_stale_body_version_409(api_a):
    item = created_id(api_a)
    assert (
        api_a.patch(f"{LIST}{item}/", {"version": 1, "importance": 0.9}, "json").status_code == 200
    )
    stale_header = api_a.patch(
        f"{LIST}{item}/", {"importance": 0.8}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert stale_header.status_code == 412
    assert stale_header.json()["error"]["current_version"] == 2
    stale_body = api_a.patch(f"{LIST}{item}/", {"version": 1, "importance": 0.8}, format="json")
    assert stale_body.status_code == 409


def test_if_match_star_edits_the_current_version(api_a):
    item = created_id(api_a)
    api_a.post(f"{LIST}{item}/feedback/", {"signal": "positive"}, format="json")  # version 2
    answer = api_a.patch(f"{LIST}{item}/", {"importance": 0.2}, format="json", HTTP_IF_MATCH="*")
    assert answer.status_code == 200
    assert answer.json()["version"] == 3 and answer["ETag"] == '"3"'


@override_settings(MEMORY_CONSOLE_API_KEY_RATE="3/min")
def test_rate_limit_headers_count_down_and_stand_beside_retry_after(api_a):
    cache.clear()
    remaining = []
    for _ in range(3):
        answer = api_a.get(LIST)
        assert answer["RateLimit-Limit"] == "3"
        assert 0 < int(answer["RateLimit-Reset"]) <= 60
        remaining.append(int(answer["RateLimit-Remaining"]))
    assert remaining == [2, 1, 0]
    throttled = api_a.get(LIST)
    assert throttled.status_code == 429
    assert int(throttled["Retry-After"]) > 0
    assert throttled["RateLimit-Remaining"] == "0" and throttled["RateLimit-Limit"] == "3"
    # An error answer carries them too.
    cache.clear()
    assert APIClient().get(LIST).status_code == 401  # anonymous: counted per address
    cache.clear()


def test_recall_may_leave_the_tenant_out_for_a_one_tenant_key(api_a):
    api_a.post(LIST, remember_body(content={"text": "refunds go to finance"}), format="json")
    answer = api_a.post(
        "/api/v1/recall/", {"scope": "user:u_1024", "query": "refunds"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["results"]
