"""The weekly health report's memory figures: totals, score histogram, growth and
lifecycle, write quality from the audit flows, and write anomalies (one GROUP BY each)."""

from collections import Counter, defaultdict
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Q
from django.db.models.functions import TruncHour

from apps.audit.models import Action, AuditEvent
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.reports.services.health_period import (
    ALL,
    BAND_LABELS,
    HISTOGRAM_BUCKETS,
    Figures,
    Period,
    _rate,
)
from apps.tenancy.models import Tenant

# --- items ------------------------------------------------------------------------------


def _totals(period: Period) -> dict[Any, Figures]:
    """Items per tenant by type, status and category band (one GROUP BY)."""
    rows = (
        MemoryItem.objects.filter(created_at__lt=period.end)
        .values("tenant_id", "memory_type", "status", band=F("category") / 20)
        .annotate(n=Count("pk"))
        .order_by()
    )
    slugs = dict(Tenant.objects.values_list("pk", "slug"))
    totals: dict[Any, Figures] = defaultdict(
        lambda: {
            "items": 0,
            "by_type": dict.fromkeys(MemoryType.values, 0),
            "by_status": dict.fromkeys(MemoryStatus.values, 0),
            "by_category": dict.fromkeys(BAND_LABELS, 0),
            "by_tenant": {},
        }
    )
    for row in rows:
        band = BAND_LABELS[min(int(row["band"]), len(BAND_LABELS) - 1)]
        for key in (row["tenant_id"], ALL):
            figures = totals[key]
            figures["items"] += row["n"]
            figures["by_type"][row["memory_type"]] = (
                figures["by_type"].get(row["memory_type"], 0) + row["n"]
            )
            figures["by_status"][row["status"]] = (
                figures["by_status"].get(row["status"], 0) + row["n"]
            )
            figures["by_category"][band] += row["n"]
            slug = slugs.get(row["tenant_id"], str(row["tenant_id"]))
            figures["by_tenant"][slug] = figures["by_tenant"].get(slug, 0) + row["n"]
    return totals


def _score_histogram(period: Period) -> dict[Any, list[int]]:
    """Active items per tenant in ten buckets of their effective score S(t) at period end
    (S0 · 0.5^(days since last access / half-life), computed in the database)."""
    table = MemoryItem._meta.db_table
    if connection.vendor == "postgresql":
        elapsed = "GREATEST(EXTRACT(EPOCH FROM (%s - last_access_at)) / 86400.0, 0)"
        end: Any = period.end
    else:  # SQLite: Django registers POWER and FLOOR; MAX(a, b) is its scalar maximum
        elapsed = "MAX(julianday(%s) - julianday(last_access_at), 0)"
        end = period.end.isoformat(" ")
    # Only our own table name and fixed expressions are interpolated.
    sql = (
        "SELECT tenant_id, b, COUNT(*) FROM (SELECT tenant_id, "  # noqa: S608
        f"FLOOR(importance * POWER(0.5, {elapsed} / half_life_days) * {HISTOGRAM_BUCKETS}) AS b "
        f"FROM {table} WHERE status = %s AND created_at < %s) AS scored GROUP BY tenant_id, b"
    )
    histograms: dict[Any, list[int]] = defaultdict(lambda: [0] * HISTOGRAM_BUCKETS)
    with connection.cursor() as cursor:
        cursor.execute(sql, [end, MemoryStatus.ACTIVE, period.end])
        for tenant_id, b, n in cursor.fetchall():
            index = min(max(int(b or 0), 0), HISTOGRAM_BUCKETS - 1)
            histograms[tenant_id][index] += n
            histograms[ALL][index] += n
    return histograms


def _growth_and_lifecycle(period: Period) -> dict[Any, Figures]:
    """Created this week and the week before; archived, expired and never recalled."""
    now = period.end
    rows = (
        MemoryItem.objects.filter(created_at__lt=period.end)
        .values("tenant_id")
        .annotate(
            created_this_week=Count("pk", filter=Q(created_at__gte=period.start)),
            created_previous_week=Count(
                "pk", filter=Q(created_at__gte=period.previous_start, created_at__lt=period.start)
            ),
            archived=Count("pk", filter=Q(status=MemoryStatus.ARCHIVED)),
            expired=Count("pk", filter=Q(expires_at__lte=now) & ~Q(status=MemoryStatus.ACTIVE)),
            archived_this_week=Count(
                "pk",
                filter=Q(status=MemoryStatus.ARCHIVED, updated_at__gte=period.start),
            ),
            never_recalled=Count("pk", filter=Q(status=MemoryStatus.ACTIVE, access_count=0)),
        )
        .order_by()
    )
    result: dict[Any, Figures] = defaultdict(Counter)
    for row in rows:
        figures = {name: value for name, value in row.items() if name != "tenant_id"}
        for key in (row["tenant_id"], ALL):
            result[key].update(figures)
    return result


