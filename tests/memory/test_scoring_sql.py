"""The SQL form of the scoring formulas (one UPDATE per recall) agrees with the Python one.

apps.memory.scoring holds `reinforce` and `compute_archive_due_at` in Python and
`reinforcement_updates` in SQL, side by side; these tests run the SQL on the real
database over a range of inputs and compare.
"""

from datetime import UTC, datetime

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.memory.models import MemoryItem
from apps.memory.scoring import compute_archive_due_at, reinforce, reinforcement_updates
from tests.factories import MemoryItemFactory

pytestmark = pytest.mark.django_db

ACCESSED_AT = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def item(tenant_a):
    return MemoryItemFactory(scope__tenant=tenant_a, access_count=3)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the SQL runs on PostgreSQL")
@given(
    importance=st.floats(min_value=0.0, max_value=1.0),
    half_life_days=st.floats(min_value=0.001, max_value=36_500.0),
    threshold=st.floats(min_value=0.001, max_value=0.99),
)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_sql_and_python_reinforcement_agree_over_a_range_of_inputs(
    item, importance, half_life_days, threshold
):
    rows = MemoryItem.objects.filter(pk=item.pk)
    rows.update(importance=importance, half_life_days=half_life_days, access_count=3)
    rows.update(**reinforcement_updates(accessed_at=ACCESSED_AT, threshold=threshold))
    stored = rows.values("importance", "archive_due_at", "last_access_at", "access_count").get()

    expected_importance = reinforce(importance)
    expected_due = compute_archive_due_at(
        importance=expected_importance,
        half_life_days=half_life_days,
        last_access_at=ACCESSED_AT,
        threshold=threshold,
    )
    assert stored["importance"] == pytest.approx(expected_importance, abs=1e-12)
    assert stored["last_access_at"] == ACCESSED_AT
    assert stored["access_count"] == 4
    # Days as a float interval in SQL, a timedelta in Python: equal to well under a second
    # (the furthest due dates lie centuries ahead).
    assert abs((stored["archive_due_at"] - expected_due).total_seconds()) < 1.0
