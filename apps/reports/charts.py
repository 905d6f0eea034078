"""A stored report's figures shaped for the page: one chart per figure (this week beside
the week before), the week-over-week table, and flat rows for the CSV download.

Figures are aggregates only; nothing here reads memory rows.
"""

from itertools import pairwise
from typing import Any

from apps.memory.models import MemoryStatus, MemoryType
from apps.reports.models import HealthReport
from apps.reports.services.health import BAND_LABELS

Figures = dict[str, Any]

# (chart id, title, section of the figures, [(key, label)]) for the bar charts of counts.
_COUNT_CHARTS: list[tuple[str, str, str, list[tuple[str, str]]]] = [
    ("by-type", "Memories by type", "totals.by_type", list(MemoryType.choices)),
    ("by-status", "Memories by status", "totals.by_status", list(MemoryStatus.choices)),
    ("by-category", "Memories by category", "totals.by_category", [(b, b) for b in BAND_LABELS]),
    (
        "growth",
        "New memories (week over week)",
        "growth",
        [("created_this_week", "Created in the week"), ("created_previous_week", "Week before")],
    ),
    (
        "lifecycle",
        "Archived, expired, never recalled",
        "lifecycle",
        [
            ("archived", "Archived"),
            ("archived_this_week", "Archived this week"),
            ("expired", "Expired"),
            ("never_recalled", "Never recalled"),
        ],
    ),
    (
        "quality",
        "Writes, duplicates and supersessions",
        "quality",
        [("writes", "Writes"), ("duplicates", "Duplicates merged"), ("superseded", "Superseded")],
    ),
    (
        "quarantine",
        "Quarantine",
        "quarantine",
        [
            ("inflow", "Inflow"),
            ("reviewed", "Reviewed"),
            ("released", "Released"),
            ("pending", "Pending now"),
        ],
    ),
    (
        "deletion-requests",
        "Erasure requests",
        "deletion_requests",
        [
            ("open", "Open"),
            ("due_soon", "Due within 48 h"),
            ("overdue", "Overdue"),
            ("completed", "Completed"),
            ("completed_within_sla", "Completed within SLA"),
        ],
    ),
]
_RATE_CHART = (
    "rates",
    "Rates",
    [
        ("quality.duplicate_rate", "Duplicate rate"),
        ("quality.supersession_rate", "Supersession rate"),
        ("quarantine.release_rate", "Release rate (false-positive proxy)"),
    ],
)
_HOURS_CHART = (
    "review-times",
    "Hours",
    [
        ("quarantine.median_review_hours", "Median time to review"),
        ("conflicts.median_age_hours", "Median age of open conflicts"),
    ],
)


def _get(figures: Figures | None, path: str) -> Any:
    value: Any = figures or {}
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: Any) -> float | int:
    return value if _is_number(value) else 0


def chart_specs(report: HealthReport, previous: HealthReport | None) -> list[dict[str, Any]]:
    """Every chart of the report page: labels, this week's values and the week before's."""
    this, last = report.figures, previous.figures if previous else None
    specs = []

    def add(chart_id: str, title: str, labels: list[str], paths: list[str], **extra):
        specs.append(
            {
                "id": chart_id,
                "title": title,
                "labels": labels,
                "this": [_number(_get(this, p)) for p in paths],
                "previous": [_number(_get(last, p)) for p in paths] if last else None,
                **extra,
            }
        )

    if report.is_installation:
        tenants = sorted(_get(this, "totals.by_tenant") or {})
        add("by-tenant", "Memories by tenant", tenants, [f"totals.by_tenant.{t}" for t in tenants])
    for chart_id, title, section, keys in _COUNT_CHARTS:
        if section == "deletion_requests" and not _get(this, "deletion_requests.available"):
            continue
        add(chart_id, title, [label for _, label in keys], [f"{section}.{k}" for k, _ in keys])
    edges = _get(this, "score_histogram.edges") or []
    histogram_labels = [f"{low:.1f}–{high:.1f}" for low, high in pairwise(edges)]
    specs.append(
        {
            "id": "score-histogram",
            "title": "Effective score S(t) of active memories",
            "labels": histogram_labels,
            "this": _get(this, "score_histogram.counts") or [],
            "previous": _get(last, "score_histogram.counts") if last else None,
        }
    )
    for chart_id, title, keys in (_RATE_CHART, _HOURS_CHART):
        add(chart_id, title, [label for _, label in keys], [path for path, _ in keys])
    anomalies = ["write_bursts", "key_fanout", "source_shifts"]
    specs.append(
        {
            "id": "anomalies",
            "title": "Anomalies",
            "labels": ["Write bursts", "Keys touching many subjects", "Scopes with new sources"],
            "this": [len(_get(this, f"anomalies.{name}") or []) for name in anomalies],
            "previous": (
                [len(_get(last, f"anomalies.{name}") or []) for name in anomalies] if last else None
            ),
        }
    )
    return specs


def comparison_rows(report: HealthReport, previous: HealthReport | None) -> list[dict[str, Any]]:
    """The week-over-week table: each headline figure now, a week before, and the change."""
    rows = []
    for path, label in HEADLINE_FIGURES:
        now_value = _get(report.figures, path)
        before = _get(previous.figures, path) if previous else None
        change = None
        if _is_number(now_value) and _is_number(before):
            change = round(now_value - before, 4)
        rows.append(
            {"label": label, "path": path, "this": now_value, "previous": before, "change": change}
        )
    return rows


HEADLINE_FIGURES = [
    ("totals.items", "Memories"),
    ("totals.by_status.active", "Active"),
    ("growth.created_this_week", "Created in the week"),
    ("lifecycle.archived", "Archived"),
    ("lifecycle.expired", "Expired"),
    ("lifecycle.never_recalled", "Never recalled"),
    ("quality.duplicate_rate", "Duplicate rate"),
    ("quality.supersession_rate", "Supersession rate"),
    ("quarantine.inflow", "Quarantine inflow"),
    ("quarantine.reviewed", "Quarantine reviewed"),
    ("quarantine.median_review_hours", "Median hours to review"),
    ("quarantine.release_rate", "Release rate"),
    ("conflicts.open", "Open conflicts"),
    ("conflicts.median_age_hours", "Median age of open conflicts (h)"),
    ("deletion_requests.open", "Erasure requests open"),
    ("deletion_requests.overdue", "Erasure requests overdue"),
    ("chain.ok", "Audit chain intact"),
]


def flat_rows(figures: Figures, prefix: str = "") -> list[tuple[str, Any]]:
    """Every figure as (dotted name, value) rows: the CSV download."""
    rows: list[tuple[str, Any]] = []
    for key in sorted(figures):
        value = figures[key]
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            rows += flat_rows(value, f"{name}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for index, entry in enumerate(value):
                rows += flat_rows(entry, f"{name}.{index}.")
        elif isinstance(value, list):
            rows += [(f"{name}.{index}", entry) for index, entry in enumerate(value)]
        else:
            rows.append((name, value))
    return rows
