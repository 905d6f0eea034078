"""The weekly health report's figures, computed with aggregate SQL (GROUP BY per figure,
grouped by tenant), never by walking rows in Python: the cost follows the number of
tenants and buckets, not the items. Each report holds aggregates only — counts, rates,
histograms, API-key prefixes and scope ids — never memory content or subjects.

The figures live in health_memory (items, quality, anomalies) and health_review
(quarantine, conflicts, deletion requests); this module assembles them and keeps the public
names importable from here.
"""

from typing import Any

from apps.reports.services.health_memory import (
    _anomalies,
    _audit_flows,
    _growth_and_lifecycle,
    _quality,
    _score_histogram,
    _totals,
)
from apps.reports.services.health_period import (
    ALL,
    BAND_LABELS,
    DELETION_REQUEST_MODEL,
    DUE_SOON,
    HISTOGRAM_BUCKETS,
    SLA_WATCHED_STATUSES,
    Figures,
    Period,
    _rate,
    period_for,
)
from apps.reports.services.health_review import _conflicts, _deletion_requests, _quarantine
from apps.tenancy.models import Tenant

__all__ = [
    "ALL",
    "BAND_LABELS",
    "DELETION_REQUEST_MODEL",
    "DUE_SOON",
    "HISTOGRAM_BUCKETS",
    "SLA_WATCHED_STATUSES",
    "Figures",
    "Period",
    "compute_figures",
    "period_for",
]


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
