"""seed_demo: the demo a new user logs into; complete, realistic and idempotent."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from apps.access.selectors import tenants_visible_to
from apps.audit.models import AuditEvent
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.memory.selectors import items_visible_to
from apps.tenancy.models import Scope, Tenant
from apps.tenancy.permissions import Perm

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _seed(*args) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def test_seed_demo_builds_the_whole_demo_and_a_second_run_changes_nothing():
    output = _seed()
    assert Tenant.objects.count() >= 3
    assert Scope.objects.count() >= 50
    assert MemoryItem.objects.count() >= 2000
    assert set(MemoryItem.objects.values_list("memory_type", flat=True)) == set(MemoryType.values)
    assert set(MemoryItem.objects.values_list("status", flat=True)) == set(MemoryStatus.values)
    texts = list(MemoryItem.objects.values_list("text", flat=True))
    assert any("用户" in t for t in texts) and any("The user" in t for t in texts)
    # Injections are held back by the gate; contradictions wait for review or supersede.
    quarantined = MemoryItem.objects.filter(status=MemoryStatus.QUARANTINED)
    assert quarantined.filter(text__contains="忽略你之前的规则").exists()
    assert quarantined.filter(text__icontains="ignore all previous instructions").exists()
    assert MemoryItem.objects.filter(status=MemoryStatus.PENDING_REVIEW).exists()
    assert MemoryItem.objects.filter(key="address.city", status=MemoryStatus.SUPERSEDED).exists()
    # Sensitive data is never stored in the clear.
    assert MemoryItem.objects.filter(sensitive=True).count() >= 10
    assert not MemoryItem.objects.filter(text__contains="4111 1111 1111 1111").exists()
    # Sessions share their user's subject.
    session = Scope.objects.filter(kind="session").first()
    assert Scope.objects.filter(tenant=session.tenant, kind="user", subject=session.subject)
    # Erasure requests in several states, one overdue, one on hold, one completed.
    from apps.privacy.models import DeletionRequest
    from apps.privacy.selectors import sla_state

    requests = list(DeletionRequest.objects.all())
    assert {r.status for r in requests} >= {"received", "verified", "approved", "on_hold"}
    assert {"overdue", "on_hold", "due_soon"} <= {sla_state(r) for r in requests}
    assert {r.status for r in requests} >= {"completed", "rejected"}
    assert not Scope.objects.filter(subject="u_1012", tenant__slug="support-bot-prod").exists()
    for login in ("admin", "operator", "officer", "officer2", "analyst"):
        assert login in output
    assert "memory-console-demo" in output

    counts = (MemoryItem.objects.count(), Scope.objects.count(), AuditEvent.objects.count())
    again = _seed()
    assert (MemoryItem.objects.count(), Scope.objects.count(), AuditEvent.objects.count()) == counts
    assert "nothing to add" in again
    _assert_demo_users_hold_the_documented_grants(password="memory-console-demo")
    _seed("--password", "another-demo-password")  # an explicit password resets them
    _assert_demo_users_hold_the_documented_grants(password="another-demo-password")


def _assert_demo_users_hold_the_documented_grants(password: str) -> None:
    users = {u.username: u for u in get_user_model().objects.all()}
    assert users["admin"].is_superuser and users["admin"].check_password(password)
    operator_tenants = set(tenants_visible_to(users["operator"]).values_list("slug", flat=True))
    assert operator_tenants == {"support-bot-prod", "shop-assistant-cn"}
    for officer in ("officer", "officer2"):
        assert tenants_visible_to(users[officer]).count() == 3
    assert tenants_visible_to(users["analyst"], Perm.VIEW_REPORTS).count() == 3
    assert not items_visible_to(users["analyst"]).exists()  # analysts never read content
