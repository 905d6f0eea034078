"""Content that PostgreSQL cannot store (NUL anywhere, keys included) or that is not JSON
(NaN, ±Infinity) is refused at every entrance with a clear 400 or form error — never a
500 — and nothing is written."""

import math

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from apps.conflicts.models import ConflictStatus
from apps.conflicts.services import resolve_conflict
from apps.core.validation import InvalidContent, parse_content, validate_content
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.services import create_item, merge_items, patch_item
from apps.quarantine.models import EntryStatus
from apps.quarantine.services import edit_and_release
from tests.conflicts.factories import ConflictFactory
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.memory.api_helpers import remember_body
from tests.quarantine.factories import QuarantineEntryFactory

pytestmark = pytest.mark.django_db

UNSTORABLE = {
    "NUL in a value": {"a": "x\x00y"},
    "NUL in a key": {"a\x00b": "x"},
    "NUL nested in a list": {"a": [{"b": ["ok", "x\x00"]}]},
}
NOT_JSON = {
    "NaN": {"a": math.nan},
    "Infinity nested": {"a": {"b": [1.0, -math.inf]}},
}
TOO_DEEP = {
    "nested past the depth limit": {
        "a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    }
}
HOSTILE = {**UNSTORABLE, **NOT_JSON, **TOO_DEEP}
# The same, as a person would type them into a console form (JSON text).
HOSTILE_TEXT = {
    "NUL escaped in a value": '{"a": "x\\u0000y"}',
    "NUL escaped in a key": '{"a\\u0000": 1}',
    "NaN": '{"a": NaN}',
    "Infinity": '{"a": [Infinity]}',
    # json.loads itself gives up (RecursionError) long before this depth.
    "nested a hundred thousand levels": '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}",
}


@pytest.mark.parametrize("content", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_validator_refuses_nul_and_non_finite_numbers_anywhere(content):
    with pytest.raises(InvalidContent) as refusal:
        validate_content(content)
    assert refusal.value.status == 400 and refusal.value.fields["content"]


@pytest.mark.parametrize("text", HOSTILE_TEXT.values(), ids=HOSTILE_TEXT.keys())
def test_typed_content_is_refused_when_it_decodes_to_nul_or_nan(text):
    with pytest.raises(InvalidContent):
        parse_content(text)


@pytest.mark.parametrize("content", UNSTORABLE.values(), ids=UNSTORABLE.keys())
def test_remember_api_answers_400_for_nul_and_writes_nothing(api_a, content):
    response = api_a.post("/api/v1/memories/", remember_body(content=content), format="json")
    assert response.status_code == 400, response.content
    assert "content" in response.json()["error"]["fields"]
    assert not MemoryItem.objects.exists()


@pytest.fixture
def item_a(tenant_a):
    return MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_1024"))


@pytest.mark.parametrize("content", UNSTORABLE.values(), ids=UNSTORABLE.keys())
def test_patch_api_answers_400_for_nul_and_keeps_the_item(api_a, item_a, content):
    before = item_a.content
    response = api_a.patch(
        f"/api/v1/memories/{item_a.public_id}/", {"version": 1, "content": content}, format="json"
    )
    assert response.status_code == 400, response.content
    item_a.refresh_from_db()
    assert (item_a.content, item_a.version) == (before, 1)


@pytest.mark.parametrize("content", UNSTORABLE.values(), ids=UNSTORABLE.keys())
def test_merge_api_answers_400_for_nul_and_merges_nothing(api_a, item_a, content):
    other = MemoryItemFactory(scope=item_a.scope)
    response = api_a.post(
        "/api/v1/memories/merge/",
        {"ids": [item_a.public_id, other.public_id], "content": content},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert set(MemoryItem.objects.values_list("status", flat=True)) == {MemoryStatus.ACTIVE}


@pytest.fixture
def conflict_a(tenant_a):
    return ConflictFactory(scope=ScopeFactory(tenant=tenant_a))


@pytest.mark.parametrize("content", UNSTORABLE.values(), ids=UNSTORABLE.keys())
def test_conflict_resolve_api_answers_400_for_nul_merges(operator_a, conflict_a, content):
    api = APIClient()
    api.force_authenticate(operator_a)
    response = api.post(
        f"/api/v1/conflicts/{conflict_a.pk}/resolve/",
        {"resolution": "merge", "content": content, "reason": "both"},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid_content"
    conflict_a.refresh_from_db()
    assert conflict_a.status == ConflictStatus.OPEN


@pytest.mark.parametrize("text", HOSTILE_TEXT.values(), ids=HOSTILE_TEXT.keys())
def test_conflict_merge_form_shows_an_error_for_nul_or_nan(client, operator_a, conflict_a, text):
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_a.pk]),
        {"resolution": "merge", "content": text, "reason": "both"},
    )
    assert answer.status_code in (200, 400)
    assert any(why in answer.text for why in ("NUL characters", "not valid JSON", "nests deeper"))
    conflict_a.refresh_from_db()
    assert conflict_a.status == ConflictStatus.OPEN


@pytest.mark.parametrize("text", HOSTILE_TEXT.values(), ids=HOSTILE_TEXT.keys())
def test_quarantine_edit_form_shows_an_error_for_nul_or_nan(client, operator_a, tenant_a, text):
    entry = QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant_a))
    client.force_login(operator_a)
    answer = client.post(
        reverse("quarantine:decide", args=[entry.pk, "edit"]),
        {"reason": "cleaned", "content": text},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code in (200, 400)
    assert any(why in answer.text for why in ("NUL characters", "not valid JSON", "nests deeper"))
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING
    assert MemoryItem.objects.get(pk=entry.item_id).status == MemoryStatus.QUARANTINED


@pytest.mark.parametrize("content", HOSTILE.values(), ids=HOSTILE.keys())
def test_every_service_that_writes_content_refuses_it(operator_a, item_a, tenant_a, content):
    entry = QuarantineEntryFactory(item__scope=item_a.scope)
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    other = MemoryItemFactory(scope=item_a.scope)
    versions, items = MemoryVersion.objects.count(), MemoryItem.objects.count()
    attempts = [
        lambda: patch_item(
            item_id=item_a.pk, changes={"content": content}, actor=operator_a, expected_version=1
        ),
        lambda: merge_items(item_ids=[item_a.pk, other.pk], actor=operator_a, content=content),
        lambda: edit_and_release(entry_id=entry.pk, actor=operator_a, reason="r", content=content),
        lambda: resolve_conflict(
            conflict_id=conflict.pk,
            resolution="merge",
            actor=operator_a,
            reason="r",
            content=content,
        ),
        lambda: create_item(
            values={
                "tenant": tenant_a,
                "scope": item_a.scope,
                "memory_type": "semantic",
                "content": content,
            },
            actor=operator_a,
        ),
    ]
    for attempt in attempts:
        with pytest.raises(InvalidContent):
            attempt()
    assert MemoryVersion.objects.count() == versions
    assert MemoryItem.objects.count() == items
    assert conflict.__class__.objects.get(pk=conflict.pk).status == ConflictStatus.OPEN
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING
