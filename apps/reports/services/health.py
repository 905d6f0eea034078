"""The weekly health report's figures, computed with aggregate SQL (GROUP BY per figure,
grouped by tenant), never by walking rows in Python: the cost follows the number of
tenants and buckets, not the items. Each report holds aggregates only — counts, rates,
histograms, API-key prefixes and scope ids — never memory content or subjects.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps as django_apps
from django.conf import settings
from django.db import connection
from django.db.models import (
    Aggregate,
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    FloatField,
    OuterRef,
    Q,
    Value,
)
from django.db.models.functions import Extract, TruncHour

from apps.audit.models import Action, AuditEvent
from apps.conflicts.models import Conflict, ConflictStatus
from apps.memory.models import CATEGORY_BANDS, MemoryItem, MemoryStatus, MemoryType
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.tenancy.models import Tenant

HISTOGRAM_BUCKETS = 10
DUE_SOON = timedelta(hours=48)
# Deletion requests whose SLA clock runs (a legal hold stops it).
SLA_WATCHED_STATUSES = ("received", "verified", "approved", "executing")
# apps.privacy's model, looked up at run time: the reports work before privacy is installed.
DELETION_REQUEST_MODEL: tuple[str, str] = ("privacy", "DeletionRequest")
BAND_LABELS = [label for _, _, label in CATEGORY_BANDS]

Figures = dict[str, Any]
ALL = None  # the installation's key in per-tenant maps


@dataclass(frozen=True)
class Period:
    """The week a report covers: [start, end), end being the run's time within that week."""

    week_start: date
    start: datetime
    end: datetime

    @property
    def previous_start(self) -> datetime:
        return self.start - timedelta(days=7)


def period_for(now: datetime) -> Period:
    """The ISO week of (now − 1 day): Monday's 03:00 run reports the week just ended; a run
    later in the week reports the week so far (rebuilt by the Monday run)."""
    anchor = (now - timedelta(days=1)).date()
    week_start = anchor - timedelta(days=anchor.weekday())
    start = datetime.combine(week_start, time.min, tzinfo=now.tzinfo)
    return Period(week_start=week_start, start=start, end=min(now, start + timedelta(days=7)))


def _by_tenant(rows, value: str = "n") -> dict[Any, int]:
    """{tenant_id: n} plus the installation's sum under ALL."""
    result: dict[Any, int] = Counter()
    for row in rows:
        result[row["tenant_id"]] += row[value]
        result[ALL] += row[value]
    return result


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


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


# --- medians ----------------------------------------------------------------------------


class Median(Aggregate):
    """PostgreSQL's median (an ordered-set aggregate)."""

    function = "percentile_cont"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else round(float(seconds) / 3600, 2)


