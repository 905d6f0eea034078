"""Resolving, undoing and reinstating: what each path does to the items and to recall.

"What recall returns" is asked of the real recall service (apps.memory.recall).
"""

import pytest

from apps.audit.models import AuditEvent
from apps.conflicts.models import ConflictStatus, Resolution
from apps.conflicts.services import (
    AlreadyResolved,
    ConflictError,
    NotResolved,
    NotSuperseded,
    RevertBlocked,
    bulk_keep_newest,
    reinstate_item,
    resolve_conflict,
    revert_resolution,
)
from apps.core.validation import InvalidContent, parse_content
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.recall import recall_memories
from apps.memory.services import update_item
from tests.conflicts.factories import ConflictFactory, fact, write_through_conflict_stage
from tests.factories import ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db
KEY = "preference.drink"


def recalled(scope, key=KEY):
    """What recall returns for "drink" in the scope, as (key, value) pairs."""
    reader = UserFactory(username="recall-reader", is_superuser=True)
    hits = recall_memories(
        actor=reader, tenant=scope.tenant, scope_key=scope.key, query="drink", top_k=50
    )
    return sorted(
        (hit.item.key, hit.item.content["drink"]) for hit in hits if hit.item.key.startswith(key)
    )


@pytest.fixture
def conflict(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, KEY, {"drink": "tea"})
    write_through_conflict_stage(scope=scope, key=KEY, content={"drink": "coffee"})
    return scope.conflicts.get()


def items(conflict):
    old = MemoryItem.objects.get(pk=conflict.existing_item_id)
    new = MemoryItem.objects.get(pk=conflict.incoming_item_id)
    return old, new


def test_while_open_recall_returns_only_the_old_value(conflict):
    assert recalled(conflict.scope) == [(KEY, "tea")]


def test_keep_new_activates_new_and_supersedes_old(conflict, operator_a):
    resolve_conflict(
        conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="user moved on"
    )
    old, new = items(conflict)
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.RESOLVED
    assert conflict.resolution == Resolution.KEEP_NEW
    assert conflict.resolved_by == operator_a and conflict.resolved_at is not None
    assert conflict.reason == "user moved on"
    assert new.status == MemoryStatus.ACTIVE
    assert (old.status, old.superseded_by_id) == (MemoryStatus.SUPERSEDED, new.pk)
    assert recalled(conflict.scope) == [(KEY, "coffee")]
    for item in (old, new):
        assert item.versions.filter(
            change="conflict.resolved", reference=f"conflict:{conflict.pk}"
        ).exists()


def test_keep_old_rejects_new(conflict, operator_a):
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_old", actor=operator_a, reason="x")
    old, new = items(conflict)
    assert (old.status, new.status) == (MemoryStatus.ACTIVE, MemoryStatus.REJECTED)
    assert recalled(conflict.scope) == [(KEY, "tea")]


def test_keep_both_keeps_both_active_under_distinct_keys(conflict, operator_a):
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_both", actor=operator_a, reason="x")
    old, new = items(conflict)
    assert (old.status, new.status) == (MemoryStatus.ACTIVE, MemoryStatus.ACTIVE)
    assert old.key == KEY
    assert new.key == f"{KEY}#{new.pk.hex[:8]}"
    assert recalled(conflict.scope) == [(KEY, "tea"), (new.key, "coffee")]


def test_keep_both_is_not_flagged_again_by_the_next_write_or_scan(conflict, operator_a):
    from apps.conflicts.services import detect_conflicts

    resolve_conflict(conflict_id=conflict.pk, resolution="keep_both", actor=operator_a, reason="x")
    assert detect_conflicts(actor="test").opened == 0


def test_merge_supersedes_old_and_stores_merged_content_on_new(conflict, operator_a):
    resolve_conflict(
        conflict_id=conflict.pk,
        resolution="merge",
        actor=operator_a,
        reason="both true",
        content='{"drink": "tea in the morning, coffee after lunch"}',
    )
    old, new = items(conflict)
    assert new.status == MemoryStatus.ACTIVE
    assert new.content == {"drink": "tea in the morning, coffee after lunch"}
    assert "coffee after lunch" in new.text
    assert (old.status, old.superseded_by_id) == (MemoryStatus.SUPERSEDED, new.pk)
    assert recalled(conflict.scope) == [(KEY, "tea in the morning, coffee after lunch")]


@pytest.mark.parametrize(
    "raw, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("{}", "JSON object"),
        ('{"a": "' + "x" * 70_000 + '"}', "64 KiB"),
    ],
)
def test_merge_refuses_bad_content_and_leaves_the_conflict_open(conflict, operator_a, raw, message):
    with pytest.raises(InvalidContent, match=message):
        resolve_conflict(
            conflict_id=conflict.pk, resolution="merge", actor=operator_a, reason="x", content=raw
        )
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.OPEN


