"""The deletion-request API (CONTRACT shapes; issue 14 §8)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from apps.access.api_keys import create_api_key
from apps.access.roles import Role
from apps.access.services import grant_role
from apps.memory.models import MemoryItem
from apps.privacy.models import RequestStatus
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory
from tests.memory.api_helpers import agent_client
from tests.privacy.factories import received_request

pytestmark = pytest.mark.django_db
URL = "/api/v1/deletion-requests/"


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def step(client, request_id, name, body=None):
    return client.post(f"{URL}{request_id}/{name}/", body or {}, format="json")


def test_an_officer_records_a_request_and_gets_its_id_status_and_due_date(tenant_a, officer):
    answer = client_for(officer).post(
        URL,
        {"tenant": "tenant-a", "subject": "u_77", "identifiers": ["a@b.example"], "reason": "mail"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["status"] == "received" and body["due_at"] and body["receipt"] is None
    assert body["subject"] == "u_77".replace("u_77", "****")
    assert "a@b.example" not in str(body)


def test_a_tenant_the_officer_is_not_granted_is_404(tenant_a, officer, db):
    from tests.factories import TenantFactory

    TenantFactory(slug="tenant-c")
    answer = client_for(officer).post(URL, {"tenant": "tenant-c", "subject": "u_1"}, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("persona", ["operator_a", "analyst", "outsider"])
def test_operators_analysts_and_outsiders_get_403(request, persona, tenant_a, officer):
    made = received_request(tenant=tenant_a, subject="u_1", by=officer)
    client = client_for(request.getfixturevalue(persona))
    assert client.get(URL).status_code == 403
    assert client.get(f"{URL}{made.pk}/").status_code == 403
    assert step(client, made.pk, "verify").status_code == 403
    assert (
        client.post(URL, {"tenant": "tenant-a", "subject": "x"}, format="json").status_code == 403
    )


def test_an_officer_of_one_tenant_sees_only_its_requests(tenant_a, tenant_b, officer):
    only_b = UserFactory(username="officer_b")
    grant_role(user=only_b, role=Role.COMPLIANCE_OFFICER, target=tenant_b, actor="test-setup")
    in_a = received_request(tenant=tenant_a, subject="u_1", by=officer)
    in_b = received_request(tenant=tenant_b, subject="u_2", by=officer)
    client = client_for(only_b)
    assert [row["id"] for row in client.get(URL).json()["results"]] == [in_b.pk]
    assert client.get(f"{URL}{in_a.pk}/").status_code == 404
    assert step(client, in_a.pk, "verify").status_code == 404


def test_the_list_filters_by_tenant_and_status_in_constant_queries(tenant_a, tenant_b, officer):
    for number in range(3):
        received_request(tenant=tenant_a, subject=f"u_a{number}", by=officer)
    verified = received_request(tenant=tenant_b, subject="u_b", by=officer)
    step(client_for(officer), verified.pk, "verify")
    client = client_for(officer)
    assert len(client.get(URL, {"tenant": "tenant-a"}).json()["results"]) == 3
    rows = client.get(URL, {"status": "verified"}).json()["results"]
    assert [row["id"] for row in rows] == [verified.pk]
    with CaptureQueriesContext(connection) as few:
        client.get(URL)
    for number in range(10):
        received_request(tenant=tenant_b, subject=f"u_more{number}", by=officer)
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(URL).json()["results"]) == 14
    assert len(many) == len(few)


def test_the_whole_workflow_through_the_api_ends_with_a_receipt(
    tenant_a, officer, officer2, django_capture_on_commit_callbacks
):
    scope = ScopeFactory(tenant=tenant_a, external_id="u_api", subject="u_api")
    MemoryItemFactory.create_batch(3, scope=scope)
    elsewhere = MemoryItemFactory(
        scope=ScopeFactory(tenant=tenant_a, external_id="u_other"),
        content={"text": "u_api told us about the refund"},
        text="u_api told us about the refund",
    )
    first, second = client_for(officer), client_for(officer2)
    made = first.post(URL, {"tenant": "tenant-a", "subject": "u_api"}, format="json").json()
    assert step(first, made["id"], "verify").json()["status"] == "verified"
    refused = step(first, made["id"], "approve")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "second_approver_required"
    too_early = step(second, made["id"], "execute")
    assert too_early.status_code == 409 and too_early.json()["error"]["code"] == "step_not_allowed"
    assert step(second, made["id"], "approve").json()["status"] == "approved"
    preview = first.get(f"{URL}{made['id']}/preview/").json()
    assert preview["tables"]["memory_memoryitem"] == 3
    assert preview["residue"] == [
        {
            "memory_id": elsewhere.public_id,
            "scope": "user:u_other",
            "matched": ["content"],
            "terms": ["u***i"],
        }
    ]
    with django_capture_on_commit_callbacks(execute=True) as enqueued:
        done = step(
            first,
            made["id"],
            "execute",
            {"residue_ids": [elsewhere.public_id], "residue_reason": "names the subject"},
        )
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "executing" and len(enqueued) == 1
    body = first.get(f"{URL}{made['id']}/").json()
    assert body["status"] == RequestStatus.COMPLETED
    assert body["receipt"]["tables"]["memory_memoryitem"] == 4
    assert body["residue_ids"] == [elsewhere.public_id]
    assert not MemoryItem.objects.filter(tenant=tenant_a, scope=scope).exists()
    assert step(first, made["id"], "reject", {"reason": "late"}).status_code == 409


def test_reject_and_hold_need_a_reason(tenant_a, officer):
    made = received_request(tenant=tenant_a, subject="u_1", by=officer)
    client = client_for(officer)
    assert step(client, made.pk, "hold").status_code == 400
    assert step(client, made.pk, "hold", {"reason": "court order"}).json()["status"] == "on_hold"
    assert step(client, made.pk, "release-hold").json()["status"] == "received"
    assert step(client, made.pk, "reject").status_code == 400
    assert step(client, made.pk, "reject", {"reason": "not proven"}).json()["status"] == "rejected"


def test_an_api_key_whose_user_holds_the_privacy_permission_may_call_it(tenant_a, officer):
    _, plaintext = create_api_key(username="dpo-bot", tenant=tenant_a, name="dpo", actor="setup")
    client = agent_client(plaintext)
    assert client.get(URL).status_code == 403
    from django.contrib.auth import get_user_model

    bot = get_user_model().objects.get(username="dpo-bot")
    grant_role(user=bot, role=Role.COMPLIANCE_OFFICER, target=tenant_a, actor="test-setup")
    answer = client.post(URL, {"tenant": "tenant-a", "subject": "u_9"}, format="json")
    assert answer.status_code == 201
