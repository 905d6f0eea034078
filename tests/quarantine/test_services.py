"""Quarantine decisions: release, reject, edit-and-release, escalate, bulk; one reviewer wins."""

import threading

import pytest
from django.db import connection

from apps.audit.models import Action, AuditEvent
from apps.core.validation import InvalidContent
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.quarantine.services import (
    AlreadyDecided,
    QuarantineError,
    bulk_decide,
    edit_and_release,
    escalate_entry,
    reject_entry,
    release_entry,
)
from tests.factories import ScopeFactory, UserFactory
from tests.quarantine.factories import QuarantineEntryFactory


@pytest.fixture
def entry(tenant_a):
    return QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant_a))


def test_release_activates_item_through_a_new_version(entry, operator_a):
    release_entry(entry_id=entry.pk, actor=operator_a, reason="false positive")

    entry.refresh_from_db()
    item = MemoryItem.objects.get(pk=entry.item_id)
    assert entry.status == EntryStatus.RELEASED
    assert entry.decided_by == operator_a
    assert entry.decision_reason == "false positive"
    assert item.status == MemoryStatus.ACTIVE
    assert item.version == 2
    version = MemoryVersion.objects.get(item=item, version=2)
    assert version.reference == f"quarantine:{entry.pk}"
    event = AuditEvent.objects.filter(action=Action.QUARANTINE_RELEASED).get()
    assert event.metadata["reason_length"] == len("false positive")
    assert "false positive" not in str(event.metadata)


def test_reject_deletes_item_and_versions_but_keeps_content_free_entry(entry, operator_a):
    item_id = entry.item_id
    reject_entry(entry_id=entry.pk, actor=operator_a, reason="poisoning")

    entry.refresh_from_db()
    assert entry.status == EntryStatus.REJECTED
    assert entry.item_id is None
    assert not MemoryItem.objects.filter(pk=item_id).exists()
    assert not MemoryVersion.objects.filter(item_id=item_id).exists()
    event = AuditEvent.objects.filter(action=Action.QUARANTINE_REJECTED).get()
    assert event.metadata == {"item": str(item_id), "reason_length": len("poisoning")}


def test_edit_and_release_applies_new_content(entry, operator_a):
    edit_and_release(
        entry_id=entry.pk, actor=operator_a, reason="kept the fact", content='{"city": "Lyon"}'
    )
    item = MemoryItem.objects.get(pk=entry.item_id)
    assert item.content == {"city": "Lyon"}
    assert item.status == MemoryStatus.ACTIVE
    assert "Ignore" not in item.text
    event = AuditEvent.objects.get(action=Action.QUARANTINE_EDITED)
    assert event.metadata["reassessed_score"] == 0
    assert "Lyon" not in str(event.metadata)


@pytest.mark.parametrize("content", ["not json", "[1, 2]", "{}", {"text": "x" * (64 * 1024 + 1)}])
def test_edit_and_release_refuses_invalid_content_and_leaves_entry_pending(
    entry, operator_a, content
):
    with pytest.raises(InvalidContent):
        edit_and_release(entry_id=entry.pk, actor=operator_a, reason="edit", content=content)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING


def test_escalate_hands_entry_to_compliance_and_keeps_item_quarantined(entry, operator_a):
    escalate_entry(entry_id=entry.pk, actor=operator_a, reason="looks like a breach")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ESCALATED
    assert MemoryItem.objects.get(pk=entry.item_id).status == MemoryStatus.QUARANTINED
    assert AuditEvent.objects.filter(action=Action.QUARANTINE_ESCALATED).exists()


def test_reason_is_required(entry, operator_a):
    with pytest.raises(QuarantineError):
        release_entry(entry_id=entry.pk, actor=operator_a, reason="   ")


def test_second_reviewer_is_told_who_decided_first(entry, operator_a):
    other = UserFactory(username="operator_a2")
    release_entry(entry_id=entry.pk, actor=operator_a, reason="fine")

    with pytest.raises(AlreadyDecided) as raised:
        reject_entry(entry_id=entry.pk, actor=other, reason="bad")

    assert "already released by operator_a at" in str(raised.value)
    assert MemoryItem.objects.filter(pk=entry.item_id, status=MemoryStatus.ACTIVE).exists()


def test_bulk_decide_reports_succeeded_and_already_decided(tenant_a, operator_a):
    entries = QuarantineEntryFactory.create_batch(3, item__scope=ScopeFactory(tenant=tenant_a))
    release_entry(entry_id=entries[0].pk, actor=operator_a, reason="first")

    outcome = bulk_decide(
        entry_ids=[e.pk for e in entries], decision="reject", actor=operator_a, reason="bulk"
    )

    assert (outcome.succeeded, outcome.already_decided) == (2, 1)
    assert QuarantineEntry.objects.filter(status=EntryStatus.REJECTED).count() == 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_reviewers_exactly_one_wins(postgres_only, tenant_a):
    entry = QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant_a))
    reviewers = [UserFactory(username=f"rev{i}") for i in range(4)]
    barrier = threading.Barrier(len(reviewers))
    outcomes: list[str] = []

    def decide(reviewer, decision):
        try:
            barrier.wait()
            decision(entry_id=entry.pk, actor=reviewer, reason="race")
            outcomes.append("won")
        except AlreadyDecided:
            outcomes.append("lost")
        finally:
            connection.close()

    decisions = [release_entry, reject_entry, release_entry, reject_entry]
    threads = [
        threading.Thread(target=decide, args=(r, d))
        for r, d in zip(reviewers, decisions, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["lost", "lost", "lost", "won"]
    entry.refresh_from_db()
    assert entry.status != EntryStatus.PENDING