def test_parse_content_accepts_objects_and_their_text():
    assert parse_content({"a": 1}) == {"a": 1}
    assert parse_content('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}


def test_unknown_resolution_is_refused(conflict, operator_a):
    with pytest.raises(ConflictError):
        resolve_conflict(conflict_id=conflict.pk, resolution="delete_all", actor=operator_a)


def test_second_resolution_is_refused_with_who_and_when(conflict, operator_a, admin_user):
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_old", actor=operator_a, reason="a")
    with pytest.raises(AlreadyResolved, match=r"already resolved .* by operator_a"):
        resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=admin_user)
    _old, new = items(conflict)
    assert new.status == MemoryStatus.REJECTED  # the loser changed nothing


def test_resolution_is_audited_without_content_or_reason_text(conflict, operator_a):
    resolve_conflict(
        conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="secret reason"
    )
    event = AuditEvent.objects.get(action="conflict.resolved", target_type="conflicts.conflict")
    assert event.metadata == {"resolution": "keep_new", "reason_length": 13, "items": 2}
    assert event.actor_label == "operator_a"
    for event in AuditEvent.objects.all():
        assert "coffee" not in str(event.metadata) and "secret" not in str(event.metadata)


def test_resolving_when_the_new_item_was_erased_still_works(conflict, operator_a):
    MemoryItem.objects.filter(pk=conflict.incoming_item_id).delete()
    conflict.refresh_from_db()
    assert conflict.incoming_item is None
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="x")
    assert recalled(conflict.scope) == [(KEY, "tea")]


@pytest.mark.parametrize("resolution", ["keep_new", "keep_old", "keep_both", "merge"])
def test_every_resolution_can_be_undone(conflict, operator_a, resolution):
    before = {i.pk: (i.status, i.key, i.content, i.superseded_by_id) for i in items(conflict)}
    resolve_conflict(
        conflict_id=conflict.pk,
        resolution=resolution,
        actor=operator_a,
        reason="r",
        content={"drink": "juice"},
    )
    reverted = revert_resolution(conflict_id=conflict.pk, actor=operator_a)
    after = {i.pk: (i.status, i.key, i.content, i.superseded_by_id) for i in items(conflict)}
    assert after == before
    assert reverted.status == ConflictStatus.OPEN and reverted.resolution == ""
    assert reverted.undone_by == operator_a and reverted.undone_at is not None
    assert recalled(conflict.scope) == [(KEY, "tea")]
    assert AuditEvent.objects.filter(
        action="conflict.reverted", target_type="conflicts.conflict", target_id=str(conflict.pk)
    ).exists()


def test_undone_conflict_can_be_resolved_differently_and_undone_again(conflict, operator_a):
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="1")
    revert_resolution(conflict_id=conflict.pk, actor=operator_a)
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_old", actor=operator_a, reason="2")
    assert recalled(conflict.scope) == [(KEY, "tea")]
    revert_resolution(conflict_id=conflict.pk, actor=operator_a)
    old, new = items(conflict)
    assert (old.status, new.status) == (MemoryStatus.ACTIVE, MemoryStatus.PENDING_REVIEW)


def test_undo_of_an_open_conflict_is_refused(conflict, operator_a):
    with pytest.raises(NotResolved):
        revert_resolution(conflict_id=conflict.pk, actor=operator_a)


def test_undo_is_refused_when_an_item_changed_since(conflict, operator_a):
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="x")
    update_item(
        item_id=conflict.incoming_item_id,
        changes={"importance": 0.9},
        actor=operator_a,
        action="memory.updated",
    )
    with pytest.raises(RevertBlocked, match="changed after the resolution"):
        revert_resolution(conflict_id=conflict.pk, actor=operator_a)
    conflict.refresh_from_db()
    assert conflict.status == ConflictStatus.RESOLVED


def test_bulk_keep_newest_resolves_the_selection_and_skips_settled_ones(tenant_a, operator_a):
    first, second, third = ConflictFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    resolve_conflict(conflict_id=third.pk, resolution="keep_old", actor=operator_a, reason="x")
    result = bulk_keep_newest(conflicts=[first, second, third], actor=operator_a, reason="bulk")
    assert result.resolved == [first.pk, second.pk]
    assert list(result.skipped) == [third.pk]
    first.refresh_from_db()
    assert first.resolution == Resolution.KEEP_NEW


def test_reinstating_a_superseded_address_flips_the_supersession(tenant_a, operator_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = fact(scope, "address.district", {"district": "Chaoyang"})
    new = write_through_conflict_stage(
        scope=scope, key="address.district", content={"district": "Haidian"}
    )
    reinstate_item(item_id=old.pk, actor=operator_a, reason="wrong user")
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.status, old.superseded_by_id) == (MemoryStatus.ACTIVE, None)
    assert (new.status, new.superseded_by_id) == (MemoryStatus.SUPERSEDED, old.pk)
    assert AuditEvent.objects.filter(action="memory.reinstated", target_id=str(old.pk)).exists()
    # and it is its own inverse
    reinstate_item(item_id=new.pk, actor=operator_a)
    old.refresh_from_db()
    assert old.status == MemoryStatus.SUPERSEDED and old.superseded_by_id == new.pk


def test_only_superseded_items_can_be_reinstated(tenant_a, operator_a):
    item = fact(ScopeFactory(tenant=tenant_a), "address.city", {"city": "Beijing"})
    with pytest.raises(NotSuperseded):
        reinstate_item(item_id=item.pk, actor=operator_a)
