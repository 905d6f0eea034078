"""The four-eyes workflow of a deletion request: states, refusals, audit (issue 14 §1)."""

from datetime import UTC, datetime

import pytest
from django.db import connection

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action, AuditEvent
from apps.privacy import services
from apps.privacy.models import DeletionRequest, RequestStatus
from apps.privacy.services.requests import add_calendar_month
from tests.privacy.factories import approved_request, received_request

pytestmark = pytest.mark.django_db


def test_due_date_is_one_calendar_month_after_receipt_by_default(tenant_a, officer):
    received = datetime(2026, 1, 31, 9, 30, tzinfo=UTC)
    request = services.create_request(
        tenant=tenant_a, subject="u_1", actor=officer, received_at=received
    )
    assert request.due_at == datetime(2026, 2, 28, 9, 30, tzinfo=UTC)
    assert add_calendar_month(datetime(2026, 12, 15, tzinfo=UTC)) == datetime(
        2027, 1, 15, tzinfo=UTC
    )


def test_tenant_sla_hours_set_the_due_date(tenant_a, officer):
    tenant_a.erasure_sla_hours = 72
    tenant_a.save()
    received = datetime(2026, 3, 1, tzinfo=UTC)
    request = services.create_request(
        tenant=tenant_a, subject="u_1", actor=officer, received_at=received
    )
    assert request.due_at == datetime(2026, 3, 4, tzinfo=UTC)


def test_subject_and_identifiers_are_stored_sealed_and_shown_masked(tenant_a, officer):
    request = received_request(
        tenant=tenant_a, subject="u_secret_42", by=officer, identifiers=["jane.doe@example.org"]
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM privacy_deletionrequest WHERE id = %s", [request.pk])
        row = " ".join(str(value) for value in cursor.fetchone())
    assert "u_secret_42" not in row and "jane.doe" not in row
    assert request.subject_masked == "u_*******42"
    assert request.identifiers_masked == ["ja********rg"]
    assert request.subject_hash == keyed_hash("u_secret_42")


def test_a_second_officer_approves_after_verification(tenant_a, officer, officer2):
    request = approved_request(tenant=tenant_a, subject="u_1", by=officer, second=officer2)
    assert request.status == RequestStatus.APPROVED
    assert request.approved_by == officer2
    assert request.preview_counts["memory_memoryitem"] == 0


def test_whoever_created_the_request_cannot_approve_it(tenant_a, officer, officer2):
    request = received_request(tenant=tenant_a, subject="u_1", by=officer)
    services.verify_request(request_id=request.pk, actor=officer2)
    with pytest.raises(services.SecondApproverRequired) as refused:
        services.approve_request(request_id=request.pk, actor=officer)
    assert refused.value.status == 403
    with pytest.raises(services.SecondApproverRequired):
        services.approve_request(request_id=request.pk, actor=officer2)  # the verifier
    assert DeletionRequest.objects.get(pk=request.pk).status == RequestStatus.VERIFIED


def test_a_step_not_allowed_now_is_refused_with_409(tenant_a, officer, officer2):
    request = received_request(tenant=tenant_a, subject="u_1", by=officer)
    with pytest.raises(services.StepNotAllowed) as refused:
        services.approve_request(request_id=request.pk, actor=officer2)
    assert refused.value.status == 409
    with pytest.raises(services.StepNotAllowed):
        services.start_erasure(request_id=request.pk, actor=officer2)
    services.verify_request(request_id=request.pk, actor=officer)
    with pytest.raises(services.StepNotAllowed):
        services.verify_request(request_id=request.pk, actor=officer)


def test_a_legal_hold_blocks_approval_and_execution_until_released(tenant_a, officer, officer2):
    request = received_request(tenant=tenant_a, subject="u_1", by=officer)
    services.verify_request(request_id=request.pk, actor=officer)
    with pytest.raises(services.PrivacyError):
        services.hold_request(request_id=request.pk, actor=officer, reason="  ")
    services.hold_request(request_id=request.pk, actor=officer, reason="litigation 2026-17")
    with pytest.raises(services.StepNotAllowed):
        services.approve_request(request_id=request.pk, actor=officer2)
    released = services.release_hold(request_id=request.pk, actor=officer2)
    assert released.status == RequestStatus.VERIFIED
    approved = services.approve_request(request_id=request.pk, actor=officer2)
    services.hold_request(request_id=approved.pk, actor=officer, reason="new claim")
    with pytest.raises(services.StepNotAllowed):
        services.start_erasure(request_id=approved.pk, actor=officer2)


def test_rejection_needs_a_reason_and_forgets_the_plain_subject(tenant_a, officer):
    request = received_request(
        tenant=tenant_a, subject="u_gone", by=officer, reason="u_gone asked by mail"
    )
    with pytest.raises(services.PrivacyError):
        services.reject_request(request_id=request.pk, actor=officer, reason="")
    rejected = services.reject_request(
        request_id=request.pk, actor=officer, reason="identity not proven for u_gone"
    )
    assert rejected.status == RequestStatus.REJECTED
    assert rejected.subject_sealed == "" and rejected.identifiers_sealed == ""
    assert "u_gone" not in rejected.reason + rejected.decided_reason
    with pytest.raises(services.StepNotAllowed):
        services.verify_request(request_id=request.pk, actor=officer)


def test_every_transition_is_audited_with_the_subject_only_as_a_keyed_hash(
    tenant_a, officer, officer2
):
    request = approved_request(tenant=tenant_a, subject="u_audited", by=officer, second=officer2)
    services.hold_request(request_id=request.pk, actor=officer, reason="hold u_audited")
    services.release_hold(request_id=request.pk, actor=officer2)
    events = AuditEvent.objects.filter(
        target_id=str(request.pk), target_type="privacy.deletionrequest"
    )
    assert [e.action for e in events.order_by("sequence")] == [
        Action.ERASURE_REQUESTED,
        Action.ERASURE_VERIFIED,
        Action.ERASURE_APPROVED,
        Action.ERASURE_HELD,
        Action.ERASURE_HOLD_RELEASED,
    ]
    for event in events:
        assert event.metadata["subject_hash"] == keyed_hash("u_audited")
        assert "u_audited" not in str(event.metadata)
    assert {e.actor_label for e in events} == {"officer", "officer2"}
