"""Importance decay, reinforcement and archival timing (ARCHITECTURE §3), in one place.

S(t) = S0 · 0.5 ^ (Δt / T½) with Δt measured from the last access. Because S(t) is
monotone between accesses, the instant it crosses the archive threshold is known when
an item is written or accessed, so it is stored (`archive_due_at`) and archival is a
range scan over rows that are actually due.

`reinforce` and `compute_archive_due_at` also exist as SQL (`reinforcement_updates`),
for the one set-based UPDATE that records a recall's hits; they sit side by side here,
and tests/memory/test_scoring_sql.py checks on PostgreSQL that both agree.
"""

import math
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    DateTimeField,
    DurationField,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    Value,
    When,
)
from django.db.models.functions import Ln
from django.db.models.lookups import GreaterThan

SECONDS_PER_DAY = 86_400.0
DEFAULT_HALF_LIVES = {"working": 7.0, "episodic": 30.0, "semantic": 30.0, "procedural": 120.0}
# Category bands that carry their own default half-life (decision preferences vs. rules).
DEFAULT_CATEGORY_HALF_LIVES = {(40, 59): 7.0, (60, 79): 30.0, (80, 99): 120.0}
REINFORCEMENT_STEP = 0.1
NEGATIVE_FEEDBACK_FACTOR = 0.3


def effective_score(
    *, importance: float, half_life_days: float, last_access_at: datetime, now: datetime
) -> float:
    """Return S(t): the importance decayed by the time since the last access."""
    elapsed_days = max((now - last_access_at).total_seconds(), 0.0) / SECONDS_PER_DAY
    return importance * 0.5 ** (elapsed_days / half_life_days)


def reinforce(importance: float, *, hits: int = 1, step: float = REINFORCEMENT_STEP) -> float:
    """Nudge S0 towards 1 for each recall hit; never exceeds 1."""
    remaining = (1.0 - min(max(importance, 0.0), 1.0)) * (1.0 - step) ** max(hits, 0)
    return min(1.0, 1.0 - remaining)


def penalise(importance: float, *, factor: float = NEGATIVE_FEEDBACK_FACTOR) -> float:
    """Cut S0 sharply after negative feedback."""
    return max(0.0, importance * factor)


def compute_archive_due_at(
    *, importance: float, half_life_days: float, last_access_at: datetime, threshold: float
) -> datetime:
    """Return the instant S(t) falls below the threshold: last access + T½ · log2(S0 / θ)."""
    if importance <= threshold:
        return last_access_at
    days = half_life_days * math.log2(importance / threshold)
    return last_access_at + timedelta(days=days)


def default_half_life(
    *, memory_type: str, category: int, overrides: dict[str, float] | None = None
) -> float:
    """Pick the half-life for a new item: tenant override, then category band, then type."""
    overrides = overrides or {}
    for low, high in DEFAULT_CATEGORY_HALF_LIVES:
        band = f"{low}-{high}"
        if low <= category <= high and band in overrides:
            return float(overrides[band])
    if memory_type in overrides:
        return float(overrides[memory_type])
    for (low, high), days in DEFAULT_CATEGORY_HALF_LIVES.items():
        if low <= category <= high:
            return days
    return DEFAULT_HALF_LIVES.get(memory_type, 30.0)


class _DaysAsDuration(Func):
    """A number of days (float expression) as a duration the database can add to a time."""

    output_field = DurationField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"(({sql}) * INTERVAL '1 day')", params

    def as_sql(self, compiler, connection, **extra_context):
        # Elsewhere durations are stored as integer microseconds.
        sql, params = compiler.compile(self.source_expressions[0])
        return f"CAST(({sql}) * 86400000000 AS INTEGER)", params


def reinforcement_updates(*, accessed_at: datetime, threshold: float) -> dict[str, Any]:
    """The UPDATE … SET expressions for one recall hit: `reinforce` and
    `compute_archive_due_at` above, in SQL.

    importance = 1 − (1 − S0)·(1 − step); archive_due_at = accessed_at + T½ · log2(S0' / θ)
    days (or accessed_at when S0' ≤ θ). Both read the row's old values, as SQL SET does.
    """
    new_importance = ExpressionWrapper(
        Value(1.0) - (Value(1.0) - F("importance")) * Value(1.0 - REINFORCEMENT_STEP),
        output_field=FloatField(),
    )
    days_until_due = ExpressionWrapper(
        F("half_life_days") * Ln(new_importance / Value(threshold)) / Value(math.log(2)),
        output_field=FloatField(),
    )
    accessed = Value(accessed_at, output_field=DateTimeField())
    return {
        "last_access_at": accessed,
        "access_count": F("access_count") + 1,
        "importance": new_importance,
        "archive_due_at": Case(
            When(
                GreaterThan(new_importance, Value(threshold)),
                then=ExpressionWrapper(
                    accessed + _DaysAsDuration(days_until_due), output_field=DateTimeField()
                ),
            ),
            default=accessed,
            output_field=DateTimeField(),
        ),
    }
