"""What every quarantine decision shares: the reason, the one-reviewer-wins claim of an
entry, and returning an entry's item to active use."""

from django.utils import timezone
from django.utils.formats import date_format

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor
from apps.memory.services import activate_item
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.quarantine.services.errors import AlreadyDecided, QuarantineError

MAX_REASON_LENGTH = 500
# Statuses from which a reviewer may still decide (escalated entries stay decidable).
OPEN_STATUSES = (EntryStatus.PENDING, EntryStatus.ESCALATED)


def actor_label(actor: Actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise QuarantineError("A reason is required.")
    return reason[:MAX_REASON_LENGTH]


def already_decided_message(entry_id: int) -> str:
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


def claim(
    *, entry_id: int, actor: Actor, reason: str, to_status: str, from_statuses=OPEN_STATUSES
) -> QuarantineEntry:
    """Move the entry out of an open status, or raise AlreadyDecided (one reviewer wins)."""
    claimed = QuarantineEntry.objects.filter(pk=entry_id, status__in=from_statuses).update(
        status=to_status,
        decided_by=None if isinstance(actor, str) else actor,
        decided_by_label=actor_label(actor)[:150],
        decided_at=timezone.now(),
        decision_reason=reason,
    )
    if claimed != 1:
        raise AlreadyDecided(already_decided_message(entry_id))
    return QuarantineEntry.objects.select_related("item").get(pk=entry_id)


def activate(
    *,
    entry: QuarantineEntry,
    actor: Actor,
    action: Action,
    changes: dict,
    extra: dict | None = None,
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
    activate_item(
        item_id=entry.item_id,
        changes=changes,
        actor=actor,
        action=action,
        reference=entry.reference,
        audit_data=data,
    )
