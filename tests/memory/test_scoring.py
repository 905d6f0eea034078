"""Decay, reinforcement and archival timing behave as ARCHITECTURE §3 says."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from apps.memory.scoring import (
    compute_archive_due_at,
    effective_score,
    penalise,
    reinforce,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
importances = st.floats(min_value=0.0, max_value=1.0)
half_lives = st.floats(min_value=0.01, max_value=3650)
seconds = st.floats(min_value=0, max_value=10 * 365 * 86400)


def test_score_halves_after_one_half_life():
    score = effective_score(
        importance=0.8, half_life_days=30, last_access_at=T0, now=T0 + timedelta(days=30)
    )
    assert abs(score - 0.4) < 1e-12


@given(importances, half_lives, seconds, seconds)
def test_decay_is_monotone_between_accesses(s0, half_life, a, b):
    early, late = sorted((a, b))
    score_early = effective_score(
        importance=s0,
        half_life_days=half_life,
        last_access_at=T0,
        now=T0 + timedelta(seconds=early),
    )
    score_late = effective_score(
        importance=s0, half_life_days=half_life, last_access_at=T0, now=T0 + timedelta(seconds=late)
    )
    assert score_late <= score_early <= s0


@given(
    st.floats(min_value=0.11, max_value=1.0),
    st.floats(min_value=0.1, max_value=365),
    st.floats(min_value=0.01, max_value=0.1),
)
def test_archive_due_at_is_when_the_score_crosses_the_threshold(s0, half_life, threshold):
    due = compute_archive_due_at(
        importance=s0, half_life_days=half_life, last_access_at=T0, threshold=threshold
    )
    just_before = effective_score(
        importance=s0, half_life_days=half_life, last_access_at=T0, now=due - timedelta(seconds=1)
    )
    just_after = effective_score(
        importance=s0, half_life_days=half_life, last_access_at=T0, now=due + timedelta(seconds=1)
    )
    assert just_before >= threshold >= just_after


def test_an_item_already_below_the_threshold_is_due_at_once():
    due = compute_archive_due_at(
        importance=0.05, half_life_days=30, last_access_at=T0, threshold=0.1
    )
    assert due == T0


@given(importances, st.integers(min_value=0, max_value=10_000))
def test_reinforcement_never_exceeds_one_and_never_lowers(s0, hits):
    reinforced = reinforce(s0, hits=hits)
    assert s0 <= reinforced + 1e-12
    assert reinforced <= 1.0


@given(importances)
def test_negative_feedback_cuts_importance_sharply(s0):
    assert penalise(s0) <= s0 * 0.5 + 1e-12
    assert penalise(s0) >= 0
