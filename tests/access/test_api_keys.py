"""Agent API keys: issued once, stored hashed, bound to a service account's grants."""

import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from apps.access import known_keys
from apps.access.api_keys import create_api_key, revoke_api_key
from apps.access.models import AgentAPIKey, ServiceAccount, TenantUserObjectPermission
from apps.audit.models import Action, AuditEvent
from apps.core.cache import rate_limit_cache
from apps.memory.selectors import user_has_perm_on
from tests.memory.api_helpers import agent_client

pytestmark = pytest.mark.django_db

LIST_URL = "/api/v1/memories/"


def test_create_api_key_command_prints_a_working_key_once(tenant_a):
    out, err = StringIO(), StringIO()
    call_command("create_api_key", user="agent-x", tenant="tenant-a", stdout=out, stderr=err)
    plaintext = out.getvalue().strip()
    key = AgentAPIKey.objects.get()
    assert plaintext.startswith(key.prefix + ".")
    assert plaintext not in key.hashed_key and plaintext not in key.pk
    assert ServiceAccount.objects.filter(user__username="agent-x").exists()
    assert user_has_perm_on(key.user, "write_memories", tenant=tenant_a)
    assert agent_client(plaintext).get(LIST_URL).status_code == 200


def test_create_api_key_command_refuses_an_unknown_tenant(db):
    with pytest.raises(Exception, match="No tenant"):
        call_command("create_api_key", user="agent-x", tenant="nope", stdout=StringIO())


def test_creating_and_revoking_keys_is_audited_without_the_secret(tenant_a):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    revoke_api_key(key_id=key.pk, actor="ops")
    events = list(AuditEvent.objects.filter(action__startswith="api_key.").order_by("sequence"))
    assert [e.action for e in events] == [Action.API_KEY_CREATED, Action.API_KEY_REVOKED]
    assert all(plaintext not in str(e.metadata) for e in events)
    assert events[0].metadata["prefix"] == key.prefix


def test_revoked_key_is_refused_with_401(tenant_a):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    revoke_api_key(key_id=key.prefix, actor="ops")
    response = agent_client(plaintext).get(LIST_URL)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == "Api-Key"


def test_expired_key_is_refused(tenant_a):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    AgentAPIKey.objects.filter(pk=key.pk).update(expiry_date=timezone.now() - timedelta(1))
    assert agent_client(plaintext).get(LIST_URL).status_code == 401


@pytest.mark.parametrize(
    "header",
    ["Api-Key nope.nothing", "Api-Key ", "Api-Key a b", "Bearer whatever", ""],
)
def test_wrong_or_missing_key_is_401(tenant_a, header):
    create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get(LIST_URL)
    assert response.status_code == 401
    assert set(response.json()["error"]) == {"code", "message", "fields"}


def test_key_of_a_disabled_service_account_is_refused(tenant_a):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    key.user.is_active = False
    key.user.save()
    assert agent_client(plaintext).get(LIST_URL).status_code == 401


def test_last_used_is_written_at_most_once_a_minute(tenant_a, monkeypatch):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    client = agent_client(plaintext)
    assert client.get(LIST_URL).status_code == 200
    first = AgentAPIKey.objects.get(pk=key.pk).last_used_at
    assert first is not None
    client.get(LIST_URL)
    assert AgentAPIKey.objects.get(pk=key.pk).last_used_at == first
    AgentAPIKey.objects.filter(pk=key.pk).update(last_used_at=first - timedelta(minutes=2))
    past_the_bound(monkeypatch)  # the process reads the key's row again
    client.get(LIST_URL)
    assert AgentAPIKey.objects.get(pk=key.pk).last_used_at > first


def tea_memory() -> dict:
    """A remember request body for tenant-a's user u_1."""
    return {
        "tenant": "tenant-a",
        "scope": "user:u_1",
        "memory_type": "semantic",
        "content": {"text": "likes tea"},
        "source": "test",
    }


def past_the_bound(monkeypatch) -> None:
    """Move the kept keys' clock past KEY_CACHE_SECONDS (apps.access.known_keys)."""
    later = time.monotonic() + known_keys.KEY_CACHE_SECONDS
    monkeypatch.setattr(known_keys, "_clock", lambda: later)


def key_statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "access_agentapikey" in q["sql"]]


def test_a_key_this_process_knows_authenticates_without_a_statement(tenant_a):
    """The key's row is kept for KEY_CACHE_SECONDS: the lookup was one of a recall's four
    statements. The secret is still checked against the hash on every request."""
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    assert agent_client(plaintext).get(LIST_URL).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert agent_client(plaintext).get(LIST_URL).status_code == 200
    assert key_statements(queries) == []
    wrong_secret = f"{key.prefix}.{'x' * 32}"
    assert agent_client(wrong_secret).get(LIST_URL).status_code == 401


