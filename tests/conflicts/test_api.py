"""GET /api/v1/conflicts/ and POST /api/v1/conflicts/{id}/resolve/ (CONTRACT)."""

import pytest
from rest_framework.test import APIClient

from apps.conflicts.models import ConflictStatus, Resolution
from apps.memory.models import MemoryItem, MemoryStatus
from tests.conflicts.factories import ConflictFactory
from tests.factories import ScopeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(operator_a):
    client = APIClient()
    client.force_authenticate(operator_a)
    return client


def test_list_shows_visible_open_conflicts_oldest_first(api, tenant_a, tenant_b):
    mine = ConflictFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    ConflictFactory(scope=ScopeFactory(tenant=tenant_b))
    answer = api.get("/api/v1/conflicts/")
    assert answer.status_code == 200
    assert [row["id"] for row in answer.json()["results"]] == [c.pk for c in mine]
    first = answer.json()["results"][0]
    assert first["tenant"] == "tenant-a"
    assert first["incoming_item"]["status"] == "pending_review"
    assert first["existing_item"]["content"] == {"drink": "tea"}


def test_list_pages_by_cursor_and_filters(api, tenant_a, django_assert_max_num_queries):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_9")
    ConflictFactory.create_batch(5, scope=scope)
    ConflictFactory(scope=ScopeFactory(tenant=tenant_a), key="preference.food")
    with django_assert_max_num_queries(6):
        first = api.get("/api/v1/conflicts/", {"limit": 2}).json()
    assert len(first["results"]) == 2 and first["next"]
    second = api.get(first["next"]).json()
    assert {r["id"] for r in first["results"]}.isdisjoint({r["id"] for r in second["results"]})
    assert len(api.get("/api/v1/conflicts/", {"scope": "user:u_9"}).json()["results"]) == 5
    assert len(api.get("/api/v1/conflicts/", {"key": "*.food"}).json()["results"]) == 1
    assert api.get("/api/v1/conflicts/", {"status": "maybe"}).status_code == 400


def test_resolve_applies_the_resolution(api, tenant_a):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    answer = api.post(
        f"/api/v1/conflicts/{conflict.pk}/resolve/",
        {"resolution": "merge", "content": {"drink": "tea, then coffee"}, "reason": "both"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["status"], body["resolution"]) == ("resolved", "merge")
    assert body["incoming_item"]["content"] == {"drink": "tea, then coffee"}
    assert body["existing_item"]["status"] == "superseded"


def test_resolve_twice_answers_409(api, tenant_a):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    url = f"/api/v1/conflicts/{conflict.pk}/resolve/"
    assert api.post(url, {"resolution": "keep_old"}, format="json").status_code == 200
    again = api.post(url, {"resolution": "keep_new"}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_resolved"
    assert "already resolved" in again.json()["error"]["message"]
    assert MemoryItem.objects.get(pk=conflict.incoming_item_id).status == MemoryStatus.REJECTED


@pytest.mark.parametrize(
    "body",
    [
        {"resolution": "merge"},
        {"resolution": "merge", "content": ["not", "an", "object"]},
        {"resolution": "merge", "content": {"big": "x" * 70_000}},
        {"resolution": "delete"},
    ],
)
def test_resolve_with_bad_input_answers_400(api, tenant_a, body):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    answer = api.post(f"/api/v1/conflicts/{conflict.pk}/resolve/", body, format="json")
    assert answer.status_code in (400, 413)
    assert "error" in answer.json()
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.OPEN


def test_foreign_conflict_answers_404(api, tenant_b):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_b))
    assert api.get(f"/api/v1/conflicts/{conflict.pk}/").status_code == 404
    answer = api.post(
        f"/api/v1/conflicts/{conflict.pk}/resolve/", {"resolution": "keep_new"}, format="json"
    )
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.OPEN


def test_revert_reopens(api, tenant_a):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    api.post(f"/api/v1/conflicts/{conflict.pk}/resolve/", {"resolution": "keep_new"}, format="json")
    answer = api.post(f"/api/v1/conflicts/{conflict.pk}/revert/", {}, format="json")
    assert answer.status_code == 200
    assert answer.json()["status"] == "open" and answer.json()["resolution"] == ""
    again = api.post(f"/api/v1/conflicts/{conflict.pk}/revert/", {}, format="json")
    assert again.status_code == 409


def test_anonymous_is_refused(tenant_a):
    ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    assert APIClient().get("/api/v1/conflicts/").status_code in (401, 403)


def test_resolution_choices_match_the_contract():
    assert set(Resolution.values) == {"keep_new", "keep_old", "keep_both", "merge"}
