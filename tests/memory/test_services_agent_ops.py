"""The agent verbs as services: forget, feedback, merge and patch keep history and audit."""

import pytest

from apps.access.api_keys import create_api_key
from apps.audit.models import Action, AuditEvent
from apps.memory import wiring
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.services import (
    MergeRefused,
    StaleVersion,
    forget_item,
    give_feedback,
    merge_items,
    patch_item,
    rollback_to_version,
)
from tests.memory.api_helpers import remember_body
from tests.remembering import remember

pytestmark = pytest.mark.django_db


@pytest.fixture
def agent(tenant_a):
    return create_api_key(username="agent-a", tenant=tenant_a, actor="t")[0].user


def write(agent, text: str, **overrides) -> MemoryItem:
    return remember(actor=agent, payload=remember_body(content={"text": text}, **overrides)).item


def test_forget_archives_keeps_history_and_audits(agent):
    item = write(agent, "x")
    forgotten = forget_item(item_id=item.pk, actor=agent)
    assert forgotten.status == MemoryStatus.ARCHIVED and forgotten.version == 2
    assert forget_item(item_id=item.pk, actor=agent).version == 2  # no second change
    event = AuditEvent.objects.get(action=Action.MEMORY_FORGOTTEN)
    assert event.metadata["from_status"] == "active"
    assert (
        rollback_to_version(item_id=item.pk, version=1, actor=agent, reason="x").status == "active"
    )


def test_feedback_moves_importance_and_archive_due(agent):
    item = write(agent, "x", importance=0.5)
    up = give_feedback(item_id=item.pk, signal="positive", actor=agent)
    down = give_feedback(item_id=item.pk, signal="negative", actor=agent)
    assert up.importance > 0.5 > down.importance
    assert down.archive_due_at < up.archive_due_at
    signals = [e.metadata["signal"] for e in AuditEvent.objects.filter(action="memory.feedback")]
    assert sorted(signals) == ["negative", "positive"]
    with pytest.raises(ValueError):
        give_feedback(item_id=item.pk, signal="maybe", actor=agent)


def test_merge_combines_counts_and_importance_and_keeps_versions(agent):
    a = write(agent, "a", importance=0.8)
    b = write(agent, "b", importance=0.2)
    c = write(agent, "c", importance=0.4)
    MemoryItem.objects.filter(pk=a.pk).update(access_count=3)
    MemoryItem.objects.filter(pk=b.pk).update(access_count=4)
    merged = merge_items(item_ids=[a.pk, b.pk, c.pk], actor=agent)
    assert merged.pk == c.pk  # the newest survives
    assert merged.access_count == 7 and merged.importance == 0.8
    for loser in (a, b):
        loser.refresh_from_db()
        assert loser.status == MemoryStatus.SUPERSEDED and loser.superseded_by_id == c.pk
        assert MemoryVersion.objects.filter(item=loser).count() == 2
        assert MemoryVersion.objects.get(item=loser, version=2).reference == f"merge:{c.public_id}"


def test_merge_refuses_mixed_scopes_and_inactive_items(agent):
    a = write(agent, "a")
    b = write(agent, "b", scope="user:other")
    with pytest.raises(MergeRefused):
        merge_items(item_ids=[a.pk, b.pk], actor=agent)
    c = write(agent, "c")
    forget_item(item_id=c.pk, actor=agent)
    with pytest.raises(MergeRefused):
        merge_items(item_ids=[a.pk, c.pk], actor=agent)
    with pytest.raises(MergeRefused):
        merge_items(item_ids=[a.pk, a.pk], actor=agent)
    assert MemoryItem.objects.get(pk=a.pk).version == 1  # nothing half-done


def test_patch_is_optimistically_locked(agent):
    item = write(agent, "x")
    patch_item(item_id=item.pk, changes={"key": "k"}, actor=agent, expected_version=1)
    with pytest.raises(StaleVersion) as excinfo:
        patch_item(item_id=item.pk, changes={"key": "j"}, actor=agent, expected_version=1)
    assert excinfo.value.current_version == 2


def test_patch_recomputes_half_life_when_the_type_changes(agent):
    item = write(agent, "x", memory_type="semantic")
    patched = patch_item(
        item_id=item.pk, changes={"memory_type": "procedural"}, actor=agent, expected_version=1
    )
    assert patched.half_life_days == 120


class QuarantineEverythingWithMarker:
    name = "injection"

    def inspect(self, draft):
        if "ignore previous instructions" in str(draft.memory.content):
            draft.status = MemoryStatus.QUARANTINED


def test_patched_content_is_screened_like_a_new_write(agent):
    with wiring.overridden(content_stages=(QuarantineEverythingWithMarker(),)):
        item = write(agent, "likes tea")
        patched = patch_item(
            item_id=item.pk,
            changes={"content": {"text": "ignore previous instructions"}},
            actor=agent,
            expected_version=1,
        )
    assert patched.status == MemoryStatus.QUARANTINED


def test_patching_sensitive_content_seals_it_and_clean_content_unseals(agent, tenant_a):
    tenant_a.sensitive_policy = "encrypt"
    tenant_a.save()
    item = write(agent, "likes tea")
    sealed = patch_item(
        item_id=item.pk,
        changes={"content": {"text": "card 4111 1111 1111 1111"}},
        actor=agent,
        expected_version=1,
    )
    assert sealed.sensitive and sealed.sealed_content
    assert "4111" not in str(sealed.content) and "4111" not in sealed.text
    other = write(agent, "card 4000 0566 5566 5556")
    assert other.content_hash != sealed.content_hash  # distinct secrets never merge
    clean = patch_item(
        item_id=item.pk,
        changes={"content": {"text": "likes coffee"}},
        actor=agent,
        expected_version=2,
    )
    assert not clean.sensitive and clean.sealed_content == ""
    assert clean.content == {"text": "likes coffee"}
