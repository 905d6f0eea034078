"""Permissions are a vocabulary (Perm) and a user's grants are worked out once per request."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.access.roles import ROLE_PERMISSIONS, Role
from apps.access.selectors import grants_of, has_global_access
from apps.tenancy.permissions import Perm
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

APPS = Path(__file__).resolve().parents[2] / "apps"


def test_every_perm_is_a_permission_declared_on_tenant_and_scope():
    for model in ("tenant", "scope"):
        declared = set(
            Permission.objects.filter(content_type__model=model)
            .exclude(codename__regex=r"^(add|change|delete|view)_(tenant|scope)$")
            .values_list("codename", flat=True)
        )
        assert declared == set(Perm.values), model


def test_roles_confer_only_perms():
    for role, perms in ROLE_PERMISSIONS.items():
        assert all(isinstance(perm, Perm) for perm in perms), role


def test_no_codename_is_spelled_as_a_string_in_apps():
    literal = re.compile(r"[\"'](" + "|".join(Perm.values) + r")[\"']")
    offenders = [
        str(path.relative_to(APPS))
        for path in APPS.rglob("*.py")
        if "migrations" not in path.parts
        and path.name != "permissions.py"
        and literal.search(path.read_text())
    ]
    assert offenders == []


def test_no_private_permission_cache_is_set_on_users():
    offenders = [
        str(path.relative_to(APPS))
        for path in APPS.rglob("*.py")
        if re.search(r"\._mc_|[\"']_mc_", path.read_text())
    ]
    assert offenders == []


def test_grants_are_asked_once_then_answered_from_memory(operator_a, django_assert_num_queries):
    grants = grants_of(operator_a)
    assert grants_of(operator_a) is grants
    with django_assert_num_queries(2):  # the admin rule, then the grants
        assert Perm.REVIEW_MEMORIES in grants.held_permissions
    with django_assert_num_queries(1):
        assert grants.role_names == {Role.OPERATOR}
    with django_assert_num_queries(0):
        assert not has_global_access(operator_a)
        assert Perm.MANAGE_PRIVACY not in grants.held_permissions


def test_admins_hold_everything_and_anonymous_users_nothing(admin_user):
    assert grants_of(admin_user).held_permissions is None
    assert grants_of(AnonymousUser()).held_permissions == frozenset()
    assert not has_global_access(None)


def test_admin_group_members_have_global_access(tenant_a):
    member = UserFactory(username="group-admin")
    # get_or_create: a transactional test run before this one (xdist worker) flushed the
    # group its migration made.
    member.groups.add(Group.objects.get_or_create(name=Role.ADMIN)[0])
    assert has_global_access(member)


def test_a_console_page_works_out_the_held_permissions_once(client, operator_a):
    client.force_login(operator_a)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("quarantine:queue")).status_code == 200
    held_lookups = [
        query
        for query in queries.captured_queries
        if "UNION" in query["sql"] and '"auth_permission"."codename"' in query["sql"]
    ]
    assert len(held_lookups) == 1
