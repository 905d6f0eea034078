"""Keys as identities (issue 18 point 3): read and upsert a memory by its key, dedupe that
tells keys apart, and Idempotency-Key on writes."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.audit.models import Action, AuditEvent
from apps.memory.models import IdempotentRequest, MemoryItem, MemoryStatus
from apps.memory.services.idempotency import CLAIM_LEASE, prune_idempotent_requests
from apps.privacy.services.dependants import delete_dependants
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db

LIST = "/api/v1/memories/"
BY_KEY = "/api/v1/memories/by-key/"


def put(client, fact_key: str, idempotency_key: str | None = None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": idempotency_key} if idempotency_key else {}
    fields = {"memory_type": "semantic", "source": "crew@1", **body}
    url = f"{BY_KEY}?scope=user:u_1024&key={fact_key}"
    return client.put(url, fields, format="json", **headers)


# --- by key ------------------------------------------------------------------------------


def test_get_by_key_returns_the_active_item_of_the_key(api_a, tenant_a):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1")
    MemoryItemFactory(scope=scope, key="address.city", status=MemoryStatus.SUPERSEDED)
    active = MemoryItemFactory(scope=scope, key="address.city", content={"city": "Haidian"})
    MemoryItemFactory(scope=scope, key="address.street")
    answer = api_a.get(BY_KEY, {"scope": "user:u_1", "key": "address.city"})
    assert answer.status_code == 200
    assert answer.json()["id"] == active.public_id
    assert answer.json()["content"] == {"city": "Haidian"}
    assert answer["ETag"] == f'"{active.version}"'


def test_get_by_key_is_404_without_an_active_item(api_a, tenant_a, tenant_b):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1")
    MemoryItemFactory(scope=scope, key="held", status=MemoryStatus.QUARANTINED)
    foreign = ScopeFactory(tenant=tenant_b, kind="user", external_id="u_1")
    MemoryItemFactory(scope=foreign, key="theirs")
    for key in ("held", "nothing", "theirs"):
        answer = api_a.get(BY_KEY, {"scope": "user:u_1", "key": key})
        assert answer.status_code == 404, key
    named = {"scope": "user:u_1", "key": "theirs", "tenant": "tenant-b"}
    assert api_a.get(BY_KEY, named).status_code == 404


def test_get_by_key_needs_scope_and_key_and_names_unknown_parameters(api_a):
    answer = api_a.get(BY_KEY, {"scope": "user:u_1"})
    assert answer.status_code == 400 and "key" in answer.json()["error"]["fields"]
    answer = api_a.get(BY_KEY, {"scope": "user:u_1", "key": "k", "colour": "red"})
    assert answer.status_code == 400 and "colour" in answer.json()["error"]["fields"]


def test_put_by_key_creates_then_merges_the_same_value(api_a):
    first = put(api_a, "seat", content={"text": "window"})
    assert first.status_code == 201, first.content
    assert first["Location"] == f"{LIST}{first.json()['id']}/"
    assert first.json()["key"] == "seat" and first.json()["scope"] == "user:u_1024"
    again = put(api_a, "seat", content={"text": "window"})
    assert again.status_code == 200 and again.json()["merged"] is True
    assert again.json()["id"] == first.json()["id"]


def test_put_by_key_supersedes_a_last_write_wins_key(api_a):
    old = put(api_a, "address.city", content={"city": "Haidian"}).json()
    new = put(api_a, "address.city", content={"city": "Chaoyang"})
    assert new.status_code == 201 and new.json()["status"] == "active"
    assert MemoryItem.objects.get(pk=old["id"][4:]).status == MemoryStatus.SUPERSEDED
    current = api_a.get(BY_KEY, {"scope": "user:u_1024", "key": "address.city"}).json()
    assert current["id"] == new.json()["id"]


def test_put_by_key_holds_a_new_value_of_another_key_for_review(api_a):
    put(api_a, "diet", content={"text": "vegetarian"})
    held = put(api_a, "diet", content={"text": "eats fish"})
    assert held.status_code == 201
    assert held.json() == {"id": held.json()["id"], "status": "pending_review", "merged": False}


def test_put_by_key_refuses_a_body_naming_another_key(api_a):
    answer = put(api_a, "seat", content={"text": "x"}, key="other")
    assert answer.status_code == 400 and "key" in answer.json()["error"]["fields"]
    assert not MemoryItem.objects.exists()


# --- dedupe tells keys, types and categories apart ------------------------------------------


def test_the_same_value_under_another_key_is_a_new_item(api_a):
    first = api_a.post(LIST, remember_body(key="home.city", content={"city": "Paris"}), "json")
    second = api_a.post(LIST, remember_body(key="work.city", content={"city": "Paris"}), "json")
    assert first.status_code == second.status_code == 201
    assert second.json()["merged"] is False and second.json()["id"] != first.json()["id"]
    assert second.json()["key"] == "work.city"


@pytest.mark.parametrize("change", [{"memory_type": "episodic"}, {"category": 20}])
def test_the_same_value_of_another_type_or_category_is_a_new_item(api_a, change):
    first = api_a.post(LIST, remember_body(key="k"), format="json").json()
    second = api_a.post(LIST, remember_body(key="k", **change), format="json")
    assert second.status_code == 201 and second.json()["id"] != first["id"]


def test_the_same_value_key_type_and_category_still_merges(api_a):
    first = api_a.post(LIST, remember_body(key="k", category=3), format="json").json()
    second = api_a.post(LIST, remember_body(key="k", category=3), format="json")
    assert second.status_code == 200 and second.json()["id"] == first["id"]
    assert AuditEvent.objects.filter(action=Action.MEMORY_DEDUPLICATED).count() == 1


# --- Idempotency-Key ---------------------------------------------------------------------


def post(client, key: str, **overrides):
    return client.post(LIST, remember_body(**overrides), format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_post_gets_the_first_answer_without_writing_again(api_a):
    first = post(api_a, "retry-1")
    assert first.status_code == 201
    events = AuditEvent.objects.count()
    retry = post(api_a, "retry-1")
    assert retry.status_code == 201
    assert retry.json() == first.json() and retry["Location"] == first["Location"]
    assert retry["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert MemoryItem.objects.count() == 1
    assert AuditEvent.objects.count() == events  # no merge, no access: nothing happened
    assert MemoryItem.objects.get().access_count == 0


def test_the_same_key_with_another_body_is_422(api_a):
    post(api_a, "retry-2")
    answer = post(api_a, "retry-2", content={"text": "something else"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "idempotency_key_reused"
    assert MemoryItem.objects.count() == 1


def test_keys_are_per_api_key(api_a, api_b):
    assert post(api_a, "shared").status_code == 201
    assert post(api_b, "shared", tenant="tenant-b").status_code == 201
    assert MemoryItem.objects.count() == 2


def test_a_refused_write_releases_its_key(api_a):
    assert post(api_a, "retry-3", content="not an object").status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert post(api_a, "retry-3").status_code == 201


def test_a_request_still_running_answers_409_and_an_abandoned_claim_is_taken_over(
    api_a, agent_a_key
):
    claim = IdempotentRequest.objects.create(
        owner=f"key:{agent_a_key[0].prefix}",
        key="retry-4",
        fingerprint="running",
        expires_at=timezone.now() + timedelta(hours=1),
    )
    answer = post(api_a, "retry-4")
    assert answer.status_code == 422  # another request's claim (its fingerprint differs)
    IdempotentRequest.objects.filter(pk=claim.pk).delete()
    assert post(api_a, "retry-5").status_code == 201
    IdempotentRequest.objects.filter(key="retry-5").update(status_code=None)
    assert post(api_a, "retry-5").json()["error"]["code"] == "idempotency_in_progress"
    IdempotentRequest.objects.filter(key="retry-5").update(
        created_at=timezone.now() - CLAIM_LEASE - timedelta(seconds=1)
    )
    taken_over = post(api_a, "retry-5")
    assert taken_over.status_code == 200 and taken_over.json()["merged"] is True


def test_put_by_key_honours_idempotency_keys(api_a):
    first = put(api_a, "seat", idempotency_key="put-1", content={"text": "window"})
    retry = put(api_a, "seat", idempotency_key="put-1", content={"text": "window"})
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert MemoryItem.objects.get().access_count == 0


def test_a_malformed_idempotency_key_is_400(api_a):
    answer = post(api_a, "x" * 256)
    assert answer.status_code == 400 and "Idempotency-Key" in answer.json()["error"]["fields"]


def test_stored_answers_expire_and_are_pruned(api_a):
    post(api_a, "old")
    IdempotentRequest.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    again = post(api_a, "old")  # expired: the request runs again (here: merges)
    assert again.status_code == 200 and "Idempotent-Replayed" not in again
    IdempotentRequest.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert prune_idempotent_requests() == 1
    assert not IdempotentRequest.objects.exists()


def test_the_hourly_expiry_job_prunes_stored_answers(api_a):
    from apps.memory.tasks import expiry_task

    post(api_a, "old")
    IdempotentRequest.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert expiry_task()["idempotency_keys_pruned"] == 1


def test_erasing_the_item_or_scope_takes_the_stored_answer_along(api_a):
    post(api_a, "erase-1")
    stored = IdempotentRequest.objects.get()
    assert stored.item_id is not None and stored.scope_id is not None
    delete_dependants(item_ids=[stored.item_id])
    assert not IdempotentRequest.objects.exists()
