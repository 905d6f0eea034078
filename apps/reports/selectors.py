"""Aggregate figures for the dashboard and reports: counts, never content.

The dashboard must not count millions of rows on every page view. Counts per tenant
and status come from one GROUP BY; on a large PostgreSQL table (the planner's
estimate above LARGE_TABLE_ROWS) that GROUP BY runs at most once per
SUMMARY_TTL_SECONDS for the whole installation and is served from the cache, and the
page says how old the figures are. Users whose grant covers only some scopes of a
tenant always get exact counts restricted to those scopes (an indexed, small query),
so a cached tenant-wide figure never reaches someone who may not see the whole tenant.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from apps.access.selectors import filter_by_grant, tenants_visible_to
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.selectors import scopes_visible_to
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm

# Either permission lets a user see a tenant's figures (analysts hold only view_reports).
FIGURE_PERMS = (Perm.VIEW_MEMORIES, Perm.VIEW_REPORTS)
LARGE_TABLE_ROWS = 200_000
SUMMARY_TTL_SECONDS = 300
SUMMARY_CACHE_KEY = "reports:tenant-status-counts:v1"


@dataclass
class TenantFigures:
    """Memories per status in one tenant (or in the scopes of it the user may see)."""

    tenant: Tenant | None
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MemoryStatus.values, 0))
    partial: bool = False  # only some scopes of the tenant are visible to the user

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def cells(self) -> list[int]:
        """Counts in MemoryStatus order, for the table's columns."""
        return [self.counts.get(status, 0) for status in MemoryStatus.values]


@dataclass
class Dashboard:
    rows: list[TenantFigures]
    totals: TenantFigures
    as_of: datetime | None  # set when the figures come from the periodic summary


def estimated_item_rows() -> int:
    """The planner's row estimate for the items table (PostgreSQL), never a COUNT."""
    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = %s::regclass",
            [MemoryItem._meta.db_table],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def _group_counts(queryset: QuerySet[MemoryItem]) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = {}
    for entry in queryset.values("tenant_id", "status").annotate(n=Count("pk")).order_by():
        counts.setdefault(entry["tenant_id"], {})[entry["status"]] = entry["n"]
    return counts


def refresh_installation_summary() -> tuple[dict[int, dict[str, int]], datetime]:
    """Recount every tenant's memories per status (one GROUP BY) and cache the result."""
    summary = (_group_counts(MemoryItem.objects.all()), timezone.now())
    cache.set(SUMMARY_CACHE_KEY, summary, SUMMARY_TTL_SECONDS)
    return summary


def installation_summary() -> tuple[dict[int, dict[str, int]], datetime]:
    """Counts per tenant and status for every tenant, refreshed every SUMMARY_TTL_SECONDS.

    The first page view after expiry pays for the recount unless a periodic
    `refresh_dashboard_summary_task` keeps the cache warm.
    """
    return cache.get(SUMMARY_CACHE_KEY) or refresh_installation_summary()


def _whole_tenant_ids(user) -> set[int]:
    """Tenants on which the user holds a figure permission for the whole tenant."""
    ids: set[int] = set()
    for perm in FIGURE_PERMS:
        granted = filter_by_grant(
            Tenant.objects.all(), user, perm, tenant_field="pk", scope_field=None
        )
        ids |= set(granted.values_list("pk", flat=True))
    return ids


def memory_counts_by_tenant(user) -> Dashboard:
    """Memories per status per tenant, for the tenants the user may see, plus totals."""
    visible = Q(pk__in=[])
    for perm in FIGURE_PERMS:
        visible |= Q(pk__in=tenants_visible_to(user, perm).values("pk"))
    tenants = {t.pk: t for t in Tenant.objects.filter(visible).only("slug", "name")}
    whole = _whole_tenant_ids(user) & tenants.keys()
    partial = tenants.keys() - whole
    counts: dict[int, dict[str, int]] = {}
    as_of = None
    if whole:
        if estimated_item_rows() > LARGE_TABLE_ROWS:
            summary, as_of = installation_summary()
            counts.update({pk: summary.get(pk, {}) for pk in whole})
        else:
            counts.update(_group_counts(MemoryItem.objects.filter(tenant_id__in=whole)))
    if partial:
        scopes = Q(pk__in=[])
        for perm in FIGURE_PERMS:
            scopes |= Q(scope__in=scopes_visible_to(user, perm).values("pk"))
        counts.update(_group_counts(MemoryItem.objects.filter(scopes, tenant_id__in=partial)))
    rows = []
    totals = TenantFigures(tenant=None)
    for pk, tenant in sorted(tenants.items(), key=lambda entry: entry[1].slug):
        row = TenantFigures(tenant=tenant, partial=pk in partial)
        for status, n in counts.get(pk, {}).items():
            row.counts[status] = row.counts.get(status, 0) + n
            totals.counts[status] = totals.counts.get(status, 0) + n
        rows.append(row)
    return Dashboard(rows=rows, totals=totals, as_of=as_of)


def pending_items_without_open_review() -> QuerySet[MemoryItem]:
    """Items waiting for review that no queue shows: out of recall and out of review.

    The invariant (ARCHITECTURE §4): a `pending_review` item is the incoming side of an
    open conflict, a `quarantined` item has a pending or escalated quarantine entry.
    Two anti-joins over indexed foreign keys; the weekly check and the tests read this.
    """
    from apps.conflicts.models import Conflict, ConflictStatus
    from apps.quarantine.models import QuarantineEntry
    from apps.quarantine.services import OPEN_STATUSES

    open_conflicts = Conflict.objects.filter(status=ConflictStatus.OPEN)
    open_entries = QuarantineEntry.objects.filter(status__in=OPEN_STATUSES)
    stranded_pending = Q(status=MemoryStatus.PENDING_REVIEW) & ~Q(
        pk__in=open_conflicts.filter(incoming_item__isnull=False).values("incoming_item_id")
    )
    stranded_held = Q(status=MemoryStatus.QUARANTINED) & ~Q(
        pk__in=open_entries.filter(item__isnull=False).values("item_id")
    )
    return MemoryItem.objects.filter(stranded_pending | stranded_held)
