"""The scheduled end of a memory's active life (ARCHITECTURE §3): decay archival, expiry of
working memory, and an operator's restore.

Archival and expiry are set-based: each batch is one statement over the partial index on
the due column (`mem_archive_due_active`, `mem_expires_active`), ordered by it, taking at
most `batch_size` rows and skipping rows another transaction holds, so the job's cost
follows the rows actually due, not the table. Every batch commits with its own audit
event (counts only), so a killed run leaves finished batches done and the next run picks
up the rest: the jobs are idempotent by construction (archived rows are no longer due).
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import F
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.memory import wiring
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.services.items import delete_items, update_item
from apps.tenancy.models import ExpiryPolicy, Tenant

DEFAULT_BATCH_SIZE = 10_000
# The batch's audit event names each tenant's count while that stays small (4 KiB cap).
_MAX_TENANTS_IN_EVENT = 40

_TABLE = MemoryItem._meta.db_table


@dataclass
class SweepCounts:
    """What a sweep did: rows per tenant and memory type, and how many batches it took."""

    action: str
    total: int = 0
    batches: int = 0
    by_tenant_type: Counter = field(default_factory=Counter)

    def add(self, rows: list[tuple[int, str, int]]) -> int:
        added = 0
        for tenant_id, memory_type, count in rows:
            self.by_tenant_type[(tenant_id, memory_type)] += count
            added += count
        self.total += added
        self.batches += 1 if added else 0
        return added

    def as_dict(self) -> dict[str, Any]:
        """Figures for the job's record: totals, per tenant (slug) and per memory type."""
        slugs = dict(
            Tenant.objects.filter(pk__in={tenant for tenant, _ in self.by_tenant_type}).values_list(
                "pk", "slug"
            )
        )
        by_tenant: Counter = Counter()
        by_type: Counter = Counter()
        for (tenant_id, memory_type), count in self.by_tenant_type.items():
            by_tenant[slugs.get(tenant_id, str(tenant_id))] += count
            by_type[memory_type] += count
        return {
            self.action: self.total,
            "batches": self.batches,
            "by_tenant": dict(sorted(by_tenant.items())),
            "by_type": dict(sorted(by_type.items())),
        }


