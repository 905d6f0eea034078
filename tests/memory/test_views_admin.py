"""Django admin: every model registered, lists load with bounded queries, writes audited."""

import pytest
from django.contrib import admin
from django.urls import reverse

from apps.access.api_keys import create_api_key
from apps.access.models import AgentAPIKey
from apps.audit.models import Action, AuditEvent
from apps.memory.models import MemoryItem, MemoryVersion
from apps.memory.services import create_item
from apps.tenancy.models import Scope, Tenant
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db


def test_every_memory_and_access_model_is_registered():
    from apps.access import models as access_models

    expected = [
        Tenant,
        Scope,
        MemoryItem,
        MemoryVersion,
        access_models.TenantUserObjectPermission,
        access_models.TenantGroupObjectPermission,
        access_models.ScopeUserObjectPermission,
        access_models.ScopeGroupObjectPermission,
        access_models.ServiceAccount,
        AgentAPIKey,
    ]
    assert [model for model in expected if not admin.site.is_registered(model)] == []


def test_admin_changelists_load(client, admin_user, operator_a, tenant_a):
    MemoryItemFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    create_api_key(username="agent-a", tenant=tenant_a, actor=admin_user)
    client.force_login(admin_user)
    for model in (Tenant, Scope, MemoryItem, MemoryVersion, AgentAPIKey):
        opts = model._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        assert client.get(url).status_code == 200, url
        assert client.get(url, {"q": "tenant"}).status_code == 200, url
    from apps.access import models as access_models

    for model in (access_models.TenantUserObjectPermission, access_models.ServiceAccount):
        url = reverse(f"admin:access_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url


def test_item_changelist_queries_do_not_grow_with_rows(
    client, admin_user, tenant_a, django_assert_max_num_queries
):
    client.force_login(admin_user)
    url = reverse("admin:memory_memoryitem_changelist")
    MemoryItemFactory.create_batch(2, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(30) as baseline:
        client.get(url)
    MemoryItemFactory.create_batch(40, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(len(baseline.captured_queries)):
        client.get(url)


def test_item_page_is_read_only_and_never_shows_the_sealed_token(client, admin_user, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    item = create_item(
        values={
            "tenant": tenant_a,
            "scope": scope,
            "memory_type": "semantic",
            "content": {"sealed": True, "kinds": ["card"]},
            "sensitive": True,
            "sealed_content": "gAAAAAB-secret-token",
        },
        actor="test",
    )
    client.force_login(admin_user)
    response = client.get(reverse("admin:memory_memoryitem_change", args=[item.pk]))
    assert response.status_code == 200
    assert b"gAAAAAB-secret-token" not in response.content
    assert b'name="_save"' not in response.content


def test_tenant_policy_change_in_admin_is_audited(client, admin_user, tenant_a):
    client.force_login(admin_user)
    url = reverse("admin:tenancy_tenant_change", args=[tenant_a.pk])
    data = {
        "slug": tenant_a.slug,
        "name": tenant_a.name,
        "sensitive_policy": "encrypt",
        "lww_key_patterns": '["address.*"]',
        "recall_alpha": 0.5,
        "recall_beta": 0.25,
        "recall_gamma": 0.25,
        "archive_threshold": 0.2,
        "half_life_overrides": "{}",
        "erasure_sla_hours": "",
    }
    assert client.post(url, data).status_code == 302
    tenant_a.refresh_from_db()
    assert tenant_a.sensitive_policy == "encrypt" and tenant_a.archive_threshold == 0.2
    event = AuditEvent.objects.filter(action=Action.TENANT_UPDATED).get()
    assert "archive_threshold" in event.metadata["fields"]


def test_api_key_revoke_action_goes_through_the_audited_service(client, admin_user, tenant_a):
    key, _ = create_api_key(username="agent-a", tenant=tenant_a, actor=admin_user)
    client.force_login(admin_user)
    url = reverse("admin:access_agentapikey_changelist")
    response = client.post(
        url, {"action": "revoke_selected", admin.helpers.ACTION_CHECKBOX_NAME: [key.pk]}
    )
    assert response.status_code == 302
    key.refresh_from_db()
    assert key.revoked
    assert AuditEvent.objects.filter(action=Action.API_KEY_REVOKED).exists()
