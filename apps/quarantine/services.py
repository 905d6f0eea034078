"""Every state change of the quarantine queue: flag, decide, bulk-decide, corroborate,
blast radius. Item changes go through apps.memory.services so versions and audit stay
whole; each decision claims its entry with a conditional UPDATE so two reviewers can
never both decide the same entry."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.errors import ServiceError
from apps.core.validation import parse_content
from apps.memory.content import render_text
from apps.memory.gate import resume_after_release
from apps.memory.models import MemoryItem, MemoryStatus, SourceKind
from apps.memory.selectors import items_visible_to
from apps.memory.services import update_item
from apps.quarantine.detectors import Assessment, assess
from apps.quarantine.models import EntryStatus, QuarantineEntry

CORROBORATION_ACTOR = "corroboration"
MAX_REASON_LENGTH = 500
TRUSTED_CORROBORATION_KINDS = {SourceKind.EXPLICIT_STATEMENT}
# Statuses from which a reviewer may still decide (escalated entries stay decidable).
OPEN_STATUSES = (EntryStatus.PENDING, EntryStatus.ESCALATED)


class QuarantineError(ServiceError):
    """A decision that cannot be applied; the message is safe to show to the reviewer."""


class AlreadyDecided(QuarantineError):
    """Another reviewer decided the entry first."""

    code = "already_decided"
    status = 409


def _actor_label(actor: Any) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise QuarantineError("A reason is required.")
    return reason[:MAX_REASON_LENGTH]


def _already_decided_message(entry_id: int) -> str:
    entry = QuarantineEntry.objects.filter(pk=entry_id).values(
        "status", "decided_by_label", "decided_at"
    )
    row = entry.first()
    if row is None:
        return "This entry no longer exists."
    status = EntryStatus(row["status"]).label.lower()
    when = date_format(row["decided_at"], "DATETIME_FORMAT") if row["decided_at"] else "earlier"
    who = row["decided_by_label"] or "someone else"
    return f"This entry was already {status} by {who} at {when}."


def _claim(
    *, entry_id: int, actor: Any, reason: str, to_status: str, from_statuses=OPEN_STATUSES
) -> QuarantineEntry:
    """Move the entry out of an open status, or raise AlreadyDecided (one reviewer wins)."""
    claimed = QuarantineEntry.objects.filter(pk=entry_id, status__in=from_statuses).update(
        status=to_status,
        decided_by=None if isinstance(actor, str) else actor,
        decided_by_label=_actor_label(actor)[:150],
        decided_at=timezone.now(),
        decision_reason=reason,
    )
    if claimed != 1:
        raise AlreadyDecided(_already_decided_message(entry_id))
    return QuarantineEntry.objects.select_related("item").get(pk=entry_id)


def flag_item(
    *,
    item: MemoryItem,
    assessment: Assessment,
    actor: Any,
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


def release_entry(*, entry_id: int, actor: Any, reason: str) -> QuarantineEntry:
    """Return a quarantined memory to active use after human review."""
    reason = _clean_reason(reason)
    with audited_change():
        entry = _claim(
            entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.RELEASED
        )
        _activate(entry=entry, actor=actor, action=Action.QUARANTINE_RELEASED, changes={})
    return entry


def edit_and_release(*, entry_id: int, actor: Any, reason: str, content: Any) -> QuarantineEntry:
    """Replace the memory's content with a reviewer's corrected version and release it."""
    reason = _clean_reason(reason)
    content = parse_content(content)
    with audited_change():
        entry = _claim(
            entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.RELEASED
        )
        if entry.item is None:
            raise QuarantineError("The memory of this entry no longer exists.")
        # Re-assessed for the record only: the reviewer's edit is released as written.
        rescored = assess(render_text(content), source_kind=entry.item.source_kind).score
        _activate(
            entry=entry,
            actor=actor,
            action=Action.QUARANTINE_EDITED,
            changes={"content": content},
            extra={"reassessed_score": rescored},
        )
    return entry


def _activate(
    *, entry: QuarantineEntry, actor: Any, action: Action, changes: dict, extra: dict | None = None
) -> None:
    """Set the entry's item active through the memory primitives (version + audit there)."""
    data = {"entry": entry.pk, "reason_length": len(entry.decision_reason), **(extra or {})}
    if entry.item is None:
        record(
            actor=actor,
            action=action,
            target=entry,
            tenant=entry.tenant_id,
            scope=entry.scope_id,
            data={**data, "item": "gone"},
        )
        return
    update_item(
        item_id=entry.item_id,
        changes={"status": MemoryStatus.ACTIVE, **changes},
        actor=actor,
        action=action,
        reference=entry.reference,
        audit_data=data,
    )
    resume_after_release(item_id=entry.item_id, actor=actor)