def _archive_batch(
    *,
    column: str,
    now: datetime,
    limit: int,
    tenant_ids: list[int] | None,
    after: datetime | None,
) -> tuple[list[tuple[int, str, int]], datetime | None]:
    """Archive up to `limit` active rows due on `column`; counts per tenant and type, and
    the latest due time archived (the next batch starts there, past the index entries
    this batch left dead)."""
    if connection.vendor != "postgresql":
        rows = _portable_batch(
            column=column, now=now, limit=limit, tenant_ids=tenant_ids, archive=True
        )
        return rows, None
    filters = f"status = %s AND {column} <= %s"
    params: list[Any] = [MemoryStatus.ACTIVE, now]
    if after is not None:
        filters += f" AND {column} >= %s"
        params.append(after)
    if tenant_ids is not None:
        filters += " AND tenant_id = ANY(%s)"
        params.append(tenant_ids)
    params += [limit, MemoryStatus.ARCHIVED, now]
    # One statement per batch: pick the due rows off the partial index in due order,
    # skip rows another transaction holds, archive them, count what changed. Only our
    # own table and column names are interpolated.
    sql = (
        f"WITH due AS (SELECT id FROM {_TABLE} WHERE {filters} "  # noqa: S608
        f"ORDER BY {column} LIMIT %s FOR NO KEY UPDATE SKIP LOCKED), "
        f"changed AS (UPDATE {_TABLE} AS m SET status = %s, version = m.version + 1, "
        f"updated_at = %s FROM due WHERE m.id = due.id "
        f"RETURNING m.tenant_id, m.memory_type, m.{column} AS due_at) "
        "SELECT tenant_id, memory_type, COUNT(*), MAX(due_at) FROM changed GROUP BY 1, 2"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    latest = max((row[3] for row in fetched), default=None)
    return [(row[0], row[1], row[2]) for row in fetched], latest


def _delete_batch(
    *,
    column: str,
    now: datetime,
    limit: int,
    tenant_ids: list[int] | None,
    after: datetime | None,
) -> tuple[list[tuple[int, str, int]], datetime | None]:
    """Hard-delete up to `limit` active rows due on `column` (with their history)."""
    rows = _portable_batch(
        column=column, now=now, limit=limit, tenant_ids=tenant_ids, archive=False
    )
    return rows, None


def _portable_batch(
    *, column: str, now: datetime, limit: int, tenant_ids: list[int] | None, archive: bool
) -> list[tuple[int, str, int]]:
    queryset = MemoryItem.objects.filter(status=MemoryStatus.ACTIVE, **{f"{column}__lte": now})
    if tenant_ids is not None:
        queryset = queryset.filter(tenant_id__in=tenant_ids)
    queryset = queryset.order_by(column)
    if connection.vendor == "postgresql":
        queryset = queryset.select_for_update(skip_locked=True, of=("self",))
    rows = list(queryset.values_list("pk", "tenant_id", "memory_type")[:limit])
    ids = [pk for pk, _, _ in rows]
    if archive:
        MemoryItem.objects.filter(pk__in=ids).update(
            status=MemoryStatus.ARCHIVED, version=F("version") + 1, updated_at=now
        )
    elif ids:
        delete_items(item_ids=ids)
    counted = Counter((tenant_id, memory_type) for _, tenant_id, memory_type in rows)
    return [(tenant_id, memory_type, n) for (tenant_id, memory_type), n in counted.items()]


def _audit_batch(
    *,
    actor: Actor,
    action: Action,
    rows: list[tuple[int, str, int]],
    due_before: datetime,
    policy: str,
) -> None:
    by_tenant: Counter = Counter()
    by_type: Counter = Counter()
    for tenant_id, memory_type, count in rows:
        by_tenant[str(tenant_id)] += count
        by_type[memory_type] += count
    data: dict[str, Any] = {
        "count": sum(by_tenant.values()),
        "policy": policy,
        "due_before": due_before.isoformat(),
        "by_type": dict(by_type),
        "tenants": len(by_tenant),
    }
    if len(by_tenant) <= _MAX_TENANTS_IN_EVENT:
        data["by_tenant"] = dict(by_tenant)
    only_tenant = next(iter(by_tenant)) if len(by_tenant) == 1 else None
    record(
        actor=actor, action=action, target_type="memory.memoryitem", tenant=only_tenant, data=data
    )


def _sweep(
    *,
    column: str,
    action: Action,
    statement: str,
    counts: SweepCounts,
    actor: Actor,
    now: datetime,
    batch_size: int,
    tenant_ids: list[int] | None,
    on_batch: Callable[[SweepCounts], None] | None,
) -> None:
    claim = _archive_batch if statement == "archive" else _delete_batch
    after: datetime | None = None
    while True:
        # The chain's lock first, then rows (skipping locked ones): the one lock order.
        with audited_change():
            rows, after = claim(
                column=column, now=now, limit=batch_size, tenant_ids=tenant_ids, after=after
            )
            if rows:
                _audit_batch(
                    actor=actor, action=action, rows=rows, due_before=now, policy=statement
                )
        added = counts.add(rows)
        if on_batch and added:
            on_batch(counts)
        if added < batch_size:
            return


def archive_due_items(
    *,
    actor: Actor = "decay",
    now: datetime | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_batch: Callable[[SweepCounts], None] | None = None,
) -> SweepCounts:
    """Archive active items whose decayed score has crossed the threshold (archive_due_at
    passed): they leave recall, stay readable, and an operator can restore them."""
    counts = SweepCounts(action="archived")
    _sweep(
        column="archive_due_at",
        action=Action.MEMORY_ARCHIVED,
        statement="archive",
        counts=counts,
        actor=actor,
        now=now or timezone.now(),
        batch_size=batch_size,
        tenant_ids=None,
        on_batch=on_batch,
    )
    return counts


def expire_items(
    *,
    actor: Actor = "expiry",
    now: datetime | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_batch: Callable[[SweepCounts], None] | None = None,
) -> tuple[SweepCounts, SweepCounts]:
    """End active items past `expires_at`: archived, or deleted where the tenant's expiry
    policy says so. Returns (archived, deleted)."""
    now = now or timezone.now()
    deleting = list(
        Tenant.objects.filter(expiry_policy=ExpiryPolicy.DELETE).values_list("pk", flat=True)
    )
    keeping = list(Tenant.objects.exclude(pk__in=deleting).values_list("pk", flat=True))
    archived = SweepCounts(action="archived")
    deleted = SweepCounts(action="deleted")
    if keeping:
        _sweep(
            column="expires_at",
            action=Action.MEMORY_EXPIRED,
            statement="archive",
            counts=archived,
            actor=actor,
            now=now,
            batch_size=batch_size,
            tenant_ids=keeping,
            on_batch=on_batch,
        )
    if deleting:
        _sweep(
            column="expires_at",
            action=Action.MEMORY_EXPIRED,
            statement="delete",
            counts=deleted,
            actor=actor,
            now=now,
            batch_size=batch_size,
            tenant_ids=deleting,
            on_batch=on_batch,
        )
    return archived, deleted


class NotArchived(ServiceError):
    """Only an archived item can be restored."""

    code = "not_archived"
    status = 409

    def __init__(self, current_status: str):
        super().__init__(f"Only archived memories can be restored; this one is {current_status}.")


def restore_item(*, item_id: Any, actor: Actor) -> MemoryItem:
    """Return an archived item to recall, as if just used: its decay starts again from now
    (else the next decay run would archive it at once) and a past expiry is cleared."""
    now = timezone.now()
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).get(pk=item_id)
        if item.status != MemoryStatus.ARCHIVED:
            raise NotArchived(item.status)
        changes: dict[str, Any] = {"status": MemoryStatus.ACTIVE, "last_access_at": now}
        if item.expires_at is not None and item.expires_at <= now:
            changes["expires_at"] = None
        restored = update_item(
            item_id=item_id, changes=changes, actor=actor, action=Action.MEMORY_RESTORED
        )
        if restored.key:
            # Another value of the same key may have become active meanwhile.
            wiring.run_hooks(wiring.current().after_edit, item_id=restored.pk, actor=actor)
            restored.refresh_from_db()
    return restored
