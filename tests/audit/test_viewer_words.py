"""The audit viewer speaks the officer's language: labelled filters, names instead of
ids, human action names, links to what the reader may open, a banner that says up to
which event and when, "verify now" and the signed checkpoint for officers and admins."""

import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.audit.models import PLANNED_ACTIONS, Action, AuditEvent
from apps.audit.services import create_checkpoint, verify_chain
from tests.audit.factories import make_event
from tests.conflicts.factories import ConflictFactory
from tests.factories import MemoryItemFactory, ScopeFactory, TenantFactory

pytestmark = pytest.mark.django_db

LIST = reverse("audit:list")
APPS = Path(__file__).resolve().parents[2] / "apps"


def test_every_action_the_code_emits_is_offered_and_no_other():
    emitted = set()
    for path in APPS.rglob("*.py"):
        if path.parts[-2:] != ("audit", "models.py"):
            emitted |= set(re.findall(r"\bAction\.([A-Z_]+)\b", path.read_text()))
    declared = {action.name for action in Action}
    planned = {action.name for action in PLANNED_ACTIONS}
    assert emitted & planned == set(), "emitted now: take these off PLANNED_ACTIONS"
    assert declared - planned == emitted & declared


def test_filters_are_labelled_and_offer_only_emitted_actions(client, officer):
    client.force_login(officer)
    page = client.get(LIST).content.decode()
    labels = re.findall(r'<label class="form-label small mb-0" for="id_\w+">([^<]+)</label>', page)
    assert {"Kind of actor", "Action", "Tenant"} <= set(labels)
    assert "[invalid name]" not in page and "actor_kind</label>" not in page
    offered = set(re.findall(r'<option value="([a-z_]+\.[a-z_]+)"', page))
    assert "quarantine.released" in offered and "memory.rolled_back" in offered
    assert {"snapshot.exported", "snapshot.restored"} <= offered  # emitted since issue 16


def test_events_show_names_human_actions_and_links_the_reader_may_open(
    client, officer, tenant_a, tenant_b
):
    mine = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_mine"))
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    make_event(action=Action.MEMORY_UPDATED, target=mine, scope=mine.scope)
    make_event(action=Action.CONFLICT_OPENED, target=conflict, scope=conflict.scope)
    client.force_login(officer)
    page = client.get(LIST).content.decode()
    assert "Memory updated" in page and 'data-action="memory.updated"' in page
    assert "data-tenant>tenant-a</span>" in page
    assert "data-scope>user:u_mine</code>" in page
    assert f'href="{reverse("memory:detail", args=[mine.pk])}" data-target-link>Memory' in page
    # Officers do not review conflicts: the target is named, not linked.
    assert reverse("conflicts:detail", args=[conflict.pk]) not in page
    assert "Conflict" in page


def test_names_and_links_cost_a_fixed_number_of_queries(client, officer, tenant_a):
    client.force_login(officer)

    def queries_for_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(LIST).status_code == 200
        return len(captured)

    for _ in range(2):
        item = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
        make_event(action=Action.MEMORY_UPDATED, target=item, scope=item.scope)
    few = queries_for_page()
    for _ in range(20):
        item = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
        make_event(action=Action.MEMORY_UPDATED, target=item, scope=item.scope)
        make_event(action=Action.TENANT_UPDATED, tenant=TenantFactory())
    assert queries_for_page() == few


def test_banner_says_up_to_which_event_and_when(client, officer, tenant_a):
    make_event(tenant=tenant_a)
    verified = verify_chain(actor="test")
    make_event(tenant=tenant_a)
    client.force_login(officer)
    page = " ".join(client.get(LIST).content.decode().split())
    newer = AuditEvent.objects.order_by("-sequence").first()  # logins are audited too
    assert f"Chain verified up to event #{verified.head_sequence}</strong>" in page
    assert verified.ran_at.strftime("%Y-%m-%d %H:%M") in page
    assert f"The newest event is #{newer.sequence}" in page


def test_officer_verifies_now_and_sees_the_outcome(client, officer, tenant_a):
    make_event(tenant=tenant_a)
    client.force_login(officer)
    assert 'id="verify-now"' in client.get(LIST).content.decode()
    answer = client.post(reverse("audit:verify"), follow=True)
    assert "Chain verified up to event #" in answer.content.decode()
    assert AuditEvent.objects.filter(action=Action.AUDIT_VERIFIED, actor_id=officer.pk).exists()


def test_operator_can_read_the_log_but_not_verify_or_download(client, operator_a):
    client.force_login(operator_a)
    page = client.get(LIST).content.decode()
    assert 'id="verify-now"' not in page
    assert client.post(reverse("audit:verify")).status_code == 403
    assert client.get(reverse("audit:checkpoint")).status_code == 403


def test_officer_downloads_the_latest_signed_checkpoint(client, officer, tenant_a):
    client.force_login(officer)
    assert client.get(reverse("audit:checkpoint")).status_code == 404
    make_event(tenant=tenant_a)
    checkpoint = create_checkpoint(actor="test")
    assert f"Download signed checkpoint #{checkpoint.sequence}" in client.get(LIST).text
    answer = client.get(reverse("audit:checkpoint"))
    assert answer["Content-Disposition"].endswith(f'checkpoint-{checkpoint.sequence}.json"')
    signed = json.loads(answer.content)
    assert (signed["sequence"], signed["signature"]) == (checkpoint.sequence, checkpoint.signature)
    last = AuditEvent.objects.order_by("-sequence").first()
    assert (last.action, last.metadata["format"]) == (Action.AUDIT_EXPORTED, "checkpoint")