def withdraw_forgotten(*, item_id: Any, actor: Any) -> int:
    """Close the open entries of an item its agent forgot (a forget hook): a reviewer
    must not release a forgotten memory back into recall. Returns how many closed."""
    with audited_change():
        open_ids = list(
            QuarantineEntry.objects.filter(item_id=item_id, status__in=OPEN_STATUSES)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        for entry_id in open_ids:
            entry = _claim(
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


def reject_entry(*, entry_id: int, actor: Any, reason: str) -> QuarantineEntry:
    """Delete the quarantined memory and its history; the entry stays, without content."""
    reason = _clean_reason(reason)
    with audited_change():
        entry = _claim(
            entry_id=entry_id, actor=actor, reason=reason, to_status=EntryStatus.REJECTED
        )
        item_id = entry.item_id
        if item_id is not None:
            MemoryItem.objects.filter(pk=item_id).delete()  # versions cascade; entry SET_NULL
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


def escalate_entry(*, entry_id: int, actor: Any, reason: str) -> QuarantineEntry:
    """Hand an entry to compliance: it leaves the operators' queue and officers see it."""
    reason = _clean_reason(reason)
    with audited_change():
        entry = _claim(
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


def bulk_decide(*, entry_ids: list[int], decision: str, actor: Any, reason: str) -> BulkOutcome:
    """Apply one decision to a selection; each entry is claimed on its own."""
    if decision not in DECISIONS:
        raise QuarantineError(f"Unknown decision {decision!r}.")
    _clean_reason(reason)
    succeeded = already = 0
    for entry_id in dict.fromkeys(entry_ids):
        try:
            DECISIONS[decision](entry_id=entry_id, actor=actor, reason=reason)
        except AlreadyDecided:
            already += 1
        else:
            succeeded += 1
    return BulkOutcome(succeeded=succeeded, already_decided=already)


# --- corroboration -------------------------------------------------------------------


def writer_identity(*, source: str, api_key_prefix: str) -> str:
    """Who wrote something, for independence: the API key when there is one, else the source."""
    return f"key:{api_key_prefix}" if api_key_prefix else f"source:{source}"


def corroborate(
    *, scope_id: int, key: str, content_hash: str, source: str, api_key_prefix: str
) -> list[int]:
    """Count a trusted clean write as confirming pending entries with the same key and value;
    release those that reach MEMORY_CONSOLE_CORROBORATION_WRITES independent confirmations.
    Returns the ids of the entries released."""
    if not key:
        return []
    identity = writer_identity(source=source, api_key_prefix=api_key_prefix)
    needed = settings.MEMORY_CONSOLE_CORROBORATION_WRITES
    pending = QuarantineEntry.objects.filter(
        scope_id=scope_id,
        status=EntryStatus.PENDING,
        item__key=key,
        item__content_hash=content_hash,
    )
    if not pending.exists():
        return []  # the common case, without queueing for the chain's lock
    released = []
    with audited_change():
        entries = pending.select_for_update(no_key=True).select_related("item")
        for entry in entries:
            own = writer_identity(source=entry.source, api_key_prefix=entry.api_key_prefix)
            if identity == own or identity in entry.corroborations:
                continue  # the same writer repeating itself is not independent confirmation
            entry.corroborations = [*entry.corroborations, identity]
            entry.save(update_fields=["corroborations"])
            if len(entry.corroborations) >= needed:
                _auto_release(entry_id=entry.pk, confirmations=len(entry.corroborations))
                released.append(entry.pk)
    return released


def _auto_release(*, entry_id: int, confirmations: int) -> None:
    reason = f"Corroborated by {confirmations} independent trusted writes"
    with audited_change():
        entry = _claim(
            entry_id=entry_id,
            actor=CORROBORATION_ACTOR,
            reason=reason,
            to_status=EntryStatus.RELEASED,
            from_statuses=(EntryStatus.PENDING,),
        )
        _activate(
            entry=entry,
            actor=CORROBORATION_ACTOR,
            action=Action.QUARANTINE_AUTO_RELEASED,
            changes={},
            extra={"confirmations": confirmations},
        )


# --- blast radius --------------------------------------------------------------------

BLAST_DIMENSIONS = {"source": "source", "run": "run_id", "api_key": "api_key_prefix"}
BLAST_MAX_ITEMS = 5000


def blast_radius_items(
    *, entry: QuarantineEntry, dimension: str, since: datetime, actor: Any
) -> QuerySet[MemoryItem]:
    """Items written by the entry's source, run or API key since `since`, within the
    actor's review grant (never beyond it)."""
    field = BLAST_DIMENSIONS[dimension]
    value = getattr(entry, field)
    if not value:
        return MemoryItem.objects.none()
    return items_visible_to(actor, "review_memories").filter(
        tenant_id=entry.tenant_id, created_at__gte=since, **{field: value}
    )


def blast_radius_summary(items: QuerySet[MemoryItem]) -> dict:
    """How many items, how many already recalled, and counts per scope: set-based."""
    totals = items.order_by().aggregate(
        total=Count("pk"),
        recalled=Count("pk", filter=Q(access_count__gt=0)),
        active=Count("pk", filter=Q(status=MemoryStatus.ACTIVE)),
        quarantined=Count("pk", filter=Q(status=MemoryStatus.QUARANTINED)),
    )
    per_scope = list(
        items.order_by()
        .values("scope_id", "scope__kind", "scope__external_id")
        .annotate(count=Count("pk"), recalled=Count("pk", filter=Q(access_count__gt=0)))
        .order_by("-count")[:50]
    )
    return {**totals, "per_scope": per_scope}


def contain_blast_radius(
    *,
    entry_id: int,
    dimension: str,
    since: datetime,
    decision: str,
    actor: Any,
    reason: str,
) -> dict:
    """Quarantine (or reject) every item in the blast radius in one audited action."""
    reason = _clean_reason(reason)
    if decision not in ("quarantine", "reject"):
        raise QuarantineError(f"Unknown blast-radius decision {decision!r}.")
    entry = QuarantineEntry.objects.get(pk=entry_id)
    items = blast_radius_items(entry=entry, dimension=dimension, since=since, actor=actor)
    with audited_change():
        if decision == "quarantine":
            counts = _quarantine_items(items=items, origin=entry, actor=actor)
        else:
            counts = _reject_items(items=items, actor=actor, reason=reason)
        record(
            actor=actor,
            action=Action.QUARANTINE_BLAST_RADIUS,
            target=entry,
            tenant=entry.tenant_id,
            scope=entry.scope_id,
            data={
                "decision": decision,
                "by": dimension,
                "since": since.isoformat(),
                "reason_length": len(reason),
                **counts,
            },
        )
    return counts


def _quarantine_items(*, items: QuerySet, origin: QuarantineEntry, actor: Any) -> dict:
    active_ids = list(
        items.filter(status=MemoryStatus.ACTIVE).values_list("pk", flat=True)[:BLAST_MAX_ITEMS]
    )
    assessment = Assessment(score=origin.risk)
    for item_id in active_ids:
        item = update_item(
            item_id=item_id,
            changes={"status": MemoryStatus.QUARANTINED},
            actor=actor,
            action=Action.QUARANTINE_FLAGGED,
            reference=origin.reference,
            audit_data={"blast_radius_of": origin.pk},
        )
        flag_item(
            item=item,
            assessment=assessment,
            actor=actor,
            detectors=["blast_radius"],
            reasons=[f"Same writer as quarantine entry {origin.pk}"],
        )
    return {"quarantined": len(active_ids)}


def _reject_items(*, items: QuerySet, actor: Any, reason: str) -> dict:
    item_ids = list(items.values_list("pk", flat=True)[:BLAST_MAX_ITEMS])
    entries_closed = QuarantineEntry.objects.filter(
        item_id__in=item_ids, status__in=OPEN_STATUSES
    ).update(
        status=EntryStatus.REJECTED,
        decided_by=None if isinstance(actor, str) else actor,
        decided_by_label=_actor_label(actor)[:150],
        decided_at=timezone.now(),
        decision_reason=reason,
    )
    deleted = MemoryItem.objects.filter(pk__in=item_ids).delete()[1].get(MemoryItem._meta.label, 0)
    return {"rejected": deleted, "entries_closed": entries_closed}
