"""One selector decides what a user sees: tenant grants cover scopes, nothing else leaks."""

import pytest

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.memory.selectors import items_visible_to, scopes_visible_to, tenants_visible_to
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_tenant_grant_covers_its_scopes_and_items_only(operator_a, tenant_a, tenant_b):
    mine = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_b))
    assert list(items_visible_to(operator_a)) == [mine]
    assert list(tenants_visible_to(operator_a)) == [tenant_a]
    assert set(scopes_visible_to(operator_a)) == {mine.scope}


def test_scope_grant_shows_that_scope_and_not_its_siblings(tenant_a):
    granted, sibling = ScopeFactory(tenant=tenant_a), ScopeFactory(tenant=tenant_a)
    item = MemoryItemFactory(scope=granted)
    MemoryItemFactory(scope=sibling)
    user = UserFactory(username="scoped-operator")
    grant_role(user=user, role=Role.OPERATOR, target=granted, actor="test")
    assert list(items_visible_to(user)) == [item]
    assert list(tenants_visible_to(user)) == [tenant_a]


def test_outsider_and_analyst_see_no_memory_content(outsider, analyst, tenant_a):
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
    assert not items_visible_to(outsider).exists()
    assert not items_visible_to(analyst).exists()
    assert list(tenants_visible_to(analyst, "view_reports")) != []


def test_admin_sees_every_tenant(admin_user, tenant_a, tenant_b):
    assert set(tenants_visible_to(admin_user)) == {tenant_a, tenant_b}


def test_visibility_costs_the_same_queries_whatever_the_number_of_rows(
    operator_a, tenant_a, django_assert_max_num_queries
):
    MemoryItemFactory.create_batch(5, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(2):  # the admin-group check, then the list
        assert len(list(items_visible_to(operator_a))) == 5