# --- audit-derived flows ----------------------------------------------------------------

_FLOW_ACTIONS = [
    Action.MEMORY_CREATED,
    Action.MEMORY_DEDUPLICATED,
    Action.MEMORY_SUPERSEDED,
]


def _audit_flows(period: Period) -> dict[Any, Counter]:
    """Events per tenant and action in the week (writes, merges, supersessions, sweeps)."""
    rows = (
        AuditEvent.objects.filter(
            occurred_at__gte=period.start, occurred_at__lt=period.end, action__in=_FLOW_ACTIONS
        )
        .values("tenant_id", "action")
        .annotate(n=Count("pk"))
        .order_by()
    )
    flows: dict[Any, Counter] = defaultdict(Counter)
    for row in rows:
        flows[row["tenant_id"]][row["action"]] += row["n"]
        flows[ALL][row["action"]] += row["n"]
    return flows


def _quality(flows: Counter) -> Figures:
    created = flows[Action.MEMORY_CREATED]
    duplicates = flows[Action.MEMORY_DEDUPLICATED]
    superseded = flows[Action.MEMORY_SUPERSEDED]
    return {
        "writes": created + duplicates,
        "duplicates": duplicates,
        "duplicate_rate": _rate(duplicates, created + duplicates),
        "superseded": superseded,
        "supersession_rate": _rate(superseded, created),
    }


# --- anomalies --------------------------------------------------------------------------


def _anomalies(period: Period) -> dict[Any, Figures]:
    """Write bursts per API key, one key touching many subjects, scopes whose sources
    changed suddenly: each one GROUP BY that returns only the anomalous groups."""
    burst = settings.MEMORY_CONSOLE_REPORT_BURST_WRITES_PER_HOUR
    fanout = settings.MEMORY_CONSOLE_REPORT_FANOUT_SUBJECTS
    week = MemoryItem.objects.filter(created_at__gte=period.start, created_at__lt=period.end)
    keyed = week.exclude(api_key_prefix="")
    result: dict[Any, Figures] = defaultdict(
        lambda: {"write_bursts": [], "key_fanout": [], "source_shifts": []}
    )
    bursts = (
        keyed.annotate(hour=TruncHour("created_at"))
        .values("tenant_id", "api_key_prefix", "hour")
        .annotate(writes=Count("pk"))
        .filter(writes__gte=burst)
        .order_by("-writes")[:50]
    )
    for row in bursts:
        entry = {
            "api_key": row["api_key_prefix"],
            "hour": row["hour"].isoformat(),
            "writes": row["writes"],
        }
        result[row["tenant_id"]]["write_bursts"].append(entry)
        result[ALL]["write_bursts"].append(entry)
    wide = (
        keyed.exclude(scope__subject="")
        .values("tenant_id", "api_key_prefix")
        .annotate(subjects=Count("scope__subject", distinct=True), writes=Count("pk"))
        .filter(subjects__gte=fanout)
        .order_by("-subjects")[:50]
    )
    for wide_key in wide:
        entry = {
            "api_key": wide_key["api_key_prefix"],
            "subjects": wide_key["subjects"],
            "writes": wide_key["writes"],
        }
        result[wide_key["tenant_id"]]["key_fanout"].append(entry)
        result[ALL]["key_fanout"].append(entry)
    seen_before = MemoryItem.objects.filter(
        scope_id=OuterRef("scope_id"), source=OuterRef("source"), created_at__lt=period.start
    )
    had_history = MemoryItem.objects.filter(
        scope_id=OuterRef("scope_id"), created_at__lt=period.start
    )
    shifts = (
        week.annotate(new_source=~Exists(seen_before), had_history=Exists(had_history))
        .filter(had_history=True)
        .values("tenant_id", "scope_id")
        .annotate(writes=Count("pk"), new_source_writes=Count("pk", filter=Q(new_source=True)))
        .filter(
            writes__gte=settings.MEMORY_CONSOLE_REPORT_SOURCE_SHIFT_MIN_WRITES,
            new_source_writes__gt=F("writes") / 2,
        )
        .order_by("-new_source_writes")[:50]
    )
    for shift in shifts:
        entry = {
            "scope_id": shift["scope_id"],
            "writes": shift["writes"],
            "new_source_writes": shift["new_source_writes"],
        }
        result[shift["tenant_id"]]["source_shifts"].append(entry)
        result[ALL]["source_shifts"].append(entry)
    return result
