"""Tenant and Scope moved from apps.memory to apps.tenancy without touching the database:
a database holding data before the move upgrades and loses nothing."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from guardian.core import ObjectPermissionChecker

from apps.access.models import ScopeUserObjectPermission, TenantUserObjectPermission
from apps.conflicts.models import Conflict
from apps.memory.models import MemoryItem
from apps.quarantine.models import QuarantineEntry
from apps.tenancy.models import Scope, Tenant

BEFORE_THE_MOVE = [
    ("memory", "0006_dedupe_lock_and_twin_function"),
    ("access", "0003_agent_api_key"),
    ("conflicts", "0002_open_queue_index"),
    ("quarantine", "0002_entry_withdrawn"),
    ("tenancy", None),
]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _leaf_nodes():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _fill_before_the_move(old_apps):
    """Rows in every table that points at a tenant or a scope, written with the old models."""
    user = old_apps.get_model("auth", "User").objects.create(username="kept-operator")
    permission = old_apps.get_model("auth", "Permission").objects.get(
        content_type__app_label="memory", content_type__model="tenant", codename="view_memories"
    )
    scope_permission = old_apps.get_model("auth", "Permission").objects.get(
        content_type__app_label="memory", content_type__model="scope", codename="review_memories"
    )
    tenant = old_apps.get_model("memory", "Tenant").objects.create(slug="kept", name="Kept")
    scope = old_apps.get_model("memory", "Scope").objects.create(
        tenant=tenant, kind="user", external_id="u_1", subject="u_1"
    )
    item = old_apps.get_model("memory", "MemoryItem").objects.create(
        tenant=tenant,
        scope=scope,
        memory_type="semantic",
        content={"text": "kept"},
        text="kept",
        last_access_at=timezone.now(),
    )
    old_apps.get_model("access", "TenantUserObjectPermission").objects.create(
        user=user, permission=permission, content_object=tenant
    )
    old_apps.get_model("access", "ScopeUserObjectPermission").objects.create(
        user=user, permission=scope_permission, content_object=scope
    )
    old_apps.get_model("quarantine", "QuarantineEntry").objects.create(
        item=item, tenant=tenant, scope=scope, risk=0.9
    )
    old_apps.get_model("conflicts", "Conflict").objects.create(
        tenant=tenant, scope=scope, key="address.city", incoming_item=item
    )
    return tenant.pk, scope.pk, item.pk


@pytest.mark.django_db(transaction=True)
def test_upgrading_across_the_tenancy_move_keeps_every_row_and_grant():
    old_apps = _migrate(BEFORE_THE_MOVE)
    tenant_pk, scope_pk, item_pk = _fill_before_the_move(old_apps)

    _migrate(_leaf_nodes())

    tenant = Tenant.objects.get(pk=tenant_pk)
    scope = Scope.objects.get(pk=scope_pk)
    assert (tenant.slug, scope.tenant_id, scope.key) == ("kept", tenant.pk, "user:u_1")
    item = MemoryItem.objects.get(pk=item_pk)
    assert (item.tenant_id, item.scope_id) == (tenant.pk, scope.pk)
    assert QuarantineEntry.objects.get(item=item).scope == scope
    assert Conflict.objects.get(incoming_item=item).tenant == tenant
    assert TenantUserObjectPermission.objects.get(content_object=tenant).user.username == (
        "kept-operator"
    )
    assert ScopeUserObjectPermission.objects.filter(content_object=scope).count() == 1
    # The grants made before the move still mean the same thing to guardian afterwards.
    checker = ObjectPermissionChecker(TenantUserObjectPermission.objects.get().user)
    assert checker.has_perm("view_memories", tenant)
    assert checker.has_perm("review_memories", scope)


def test_tenant_and_scope_keep_their_historical_tables():
    assert Tenant._meta.db_table == "memory_tenant"
    assert Scope._meta.db_table == "memory_scope"
    assert MemoryItem._meta.get_field("scope").related_model is Scope
