"""`/api/v1/quarantine/`: list within grant, release/reject, 404 outside, 409 when decided."""

import pytest
from rest_framework.test import APIClient

from apps.memory.models import MemoryItem, MemoryStatus
from apps.quarantine.models import EntryStatus
from apps.quarantine.services import release_entry
from tests.factories import ScopeFactory
from tests.quarantine.factories import QuarantineEntryFactory

LIST = "/api/v1/quarantine/"


@pytest.fixture
def api(operator_a):
    client = APIClient()
    client.force_authenticate(operator_a)
    return client


def entry_in(tenant, **kwargs):
    return QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant), **kwargs)


def test_list_shows_pending_entries_in_grant_in_queue_order(api, tenant_a, tenant_b):
    low = entry_in(tenant_a, risk=0.6)
    high = entry_in(tenant_a, risk=0.95)
    entry_in(tenant_b)
    response = api.get(LIST)
    assert response.status_code == 200
    body = response.json()
    assert [row["id"] for row in body["results"]] == [high.pk, low.pk]
    row = body["results"][0]
    assert row["tenant"] == "tenant-a" and row["memory"].startswith("mem_")
    assert "content" not in row and "text" not in row


def test_list_is_filterable_and_cursor_paginated(api, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    QuarantineEntryFactory.create_batch(3, item__scope=scope, detectors=["behaviour"])
    entry_in(tenant_a)
    first = api.get(LIST, {"detector": "behaviour", "limit": 2}).json()
    assert len(first["results"]) == 2 and first["next"]
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 1


def test_list_query_count_is_constant(api, tenant_a, django_assert_max_num_queries):
    for _ in range(3):
        entry_in(tenant_a)
    api.get(LIST)
    with django_assert_max_num_queries(8) as few:
        api.get(LIST)
    for _ in range(20):
        entry_in(tenant_a)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(api.get(LIST).json()["results"]) == 23


def test_release_and_reject(api, tenant_a):
    to_release, to_reject = entry_in(tenant_a), entry_in(tenant_a)
    released = api.post(f"{LIST}{to_release.pk}/release/", {"reason": "ok"}, format="json")
    assert released.status_code == 200 and released.json()["status"] == "released"
    assert MemoryItem.objects.get(pk=to_release.item_id).status == MemoryStatus.ACTIVE
    rejected = api.post(f"{LIST}{to_reject.pk}/reject/", {"reason": "bad"}, format="json")
    assert rejected.status_code == 200 and rejected.json()["memory"] is None
    assert not MemoryItem.objects.filter(pk=to_reject.item_id).exists()


def test_reason_is_required(api, tenant_a):
    entry = entry_in(tenant_a)
    response = api.post(f"{LIST}{entry.pk}/release/", {}, format="json")
    assert response.status_code == 400
    assert "reason" in response.json()["error"]["fields"]


def test_foreign_entry_is_404(api, tenant_b):
    foreign = entry_in(tenant_b)
    assert api.get(f"{LIST}{foreign.pk}/").status_code == 404
    response = api.post(f"{LIST}{foreign.pk}/release/", {"reason": "x"}, format="json")
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert foreign.status == EntryStatus.PENDING


def test_already_decided_is_409_naming_the_winner(api, tenant_a, operator_a):
    entry = entry_in(tenant_a)
    release_entry(entry_id=entry.pk, actor=operator_a, reason="first")
    response = api.post(f"{LIST}{entry.pk}/reject/", {"reason": "late"}, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "already_decided"
    assert "already released by operator_a" in error["message"]


def test_anonymous_is_refused(tenant_a):
    assert APIClient().get(LIST).status_code in (401, 403)
