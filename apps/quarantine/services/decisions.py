"""Reviewers' decisions on quarantine entries: flag, release, edit, reject, escalate,
bulk. Each claims its entry with a conditional UPDATE so two reviewers can never both
decide the same entry; item changes go through apps.memory.services."""

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.core.validation import parse_content
from apps.memory.content import render_text
from apps.memory.models import MemoryItem
from apps.memory.services import delete_items
from apps.quarantine.detectors import Assessment, assess
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.quarantine.services.claims import (
    OPEN_STATUSES,
    activate,
    claim,
    clean_reason,
)
from apps.quarantine.services.errors import AlreadyDecided, QuarantineError


def flag_item(
    *,
    item: MemoryItem,
    assessment: Assessment,
    actor: Actor,
    detectors: list[str] | None = None,
    reasons: list[str] | None = None,
) -> QuarantineEntry:
    """Open a queue entry for an item stored as quarantined (by the gate or blast radius)."""
    with transaction.atomic():
        entry = QuarantineEntry.objects.create(
            item=item,
            tenant_id=item.tenant_id,
            scope_id=item.scope_id,
            risk=min(max(float(assessment.score), 0.0), 1.0),
            detectors=detectors if detectors is not None else assessment.detectors(),
            reasons=reasons if reasons is not None else assessment.reasons(),
            spans=[[span.start, span.end, span.label] for span in assessment.spans()],
            source=item.source,
            source_kind=item.source_kind,
            api_key_prefix=item.api_key_prefix,
            run_id=item.run_id,
        )
        record(
            actor=actor,
            action=Action.QUARANTINE_FLAGGED,
            target=entry,
            tenant=entry.tenant_id,
            scope=entry.scope_id,
            data={"score": entry.risk, "detectors": entry.detectors},
        )
    return entry


def release_entry(*, entry_id: int, actor: Actor, reason: str) -> QuarantineEntry:
    """Return a quarantined memory to active use after human review."""
    reason = clean_reason(reason)
    with audited_change():
        entry = claim(entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.RELEASED)
        activate(entry=entry, actor=actor, action=Action.QUARANTINE_RELEASED, changes={})
    return entry


def edit_and_release(*, entry_id: int, actor: Actor, reason: str, content: Any) -> QuarantineEntry:
    """Replace the memory's content with a reviewer's corrected version and release it."""
    reason = clean_reason(reason)
    content = parse_content(content)
    with audited_change():
        entry = claim(entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.RELEASED)
        if entry.item is None:
            raise QuarantineError("The memory of this entry no longer exists.")
        # Re-assessed for the record only: the reviewer's edit is released as written.
        rescored = assess(render_text(content), source_kind=entry.item.source_kind).score
        activate(
            entry=entry,
            actor=actor,
            action=Action.QUARANTINE_EDITED,
            changes={"content": content},
            extra={"reassessed_score": rescored},
        )
    return entry


def withdraw_forgotten(*, item_id: Any, actor: Actor) -> int:
    """Close the open entries of an item its agent forgot (a forget hook): a reviewer
    must not release a forgotten memory back into recall. Returns how many closed."""
    with audited_change():
        open_ids = list(
            QuarantineEntry.objects.filter(item_id=item_id, status__in=OPEN_STATUSES)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        for entry_id in open_ids:
            entry = claim(
                entry_id=entry_id,
                actor=actor,
                reason="The memory was forgotten by its agent.",
                to_status=EntryStatus.WITHDRAWN,
            )
            record(
                actor=actor,
                action=Action.QUARANTINE_WITHDRAWN,
                target=entry,
                tenant=entry.tenant_id,
                scope=entry.scope_id,
            )
    return len(open_ids)


def reject_entry(*, entry_id: int, actor: Actor, reason: str) -> QuarantineEntry:
    """Delete the quarantined memory and its history; the entry stays, without content."""
    reason = clean_reason(reason)
    with audited_change():
        entry = claim(entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.REJECTED)
        item_id = entry.item_id
        if item_id is not None:
            delete_items(item_ids=[item_id])  # with its versions; the entry keeps its row
        entry.item = None
        record(
            actor=actor,
            action=Action.QUARANTINE_REJECTED,
            target=entry,
            tenant=entry.tenant_id,
            scope=entry.scope_id,
            data={"item": str(item_id) if item_id else None, "reason_length": len(reason)},
        )
    return entry


def escalate_entry(*, entry_id: int, actor: Actor, reason: str) -> QuarantineEntry:
    """Hand an entry to compliance: it leaves the operators' queue and officers see it."""
    reason = clean_reason(reason)
    with audited_change():
        entry = claim(
            entry_id=entry_id,
            actor=actor,
            reason=reason,
            to_status=EntryStatus.ESCALATED,
            from_statuses=(EntryStatus.PENDING,),
        )
        record(
            actor=actor,
            action=Action.QUARANTINE_ESCALATED,
            target=entry,
            tenant=entry.tenant_id,
            scope=entry.scope_id,
            data={"reason_length": len(reason)},
        )
    return entry


DECISIONS = {"release": release_entry, "reject": reject_entry, "escalate": escalate_entry}


@dataclass(frozen=True)
class BulkOutcome:
    """How a bulk decision went: entries decided now vs. already decided by someone else."""

    succeeded: int
    already_decided: int

    @property
    def message(self) -> str:
        text = f"{self.succeeded} entries decided."
        if self.already_decided:
            text += f" {self.already_decided} were already decided by someone else."
        return text


def bulk_decide(*, entry_ids: list[int], decision: str, actor: Actor, reason: str) -> BulkOutcome:
    """Apply one decision to a selection; each entry is claimed on its own."""
    if decision not in DECISIONS:
        raise QuarantineError(f"Unknown decision {decision!r}.")
    clean_reason(reason)
    succeeded = already = 0
    for entry_id in dict.fromkeys(entry_ids):
        try:
            DECISIONS[decision](entry_id=entry_id, actor=actor, reason=reason)
        except AlreadyDecided:
            already += 1
        else:
            succeeded += 1
    return BulkOutcome(succeeded=succeeded, already_decided=already)
