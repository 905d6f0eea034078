"""Blast radius: everything the writer of a quarantined memory wrote (same source, run or
API key) since a moment, summarised, and contained in one audited action."""

from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.selectors import items_visible_to
from apps.memory.services import delete_items, update_item
from apps.quarantine.detectors import Assessment
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.quarantine.services.claims import OPEN_STATUSES, actor_label, clean_reason
from apps.quarantine.services.decisions import flag_item
from apps.quarantine.services.errors import QuarantineError
from apps.tenancy.permissions import Perm

BLAST_DIMENSIONS = {"source": "source", "run": "run_id", "api_key": "api_key_prefix"}
BLAST_MAX_ITEMS = 5000


def blast_radius_items(
    *, entry: QuarantineEntry, dimension: str, since: datetime, actor: Actor
) -> QuerySet[MemoryItem]:
    """Items written by the entry's source, run or API key since `since`, within the
    actor's review grant (never beyond it)."""
    field = BLAST_DIMENSIONS[dimension]
    value = getattr(entry, field)
    if not value:
        return MemoryItem.objects.none()
    return items_visible_to(actor, Perm.REVIEW_MEMORIES).filter(
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
    actor: Actor,
    reason: str,
) -> dict:
    """Quarantine (or reject) every item in the blast radius in one audited action."""
    reason = clean_reason(reason)
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


def _quarantine_items(*, items: QuerySet, origin: QuarantineEntry, actor: Actor) -> dict:
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


def _reject_items(*, items: QuerySet, actor: Actor, reason: str) -> dict:
    item_ids = list(items.values_list("pk", flat=True)[:BLAST_MAX_ITEMS])
    entries_closed = QuarantineEntry.objects.filter(
        item_id__in=item_ids, status__in=OPEN_STATUSES
    ).update(
        status=EntryStatus.REJECTED,
        decided_by=None if isinstance(actor, str) else actor,
        decided_by_label=actor_label(actor)[:150],
        decided_at=timezone.now(),
        decision_reason=reason,
    )
    deleted = delete_items(item_ids=item_ids)
    return {"rejected": deleted, "entries_closed": entries_closed}
