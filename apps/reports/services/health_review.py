"""The weekly health report's review figures: quarantine inflow and review times, open
conflicts and their age, deletion requests against their SLA (medians in the database)."""

from collections import Counter, defaultdict
from datetime import datetime
from typing import Any

from django.apps import apps as django_apps
from django.db import connection
from django.db.models import (
    Aggregate,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    FloatField,
    Q,
    Value,
)
from django.db.models.functions import Extract

from apps.conflicts.models import Conflict, ConflictStatus
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.reports.services.health_period import (
    ALL,
    DELETION_REQUEST_MODEL,
    DUE_SOON,
    SLA_WATCHED_STATUSES,
    Figures,
    Period,
    _by_tenant,
)

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
