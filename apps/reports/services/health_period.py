"""The weekly health report's shared vocabulary: the period it covers, the installation key
(ALL) in per-tenant maps, and the small helpers every figure module uses."""

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from apps.memory.models import CATEGORY_BANDS

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
