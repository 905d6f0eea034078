"""Importance decay, reinforcement and archival timing (ARCHITECTURE §3), in one place.

S(t) = S0 · 0.5 ^ (Δt / T½) with Δt measured from the last access. Because S(t) is
monotone between accesses, the instant it crosses the archive threshold is known when
an item is written or accessed, so it is stored (`archive_due_at`) and archival is a
range scan over rows that are actually due.
"""

import math
from datetime import datetime, timedelta

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
