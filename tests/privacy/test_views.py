"""The officers' screens: requests and denylist (issue 14 §7)."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.privacy import services
from apps.privacy.models import DeletionRequest, RequestStatus
from apps.privacy.services.receipts import signature_is_valid
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory
from tests.privacy.factories import approved_request, received_request

pytestmark = pytest.mark.django_db
LIST = reverse("privacy:requests")
DENYLIST = reverse("privacy:denylist")


def test_the_list_shows_sla_badges_and_filters_in_constant_queries(client, tenant_a, officer):
    overdue = received_request(tenant=tenant_a, subject="u_late", by=officer)
    DeletionRequest.objects.filter(pk=overdue.pk).update(due_at=timezone.now() - timedelta(days=1))
    held = received_request(tenant=tenant_a, subject="u_held", by=officer)
    services.hold_request(request_id=held.pk, actor=officer, reason="court order")
    soon = received_request(tenant=tenant_a, subject="u_soon", by=officer)
    DeletionRequest.objects.filter(pk=soon.pk).update(due_at=timezone.now() + timedelta(days=1))
    client.force_login(officer)
    page = client.get(LIST).content.decode()
    assert page.count('data-sla="overdue"') == 1
    assert page.count('data-sla="on_hold"') == 1
    assert page.count('data-sla="due_soon"') == 1
    assert "u_late" not in page and "u****e" in page
    only_overdue = client.get(LIST, {"sla": "overdue"}).content.decode()
    assert f'data-request="{overdue.pk}"' in only_overdue
    assert f'data-request="{held.pk}"' not in only_overdue
    on_hold = client.get(LIST, {"status": "on_hold"}).content.decode()
    assert f'data-request="{held.pk}"' in on_hold and f'data-request="{soon.pk}"' not in on_hold
    with CaptureQueriesContext(connection) as few:
        client.get(LIST)
    for number in range(8):
        received_request(tenant=tenant_a, subject=f"u_more{number}", by=officer)
    with CaptureQueriesContext(connection) as many:
        client.get(LIST)
    assert len(many) == len(few)


@pytest.mark.parametrize("persona", ["operator_a", "analyst", "outsider"])
def test_operators_and_analysts_see_none_of_it(client, request, persona, tenant_a, officer):
    made = received_request(tenant=tenant_a, subject="u_1", by=officer)
    client.force_login(request.getfixturevalue(persona))
    for url in (
        LIST,
        DENYLIST,
        reverse("privacy:detail", args=[made.pk]),
        reverse("privacy:create"),
    ):
        assert client.get(url).status_code == 404
    assert client.post(reverse("privacy:step", args=[made.pk, "verify"])).status_code == 404


def test_an_officer_sees_only_the_tenants_granted(client, tenant_a, tenant_b, officer):
    only_b = UserFactory(username="officer_b")
    grant_role(user=only_b, role=Role.COMPLIANCE_OFFICER, target=tenant_b, actor="test-setup")
    in_a = received_request(tenant=tenant_a, subject="u_1", by=officer)
    client.force_login(only_b)
    assert f'data-request="{in_a.pk}"' not in client.get(LIST).content.decode()
    assert client.get(reverse("privacy:detail", args=[in_a.pk])).status_code == 404
    refused = client.post(reverse("privacy:create"), {"tenant": "tenant-a", "subject": "u_x"})
    assert refused.status_code == 400
    assert not DeletionRequest.objects.filter(subject_masked="u_x").exists()


def test_an_officer_records_a_request_through_the_form(client, tenant_a, officer):
    client.force_login(officer)
    answer = client.post(
        reverse("privacy:create"),
        {"tenant": "tenant-a", "subject": "u_form", "identifiers": "a-1\nb-2\n", "reason": "x"},
    )
    made = DeletionRequest.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("privacy:detail", args=[made.pk])
    assert made.identifiers_masked == ["***", "***"]


def test_the_request_page_offers_only_the_steps_this_officer_may_take(
    client, tenant_a, officer, officer2
):
    made = received_request(tenant=tenant_a, subject="u_1", by=officer)
    services.verify_request(request_id=made.pk, actor=officer)
    url = reverse("privacy:detail", args=[made.pk])
    client.force_login(officer)
    page = client.get(url).content.decode()
    assert 'data-step="approve"' not in page and 'id="four-eyes-note"' in page
    assert client.post(reverse("privacy:step", args=[made.pk, "approve"])).status_code == 403
    client.force_login(officer2)
    page = client.get(url).content.decode()
    assert 'data-step="approve"' in page and 'data-step="verify"' not in page
    assert client.post(reverse("privacy:step", args=[made.pk, "approve"])).status_code == 302
    assert DeletionRequest.objects.get(pk=made.pk).status == RequestStatus.APPROVED


def test_executing_from_the_page_with_ticked_residue_ends_with_a_signed_receipt(
    client, tenant_a, officer, officer2, django_capture_on_commit_callbacks
):
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_pg", subject="u_pg"))
    residue = MemoryItemFactory(
        scope=ScopeFactory(tenant=tenant_a, external_id="u_friend"),
        content={"text": "u_pg <script>alert(1)</script>"},
        text="u_pg <script>alert(1)</script>",
    )
    made = approved_request(tenant=tenant_a, subject="u_pg", by=officer, second=officer2)
    client.force_login(officer)
    page = client.get(reverse("privacy:detail", args=[made.pk])).content.decode()
    assert residue.public_id in page and "<script>alert" not in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("privacy:step", args=[made.pk, "execute"]),
            {"residue_ids": [residue.public_id], "residue_reason": "names the subject"},
        )
    assert answer.status_code == 302
    made.refresh_from_db()
    assert made.status == RequestStatus.COMPLETED
    printable = client.get(reverse("privacy:receipt", args=[made.pk]))
    assert printable.status_code == 200 and made.subject_hash in printable.content.decode()
    signed = client.get(reverse("privacy:receipt_json", args=[made.pk]))
    assert signature_is_valid(json.loads(signed.content))


def test_the_denylist_answers_is_this_subject_erased_and_only_an_admin_may_lift(
    client, tenant_a, officer, officer2, admin_user
):
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_dl", subject="u_dl"))
    made = approved_request(tenant=tenant_a, subject="u_dl", by=officer, second=officer2)
    services.start_erasure(request_id=made.pk, actor=officer)
    services.execute_erasure(request_id=made.pk)
    client.force_login(officer)
    yes = client.get(DENYLIST, {"tenant": "tenant-a", "subject": "u_dl"}).content.decode()
    assert "Yes: erased" in yes and "u_dl" not in yes.split('id="check-answer"')[1][:200]
    no = client.get(DENYLIST, {"tenant": "tenant-a", "subject": "u_other"}).content.decode()
    assert "No: not on the denylist" in no
    assert "Lift</button>" not in yes
    entry = made.denylist_entries.first()
    client.post(reverse("privacy:lift", args=[entry.pk]), {"reason": "please"})
    entry.refresh_from_db()
    assert entry.lifted_at is None
    client.force_login(admin_user)
    assert "Lift</button>" in client.get(DENYLIST).content.decode()
    client.post(reverse("privacy:lift", args=[entry.pk]), {"reason": "re-registered"})
    entry.refresh_from_db()
    assert entry.lifted_at is not None and entry.lifted_by == admin_user


def test_the_list_pages_newest_first_without_counting(client, tenant_a, officer):
    made = [received_request(tenant=tenant_a, subject=f"u_p{n}", by=officer) for n in range(53)]
    client.force_login(officer)
    first = client.get(LIST)
    page = first.content.decode()
    assert page.count("data-request=") == 50 and 'id="next-page"' in page
    assert f'data-request="{made[-1].pk}"' in page
    following = client.get(LIST, {"after": first.context["page"].next_cursor}).content.decode()
    assert following.count("data-request=") == 3 and f'data-request="{made[0].pk}"' in following
