"""The dashboard: real figures per status and tenant, only for tenants the user may see."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.memory.models import MemoryStatus
from apps.reports import selectors
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def populated(tenant_a, tenant_b):
    scope_a, scope_a2 = ScopeFactory(tenant=tenant_a), ScopeFactory(tenant=tenant_a)
    MemoryItemFactory.create_batch(3, scope=scope_a)
    MemoryItemFactory.create_batch(2, scope=scope_a2, status=MemoryStatus.QUARANTINED)
    MemoryItemFactory.create_batch(4, scope=ScopeFactory(tenant=tenant_b))
    return scope_a, scope_a2


def _rows(response) -> dict[str, dict[str, int]]:
    dashboard = response.context["dashboard"]
    return {row.tenant.slug: {**row.counts, "total": row.total} for row in dashboard.rows}


def test_operator_sees_figures_of_granted_tenant_only(client, operator_a, populated):
    client.force_login(operator_a)
    response = client.get(reverse("dashboard"))
    rows = _rows(response)
    assert set(rows) == {"tenant-a"}
    assert rows["tenant-a"]["active"] == 3
    assert rows["tenant-a"]["quarantined"] == 2
    assert rows["tenant-a"]["total"] == 5
    assert b'data-tenant="tenant-b"' not in response.content


def test_admin_sees_every_tenant_and_the_totals(client, admin_user, populated):
    client.force_login(admin_user)
    response = client.get(reverse("dashboard"))
    assert {slug: row["total"] for slug, row in _rows(response).items()} == {
        "tenant-a": 5,
        "tenant-b": 4,
    }
    totals = response.context["dashboard"].totals
    assert totals.total == 9 and totals.counts["quarantined"] == 2
    assert b'id="figures-total"' in response.content


def test_analyst_sees_aggregate_figures_but_no_content(client, analyst, populated):
    client.force_login(analyst)
    response = client.get(reverse("dashboard"))
    assert {slug: row["total"] for slug, row in _rows(response).items()} == {
        "tenant-a": 5,
        "tenant-b": 4,
    }
    assert b"The user prefers option" not in response.content


def test_scope_grant_counts_only_that_scope(client, populated):
    scope_a, _ = populated
    user = UserFactory(username="scoped")
    grant_role(user=user, role=Role.OPERATOR, target=scope_a, actor="test-setup")
    client.force_login(user)
    response = client.get(reverse("dashboard"))
    assert _rows(response)["tenant-a"]["total"] == 3
    assert response.context["dashboard"].rows[0].partial


def test_outsider_sees_no_figures(client, outsider, populated):
    client.force_login(outsider)
    response = client.get(reverse("dashboard"))
    assert response.context["dashboard"].rows == []
    assert b"no grant on any tenant" in response.content


def test_large_tables_are_served_from_the_periodic_summary(
    client, admin_user, populated, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr(selectors, "LARGE_TABLE_ROWS", -1)
    client.force_login(admin_user)
    first = client.get(reverse("dashboard"))
    assert first.context["dashboard"].as_of is not None
    assert _rows(first)["tenant-a"]["total"] == 5
    MemoryItemFactory(scope=populated[0])  # not visible until the summary is refreshed
    with django_assert_max_num_queries(20) as captured:
        second = client.get(reverse("dashboard"))
    assert _rows(second)["tenant-a"]["total"] == 5
    grouped = [q for q in captured.captured_queries if "GROUP BY" in q["sql"].upper()]
    assert not [q for q in grouped if "memory_memoryitem" in q["sql"]]


def test_scope_grant_gets_exact_figures_even_from_the_summary(client, populated, monkeypatch):
    monkeypatch.setattr(selectors, "LARGE_TABLE_ROWS", -1)
    scope_a, _ = populated
    user = UserFactory(username="scoped")
    grant_role(user=user, role=Role.OPERATOR, target=scope_a, actor="test-setup")
    client.force_login(user)
    assert _rows(client.get(reverse("dashboard")))["tenant-a"]["total"] == 3


def test_dashboard_query_count_does_not_grow_with_tenants_or_rows(
    client, officer, populated, tenant_a, django_assert_max_num_queries
):
    client.force_login(officer)
    with django_assert_max_num_queries(20) as baseline:
        client.get(reverse("dashboard"))
    MemoryItemFactory.create_batch(30, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(len(baseline.captured_queries)):
        client.get(reverse("dashboard"))


def test_refresh_task_warms_the_summary_the_dashboard_serves(
    client, admin_user, populated, monkeypatch
):
    from apps.reports.tasks import refresh_dashboard_summary_task

    monkeypatch.setattr(selectors, "LARGE_TABLE_ROWS", -1)
    assert refresh_dashboard_summary_task() == 2
    MemoryItemFactory(scope=populated[0])
    assert refresh_dashboard_summary_task() == 2
    client.force_login(admin_user)
    assert _rows(client.get(reverse("dashboard")))["tenant-a"]["total"] == 6