def _median_hours(queryset, *, since: str, until: str | datetime) -> dict[Any, float | None]:
    """Median of (until − since) in hours per tenant and overall, in the database."""
    if connection.vendor == "postgresql":
        end = F(until) if isinstance(until, str) else Value(until)
        took = ExpressionWrapper(end - F(since), output_field=DurationField())
        median = Median(Extract(took, "epoch"))
        grouped = queryset.order_by().values("tenant_id").annotate(seconds=median)
        result: dict[Any, float | None] = {
            row["tenant_id"]: _hours(row["seconds"]) for row in grouped
        }
        result[ALL] = _hours(queryset.order_by().aggregate(seconds=median)["seconds"])
        return result
    # SQLite: the middle row(s) of each group, ordered in the database (two rows read).
    result = {}
    tenants = list(queryset.order_by().values_list("tenant_id", flat=True).distinct())
    for key in [*tenants, ALL]:
        rows = queryset if key is ALL else queryset.filter(tenant_id=key)
        n = rows.count()
        if not n:
            continue
        if isinstance(until, datetime):
            ordered = rows.order_by(f"-{since}").values_list(since, flat=True)
            middle = [
                (until - moment).total_seconds() for moment in ordered[(n - 1) // 2 : n // 2 + 1]
            ]
        else:
            ordered = rows.annotate(took=F(until) - F(since)).order_by("took")
            middle = [
                took.total_seconds()
                for took in ordered.values_list("took", flat=True)[(n - 1) // 2 : n // 2 + 1]
            ]
        result[key] = _hours(sum(middle) / len(middle))
    return result


# --- quarantine, conflicts, deletion requests -------------------------------------------


def _quarantine(period: Period) -> tuple[dict[Any, Counter], dict[Any, float | None]]:
    reviewed = Q(
        decided_at__gte=period.start,
        decided_at__lt=period.end,
        status__in=[EntryStatus.RELEASED, EntryStatus.REJECTED],
    )
    rows = (
        QuarantineEntry.objects.values("tenant_id")
        .annotate(
            inflow=Count("pk", filter=Q(created_at__gte=period.start, created_at__lt=period.end)),
            reviewed=Count("pk", filter=reviewed),
            released=Count("pk", filter=reviewed & Q(status=EntryStatus.RELEASED)),
            pending=Count("pk", filter=Q(status=EntryStatus.PENDING, created_at__lt=period.end)),
        )
        .order_by()
    )
    counts: dict[Any, Counter] = defaultdict(Counter)
    for row in rows:
        figures = {name: value for name, value in row.items() if name != "tenant_id"}
        counts[row["tenant_id"]].update(figures)
        counts[ALL].update(figures)
    medians = _median_hours(
        QuarantineEntry.objects.filter(reviewed), since="created_at", until="decided_at"
    )
    return counts, medians


def _conflicts(period: Period) -> tuple[dict[Any, int], dict[Any, float | None]]:
    # Open now and already open at the period's end (a rebuilt past week ignores newer ones).
    open_conflicts = Conflict.objects.filter(status=ConflictStatus.OPEN, created_at__lt=period.end)
    counts = _by_tenant(open_conflicts.values("tenant_id").annotate(n=Count("pk")).order_by())
    medians = _median_hours(open_conflicts, since="created_at", until=period.end)
    return counts, medians


def _deletion_requests(period: Period) -> dict[Any, Figures] | None:
    """Open, due soon, overdue and completed (within SLA) requests; None without privacy."""
    if not django_apps.is_installed("apps.privacy"):
        return None
    DeletionRequest = django_apps.get_model(*DELETION_REQUEST_MODEL)
    now = period.end
    watched = Q(status__in=SLA_WATCHED_STATUSES)
    completed = Q(status="completed", completed_at__gte=period.start, completed_at__lt=period.end)
    rows = (
        DeletionRequest.objects.filter(received_at__lt=period.end)
        .values("tenant_id")
        .annotate(
            open=Count("pk", filter=watched | Q(status="on_hold")),
            due_soon=Count("pk", filter=watched & Q(due_at__gte=now, due_at__lt=now + DUE_SOON)),
            overdue=Count("pk", filter=watched & Q(due_at__lt=now)),
            completed=Count("pk", filter=completed),
            completed_within_sla=Count("pk", filter=completed & Q(completed_at__lte=F("due_at"))),
        )
        .order_by()
    )
    result: dict[Any, Figures] = defaultdict(Counter)
    for row in rows:
        figures = {name: value for name, value in row.items() if name != "tenant_id"}
        result[row["tenant_id"]].update(figures)
        result[ALL].update(figures)
    return result


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


# --- assembling -------------------------------------------------------------------------


def compute_figures(period: Period, *, chain: Figures) -> dict[Any, Figures]:
    """Every figure of the report, per tenant id and for the installation (key None)."""
    totals = _totals(period)
    histograms = _score_histogram(period)
    lifecycle = _growth_and_lifecycle(period)
    flows = _audit_flows(period)
    quarantine, review_medians = _quarantine(period)
    open_conflicts, conflict_ages = _conflicts(period)
    requests = _deletion_requests(period)
    anomalies = _anomalies(period)
    keys = [*Tenant.objects.values_list("pk", flat=True), ALL]
    reports: dict[Any, Figures] = {}
    for key in keys:
        life = lifecycle[key]
        created, previous = life["created_this_week"], life["created_previous_week"]
        q = quarantine[key]
        figures: Figures = {
            "totals": totals[key],
            "score_histogram": {
                "edges": [round(n / HISTOGRAM_BUCKETS, 2) for n in range(HISTOGRAM_BUCKETS + 1)],
                "counts": histograms[key],
            },
            "growth": {
                "created_this_week": created,
                "created_previous_week": previous,
                "change": _rate(created - previous, previous),
            },
            "lifecycle": {
                "archived": life["archived"],
                "expired": life["expired"],
                "never_recalled": life["never_recalled"],
                "archived_this_week": life["archived_this_week"],
            },
            "quality": _quality(flows[key]),
            "quarantine": {
                "inflow": q["inflow"],
                "reviewed": q["reviewed"],
                "released": q["released"],
                "pending": q["pending"],
                "median_review_hours": review_medians.get(key),
                "release_rate": _rate(q["released"], q["reviewed"]),
            },
            "conflicts": {
                "open": open_conflicts.get(key, 0),
                "median_age_hours": conflict_ages.get(key),
            },
            "deletion_requests": (
                {
                    "available": True,
                    **{
                        name: requests[key][name]
                        for name in (
                            "open",
                            "due_soon",
                            "overdue",
                            "completed",
                            "completed_within_sla",
                        )
                    },
                }
                if requests is not None
                else {"available": False}
            ),
            "anomalies": anomalies[key],
            "chain": chain,
        }
        reports[key] = figures
    return reports
