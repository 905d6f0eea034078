"""The conflict stage of the remember gate: LWW keys supersede, others wait for review."""

import pytest

from apps.audit.models import AuditEvent
from apps.conflicts.gate import ConflictStage
from apps.conflicts.models import Conflict, ConflictStatus, DetectedBy
from apps.conflicts.policy import is_last_write_wins
from apps.memory.models import MemoryStatus
from tests.conflicts.factories import fact, write_through_conflict_stage
from tests.factories import ScopeFactory
from tests.remembering import remember

pytestmark = pytest.mark.django_db


def active_values(scope, key):
    """What recall draws from: active items of the scope (recall never sees the others)."""
    return [i.content for i in scope.memories.filter(key=key, status=MemoryStatus.ACTIVE)]


def test_default_policy_treats_contact_keys_as_last_write_wins(tenant_a):
    assert is_last_write_wins(tenant_a, "address.city")
    assert is_last_write_wins(tenant_a, "phone")
    assert is_last_write_wins(tenant_a, "contact.email")
    assert not is_last_write_wins(tenant_a, "preference.drink")
    assert not is_last_write_wins(tenant_a, "phone.work")


def test_tenant_patterns_replace_the_defaults(tenant_a):
    tenant_a.lww_key_patterns = ["preference.*"]
    assert is_last_write_wins(tenant_a, "preference.drink")
    assert not is_last_write_wins(tenant_a, "address.city")


def test_new_address_supersedes_the_old_one_and_links_to_it(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = fact(scope, "address.district", {"district": "Chaoyang"})
    new = write_through_conflict_stage(
        scope=scope, key="address.district", content={"district": "Haidian"}
    )
    old.refresh_from_db()
    assert new.status == MemoryStatus.ACTIVE
    assert old.status == MemoryStatus.SUPERSEDED
    assert old.superseded_by_id == new.pk
    assert active_values(scope, "address.district") == [{"district": "Haidian"}]
    assert old.versions.filter(change="memory.superseded", reference=f"item:{new.pk}").exists()
    assert not Conflict.objects.exists()


def test_contradicting_preference_waits_for_review_and_opens_a_conflict(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = fact(scope, "preference.drink", {"drink": "tea"})
    new = write_through_conflict_stage(
        scope=scope, key="preference.drink", content={"drink": "coffee"}
    )
    assert new.status == MemoryStatus.PENDING_REVIEW
    conflict = Conflict.objects.get()
    assert (conflict.existing_item, conflict.incoming_item) == (old, new)
    assert conflict.status == ConflictStatus.OPEN
    assert conflict.detected_by == DetectedBy.GATE
    assert conflict.key == "preference.drink"
    assert active_values(scope, "preference.drink") == [{"drink": "tea"}]
    opened = AuditEvent.objects.get(action="conflict.opened")
    assert opened.target_id == str(conflict.pk)
    assert "coffee" not in str(opened.metadata) and "tea" not in str(opened.metadata)


def test_same_value_or_no_key_or_other_scope_is_not_a_conflict(tenant_a):
    scope, other_scope = ScopeFactory(tenant=tenant_a), ScopeFactory(tenant=tenant_a)
    fact(scope, "preference.drink", {"drink": "tea"})
    same = write_through_conflict_stage(
        scope=scope, key="preference.drink", content={"drink": "tea"}
    )
    elsewhere = write_through_conflict_stage(
        scope=other_scope, key="preference.drink", content={"drink": "coffee"}
    )
    keyless = write_through_conflict_stage(scope=scope, key="", content={"drink": "water"})
    assert {same.status, elsewhere.status, keyless.status} == {MemoryStatus.ACTIVE}
    assert not Conflict.objects.exists()


def test_superseded_and_rejected_values_do_not_conflict(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, "preference.drink", {"drink": "tea"}, status=MemoryStatus.SUPERSEDED)
    fact(scope, "preference.drink", {"drink": "milk"}, status=MemoryStatus.REJECTED)
    new = write_through_conflict_stage(
        scope=scope, key="preference.drink", content={"drink": "coffee"}
    )
    assert new.status == MemoryStatus.ACTIVE
    assert not Conflict.objects.exists()


def test_stage_is_configured_last_in_the_gate():
    from apps.memory import wiring

    assert isinstance(wiring.current().gate_stages[-1], ConflictStage)


def test_remember_service_runs_the_conflict_stage_when_present(tenant_a, admin_user):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_gate")
    fact(scope, "preference.drink", {"drink": "tea"})
    result = remember(
        actor=admin_user,
        payload={
            "tenant": tenant_a.slug,
            "scope": scope.key,
            "memory_type": "semantic",
            "key": "preference.drink",
            "content": {"drink": "coffee"},
            "source": "test",
        },
    )
    assert result.status == MemoryStatus.PENDING_REVIEW
    assert Conflict.objects.filter(incoming_item=result.item).exists()


def test_quarantined_draft_is_left_to_quarantine(tenant_a):
    from apps.memory.gate import Draft, NewMemory

    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, "preference.drink", {"drink": "tea"})
    new = NewMemory(
        tenant=tenant_a,
        scope=scope,
        memory_type="semantic",
        key="preference.drink",
        content={"drink": "coffee"},
        source="agent",
    )
    draft = Draft(memory=new, actor="agent", status="quarantined")
    ConflictStage().inspect(draft)
    assert draft.status == "quarantined" and draft.callbacks == []


@pytest.mark.parametrize(
    "key, outcome, status",
    [("preference.drink", "conflict", "pending_review"), ("address.city", "superseded", "active")],
)
def test_policy_applies_to_an_item_released_from_quarantine(tenant_a, key, outcome, status):
    from apps.conflicts.services import apply_conflict_policy

    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, key, {"v": "old"})
    released = fact(scope, key, {"v": "new"})
    assert apply_conflict_policy(item_id=released.pk, actor="quarantine") == outcome
    released.refresh_from_db()
    assert released.status == status
    assert apply_conflict_policy(item_id=released.pk, actor="quarantine") == "none"


def test_an_edit_that_contradicts_another_value_of_its_key_waits_for_review(tenant_a):
    """PATCH runs the conflict policy too: giving an item the key of another active value
    holds it as pending_review with a conflict, as a new write would be."""
    from apps.conflicts.models import Conflict
    from apps.memory.services import patch_item

    scope = ScopeFactory(tenant=tenant_a)
    established = fact(scope, "diet", {"text": "vegetarian"})
    other = fact(scope, "", {"text": "eats fish"})
    edited = patch_item(
        item_id=other.pk, changes={"key": "diet"}, actor="agent-test", expected_version=1
    )
    assert edited.status == MemoryStatus.PENDING_REVIEW
    conflict = Conflict.objects.get()
    assert (conflict.existing_item_id, conflict.incoming_item_id) == (established.pk, other.pk)


def test_an_edit_of_a_last_write_wins_value_supersedes_the_other_values(tenant_a):
    from apps.memory.services import patch_item

    scope = ScopeFactory(tenant=tenant_a)
    older = fact(scope, "address.city", {"city": "Shanghai"})  # two values, as an import
    newer = fact(scope, "address.city", {"city": "Beijing"})  # without the gate leaves them
    edited = patch_item(
        item_id=newer.pk,
        changes={"content": {"city": "Hangzhou"}},
        actor="agent-test",
        expected_version=1,
    )
    assert edited.status == MemoryStatus.ACTIVE
    older.refresh_from_db()
    assert older.status == MemoryStatus.SUPERSEDED and older.superseded_by_id == edited.pk
