"""Detecting contradictions: on write (the gate) and in bulk (imports, restores).

Last-write-wins keys supersede the old value; other keys open a Conflict and the
newer value waits as pending_review. Bulk scan, non-LWW keys: the oldest active value
stands and each newer, different value waits in a conflict against it; LWW keys: the
newest wins.
"""

import time
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.conflicts.models import Conflict, DetectedBy
from apps.conflicts.policy import is_last_write_wins
from apps.core.types import Actor
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.services import update_item
from apps.tenancy.models import Tenant

BULK_SCAN_ACTOR = "conflict-scan"
# Namespace of the (scope, key) advisory locks; arbitrary, distinct from the audit lock.
_FACT_LOCK_SPACE = 0x4D43_4346  # "MCCF"


def contradicting_items(*, scope_id: int, key: str, content_hash: str, exclude_id=None):
    """Active items of the scope with the same key and a different value, newest first."""
    queryset = MemoryItem.objects.filter(
        scope_id=scope_id, key=key, status=MemoryStatus.ACTIVE
    ).exclude(content_hash=content_hash)
    if exclude_id is not None:
        queryset = queryset.exclude(pk=exclude_id)
    return queryset.order_by("-created_at", "-pk")


def lock_fact(*, scope_id: int, key: str) -> None:
    """Serialise writers of one (scope, key) until the transaction ends (PostgreSQL).

    Two agents writing the same last-write-wins key at once must not both stay active:
    the later one, once it holds the lock, sees the earlier one and supersedes it too.
    SQLite serialises all writes already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                [_FACT_LOCK_SPACE, f"{scope_id}:{key}"],
            )


def supersede_items(*, item_ids: list, successor: MemoryItem, actor: Actor) -> int:
    """Mark old values superseded by their successor (last-write-wins); kept and reinstatable."""
    with transaction.atomic():
        for item_id in item_ids:
            update_item(
                item_id=item_id,
                changes={"status": MemoryStatus.SUPERSEDED, "superseded_by_id": successor.pk},
                actor=actor,
                action=Action.MEMORY_SUPERSEDED,
                reference=f"item:{successor.pk}",
            )
    return len(item_ids)


def open_conflict(
    *,
    existing: MemoryItem,
    incoming: MemoryItem,
    actor: Actor,
    detected_by: DetectedBy = DetectedBy.GATE,
) -> Conflict:
    """Record that `incoming` contradicts `existing`; the incoming item must wait for review.

    The caller has already stored (or is storing) the incoming item as pending_review;
    bulk detection moves it there through `hold_for_review`.
    """
    with transaction.atomic():
        conflict = Conflict.objects.create(
            tenant_id=incoming.tenant_id,
            scope_id=incoming.scope_id,
            key=incoming.key,
            existing_item=existing,
            incoming_item=incoming,
            detected_by=detected_by,
        )
        record(
            actor=actor,
            action=Action.CONFLICT_OPENED,
            target=conflict,
            tenant=conflict.tenant_id,
            scope=conflict.scope_id,
            data={"detected_by": str(detected_by)},
        )
    return conflict


def hold_for_review(*, existing: MemoryItem, incoming: MemoryItem, actor: Actor, detected_by):
    """Open a conflict for an already stored item and take it out of recall meanwhile."""
    with transaction.atomic():
        conflict = open_conflict(
            existing=existing, incoming=incoming, actor=actor, detected_by=detected_by
        )
        update_item(
            item_id=incoming.pk,
            changes={"status": MemoryStatus.PENDING_REVIEW},
            actor=actor,
            action=Action.CONFLICT_OPENED,
            reference=conflict.reference,
        )
    return conflict


def apply_conflict_policy(*, item_id: Any, actor: Actor) -> str:
    """Apply the tenant's conflict policy to a stored, active item (e.g. after a release).

    Returns "superseded" (LWW: older values superseded), "conflict" (the item now waits
    for review) or "none".
    """
    with audited_change():
        item = MemoryItem.objects.select_related("tenant").get(pk=item_id)
        if not item.key:
            return "none"
        lock_fact(scope_id=item.scope_id, key=item.key)
        item = (
            MemoryItem.objects.select_for_update(no_key=True, of=("self",))
            .select_related("tenant")
            .get(pk=item_id)
        )
        if item.status != MemoryStatus.ACTIVE:
            return "none"
        others = list(
            contradicting_items(
                scope_id=item.scope_id,
                key=item.key,
                content_hash=item.content_hash,
                exclude_id=item.pk,
            )
        )
        if not others:
            return "none"
        if is_last_write_wins(item.tenant, item.key):
            supersede_items(item_ids=[other.pk for other in others], successor=item, actor=actor)
            return "superseded"
        hold_for_review(existing=others[0], incoming=item, actor=actor, detected_by=DetectedBy.GATE)
        return "conflict"


@dataclass
class DetectionReport:
    """What one bulk scan found and did; counts only, no content."""

    groups: int = 0
    superseded: int = 0
    opened: int = 0
    conflict_ids: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"groups": self.groups, "superseded": self.superseded, "opened": self.opened}


def contradiction_groups(*, tenant: Tenant | None = None, scope_ids=None):
    """(tenant, scope, key) groups holding active items with more than one distinct value.

    One GROUP BY … HAVING count(DISTINCT content_hash) > 1 over the (scope, key, status)
    index: the cost follows the table once, not a query per item.
    """
    queryset = MemoryItem.objects.filter(status=MemoryStatus.ACTIVE).exclude(key="")
    if tenant is not None:
        queryset = queryset.filter(tenant=tenant)
    if scope_ids is not None:
        queryset = queryset.filter(scope_id__in=list(scope_ids))
    return (
        queryset.values("tenant_id", "scope_id", "key")
        .annotate(values=Count("content_hash", distinct=True))
        .filter(values__gt=1)
        .order_by("tenant_id", "scope_id", "key")
    )


def _settle_group(*, tenant: Tenant, scope_id: int, key: str, actor: Actor, report) -> None:
    items = list(
        MemoryItem.objects.select_for_update(no_key=True)
        .filter(scope_id=scope_id, key=key, status=MemoryStatus.ACTIVE)
        .order_by("created_at", "pk")
    )
    if len({item.content_hash for item in items}) < 2:
        return  # settled by a concurrent write since the scan
    if is_last_write_wins(tenant, key):
        winner = items[-1]
        losers = [item.pk for item in items if item.content_hash != winner.content_hash]
        report.superseded += supersede_items(item_ids=losers, successor=winner, actor=actor)
        return
    standing = items[0]
    for item in items[1:]:
        if item.content_hash == standing.content_hash:
            continue  # the same value twice is dedupe's business, not a contradiction
        conflict = hold_for_review(
            existing=standing, incoming=item, actor=actor, detected_by=DetectedBy.BULK_SCAN
        )
        report.opened += 1
        report.conflict_ids.append(conflict.pk)


def detect_conflicts(
    *, tenant: Tenant | None = None, scope_ids=None, actor: Actor = BULK_SCAN_ACTOR
) -> DetectionReport:
    """Find every contradiction among active items (imports, restores) and apply the policy.

    Idempotent: afterwards each (scope, key) holds one value among active items, so a
    second run finds nothing. Each group is settled in its own transaction.
    """
    started = time.monotonic()
    report = DetectionReport()
    groups = list(contradiction_groups(tenant=tenant, scope_ids=scope_ids))
    tenants = {t.pk: t for t in Tenant.objects.filter(pk__in={g["tenant_id"] for g in groups})}
    for group in groups:
        report.groups += 1
        with audited_change():
            _settle_group(
                tenant=tenants[group["tenant_id"]],
                scope_id=group["scope_id"],
                key=group["key"],
                actor=actor,
                report=report,
            )
    with transaction.atomic():
        record(
            actor=actor,
            action=Action.JOB_RUN,
            target_type="job",
            target_id="detect_conflicts",
            tenant=tenant,
            data={
                "job": "detect_conflicts",
                **report.as_dict(),
                "duration_ms": round((time.monotonic() - started) * 1000),
            },
        )
    return report
