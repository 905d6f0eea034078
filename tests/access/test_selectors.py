"""One selector decides what a user sees: tenant grants cover scopes, nothing else leaks."""

import pytest

from apps.access.roles import Role
from apps.access.selectors import tenants_visible_to
from apps.access.services import grant_role
from apps.memory.selectors import items_visible_to, scopes_visible_to
from apps.tenancy.permissions import Perm
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
    assert list(tenants_visible_to(analyst, Perm.VIEW_REPORTS)) != []


def test_admin_sees_every_tenant(admin_user, tenant_a, tenant_b):
    assert set(tenants_visible_to(admin_user)) == {tenant_a, tenant_b}


def test_visibility_costs_the_same_queries_whatever_the_number_of_rows(
    operator_a, tenant_a, django_assert_max_num_queries
):
    MemoryItemFactory.create_batch(5, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(2):  # the admin-group check, then the list
        assert len(list(items_visible_to(operator_a))) == 5


# --- counting what a user may see ------------------------------------------------------


def grant_through_group(user, perm: str, target) -> None:
    from django.contrib.auth.models import Group
    from guardian.shortcuts import assign_perm

    group, _ = Group.objects.get_or_create(name=f"team-{type(target).__name__}-{target.pk}")
    user.groups.add(group)
    assign_perm(perm, group, target)


@pytest.mark.parametrize("cap", [1, 3, 4, 5, 100])
def test_a_grant_count_is_the_visible_rows_up_to_the_cap(tenant_a, tenant_b, cap):
    """Direct and group grants on tenants and scopes overlap; each visible row counts once,
    and the count is exact up to the cap."""
    from apps.access.selectors import count_by_grant, filter_by_grant
    from apps.memory.models import MemoryItem

    granted_scope, other_scope = ScopeFactory(tenant=tenant_b), ScopeFactory(tenant=tenant_b)
    scope_in_a = ScopeFactory(tenant=tenant_a)
    MemoryItemFactory.create_batch(2, scope=scope_in_a)
    MemoryItemFactory.create_batch(2, scope=granted_scope)
    MemoryItemFactory.create_batch(3, scope=other_scope)  # never visible
    user = UserFactory(username="counted")
    grant_role(user=user, role=Role.OPERATOR, target=tenant_a, actor="test")
    grant_role(user=user, role=Role.OPERATOR, target=scope_in_a, actor="test")  # overlaps
    grant_through_group(user, Perm.VIEW_MEMORIES, granted_scope)
    grant_through_group(user, Perm.VIEW_MEMORIES, tenant_a)  # overlaps again
    items = MemoryItem.objects.all()
    visible = filter_by_grant(items, user, Perm.VIEW_MEMORIES).count()
    assert visible == 4
    assert count_by_grant(items, user, Perm.VIEW_MEMORIES, cap=cap) == min(cap, visible)


def test_a_grant_count_is_zero_without_a_grant_and_everything_for_an_admin(
    outsider, admin_user, tenant_a
):
    from apps.access.selectors import count_by_grant
    from apps.memory.models import MemoryItem

    MemoryItemFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    items = MemoryItem.objects.all()
    assert count_by_grant(items, outsider, Perm.VIEW_MEMORIES, cap=10) == 0
    assert count_by_grant(items, None, Perm.VIEW_MEMORIES, cap=10) == 0
    assert count_by_grant(items, admin_user, Perm.VIEW_MEMORIES, cap=10) == 3
    assert count_by_grant(items, admin_user, Perm.VIEW_MEMORIES, cap=2) == 2