def test_a_revoked_key_is_refused_at_once_by_the_process_that_kept_it(
    tenant_a, django_capture_on_commit_callbacks
):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    assert agent_client(plaintext).get(LIST_URL).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        revoke_api_key(key_id=key.prefix, actor="ops")
    assert agent_client(plaintext).get(LIST_URL).status_code == 401


def test_other_processes_see_a_revocation_at_once_through_the_shared_cache(tenant_a):
    """Another process revoked the key: this one still keeps its row, and drops it on
    the shared cache's word."""
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    assert agent_client(plaintext).get(LIST_URL).status_code == 200
    AgentAPIKey.objects.filter(pk=key.pk).update(revoked=True)
    rate_limit_cache.set(known_keys.revoked_marker(key.prefix), True, 20)
    assert agent_client(plaintext).get(LIST_URL).status_code == 401


def test_without_the_shared_cache_a_revocation_is_seen_within_the_bound(tenant_a, monkeypatch):
    """The documented bound: a process that kept the key and hears nothing of its
    revocation (no shared cache, or it is down) refuses it KEY_CACHE_SECONDS later."""
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    assert agent_client(plaintext).get(LIST_URL).status_code == 200
    AgentAPIKey.objects.filter(pk=key.pk).update(revoked=True)
    assert agent_client(plaintext).get(LIST_URL).status_code == 200  # within the bound
    past_the_bound(monkeypatch)
    assert agent_client(plaintext).get(LIST_URL).status_code == 401


def test_what_one_request_learns_about_its_agent_does_not_reach_the_next(tenant_a, tenant_b):
    """A kept key gives each request new instances: a grant withdrawn between two
    requests is seen by the second, as without the kept row."""
    _, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    client = agent_client(plaintext)
    body = tea_memory()
    assert client.post(LIST_URL, body, format="json").status_code == 201
    TenantUserObjectPermission.objects.filter(user__username="agent-x").delete()
    body["content"] = {"text": "likes coffee"}
    assert client.post(LIST_URL, body, format="json").status_code == 404


def test_agent_key_acts_as_its_service_account(tenant_a, tenant_b):
    key, plaintext = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    client = agent_client(plaintext)
    body = tea_memory()
    created = client.post(LIST_URL, body, format="json")
    assert created.status_code == 201
    event = AuditEvent.objects.filter(action=Action.MEMORY_CREATED).get()
    assert event.actor_label == "agent-x" and event.actor_kind == "service_account"
    assert event.metadata["api_key"] == key.prefix


def test_an_agent_in_the_admin_group_writes_to_any_tenant_and_others_do_not(tenant_a, tenant_b):
    """Authentication learns the admin flag with the key (one query) and grant checks use
    it: an admin agent's key reaches tenant B, a tenant-A agent's key does not."""
    from django.contrib.auth.models import Group

    from apps.access.roles import Role

    admin_key, admin_plaintext = create_api_key(username="agent-admin", tenant=tenant_a, actor="o")
    admin_key.user.groups.add(Group.objects.get_or_create(name=Role.ADMIN)[0])
    _, plain_plaintext = create_api_key(username="agent-a", tenant=tenant_a, actor="o")
    body = {
        "tenant": "tenant-b",
        "scope": "user:u_9",
        "memory_type": "semantic",
        "content": {"text": "likes tea"},
        "source": "test",
    }
    assert agent_client(admin_plaintext).post(LIST_URL, body, format="json").status_code == 201
    assert agent_client(plain_plaintext).post(LIST_URL, body, format="json").status_code == 404


def test_the_key_lookup_loads_the_account_or_its_absence_in_one_query(
    tenant_a, django_assert_num_queries
):
    from apps.access.authentication import find_unrevoked_key
    from apps.access.selectors import has_global_access
    from tests.factories import UserFactory

    agent_key, _ = create_api_key(username="agent-x", tenant=tenant_a, actor="ops")
    person_key, _ = AgentAPIKey.objects.create_key(name="a person's key", user=UserFactory())
    with django_assert_num_queries(2):
        agent = find_unrevoked_key(agent_key.prefix)
        person = find_unrevoked_key(person_key.prefix)
    with django_assert_num_queries(0):
        assert agent.user.service_account.user_id == agent.user.pk
        assert not hasattr(person.user, "service_account")
        assert (has_global_access(agent.user), has_global_access(person.user)) == (False, False)
    revoke_api_key(key_id=agent_key.prefix, actor="ops")
    assert find_unrevoked_key(agent_key.prefix) is None


def test_console_session_still_authenticates_with_csrf(tenant_a, operator_a):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(operator_a)
    assert client.get(LIST_URL).status_code == 200
    body = {"tenant": "tenant-a", "scope": "user:u", "memory_type": "semantic"}
    response = client.post(LIST_URL, body, format="json")
    assert response.status_code == 403  # no CSRF token
    assert response.json()["error"]["code"] == "permission_denied"
