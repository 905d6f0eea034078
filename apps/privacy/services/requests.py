"""The four-eyes workflow of a deletion request (ARCHITECTURE §8).

received → verified → approved (by an officer other than whoever created or verified it)
→ executing → completed; rejected (reason required) from any open step before execution;
on_hold (legal hold, with a reason) blocks approval and execution until released, back
to the step it was taken from. Each step locks the request inside `audited_change` (the
audit chain's lock first, then the row), checks the state, and records the event in
the same transaction with the subject only as its keyed hash.
"""

import calendar
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory import crypto
from apps.privacy.models import DeletionRequest, RequestStatus
from apps.privacy.services.erasure import close_request_secrets
from apps.privacy.services.errors import PrivacyError, SecondApproverRequired, StepNotAllowed
from apps.privacy.services.identifiers import (
    MAX_IDENTIFIER_LENGTH,
    MAX_IDENTIFIERS,
    clean_identifiers,
    hash_all,
    mask,
    person,
    seal_identifiers,
)
from apps.privacy.services.preview import table_counts
from apps.tenancy.models import Tenant

MAX_REASON_LENGTH = 2000


def add_calendar_month(moment: datetime) -> datetime:
    """The same day and time next month (the last day when the month is shorter)."""
    year, month = (moment.year + 1, 1) if moment.month == 12 else (moment.year, moment.month + 1)
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def due_date(*, tenant: Tenant, received_at: datetime) -> datetime:
    """The tenant's SLA from receipt, or the statutory calendar month by default."""
    if tenant.erasure_sla_hours:
        return received_at + timedelta(hours=tenant.erasure_sla_hours)
    return add_calendar_month(received_at)


def _audit(request: DeletionRequest, *, actor: Actor, action: Action, **data: Any) -> None:
    record(
        actor=actor,
        action=action,
        target=request,
        tenant=request.tenant_id,
        data={"subject_hash": request.subject_hash, "status": request.status, **data},
    )


def _required_reason(reason: str, *, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise PrivacyError(f"A reason is required to {what}.", fields={"reason": ["Required."]})
    if len(reason) > MAX_REASON_LENGTH:
        message = f"The reason is limited to {MAX_REASON_LENGTH} characters."
        raise PrivacyError(message, fields={"reason": [message]})
    return reason


def _locked(request_id: int) -> DeletionRequest:
    return DeletionRequest.objects.select_for_update().select_related("tenant").get(pk=request_id)


def _refuse(request: DeletionRequest, step: str) -> StepNotAllowed:
    return StepNotAllowed(
        f"Cannot {step} this request: it is {request.get_status_display().lower()}.",
        fields={"status": [request.status]},
    )


def create_request(
    *,
    tenant: Tenant,
    subject: str,
    actor: Actor,
    identifiers: list[str] | None = None,
    reason: str = "",
    received_at: datetime | None = None,
) -> DeletionRequest:
    """Record a data subject's erasure request; the subject and identifiers are sealed."""
    subject = (subject or "").strip()
    if not subject:
        raise PrivacyError("The subject is required.", fields={"subject": ["Required."]})
    if len(subject) > MAX_IDENTIFIER_LENGTH:
        message = f"The subject is limited to {MAX_IDENTIFIER_LENGTH} characters."
        raise PrivacyError(message, fields={"subject": [message]})
    extra = [value for value in clean_identifiers(identifiers) if value != subject]
    if len(extra) > MAX_IDENTIFIERS or any(len(v) > MAX_IDENTIFIER_LENGTH for v in extra):
        message = f"At most {MAX_IDENTIFIERS} identifiers of {MAX_IDENTIFIER_LENGTH} characters."
        raise PrivacyError(message, fields={"identifiers": [message]})
    if len(reason or "") > MAX_REASON_LENGTH:
        message = f"The reason is limited to {MAX_REASON_LENGTH} characters."
        raise PrivacyError(message, fields={"reason": [message]})
    received_at = received_at or timezone.now()
    with transaction.atomic():
        request = DeletionRequest.objects.create(
            tenant=tenant,
            subject_hash=keyed_hash(subject),
            subject_masked=mask(subject),
            subject_sealed=crypto.seal(subject),
            identifiers_sealed=seal_identifiers(extra),
            identifier_hashes=hash_all(extra),
            identifiers_masked=[mask(value) for value in extra],
            reason=(reason or "").strip(),
            received_at=received_at,
            due_at=due_date(tenant=tenant, received_at=received_at),
            created_by=person(actor),
        )
        _audit(
            request,
            actor=actor,
            action=Action.ERASURE_REQUESTED,
            identifiers=len(extra),
            due_at=request.due_at.isoformat(),
        )
    return request


def verify_request(*, request_id: int, actor: Actor) -> DeletionRequest:
    """The officer confirmed the data subject's identity and the request's scope."""
    with audited_change():
        request = _locked(request_id)
        if request.status != RequestStatus.RECEIVED:
            raise _refuse(request, "verify")
        request.status = RequestStatus.VERIFIED
        request.verified_by = person(actor)
        request.verified_at = timezone.now()
        request.save(update_fields=["status", "verified_by", "verified_at", "updated_at"])
        _audit(request, actor=actor, action=Action.ERASURE_VERIFIED)
    return request


def approve_request(*, request_id: int, actor: Actor) -> DeletionRequest:
    """A second officer approves the erasure: never whoever created or verified it."""
    with audited_change():
        request = _locked(request_id)
        if request.status != RequestStatus.VERIFIED:
            raise _refuse(request, "approve")
        if getattr(person(actor), "pk", None) in {request.created_by_id, request.verified_by_id}:
            raise SecondApproverRequired(
                "Four eyes: the approver must be an officer other than whoever created "
                "or verified this request."
            )
        request.status = RequestStatus.APPROVED
        request.approved_by = person(actor)
        request.approved_at = timezone.now()
        request.preview_counts = table_counts(request)
        request.save(
            update_fields=["status", "approved_by", "approved_at", "preview_counts", "updated_at"]
        )
        _audit(request, actor=actor, action=Action.ERASURE_APPROVED, counts=request.preview_counts)
    return request


def reject_request(*, request_id: int, actor: Actor, reason: str) -> DeletionRequest:
    """Refuse the request (with the reason given to the data subject); it closes for good."""
    reason = _required_reason(reason, what="reject a request")
    with audited_change():
        request = _locked(request_id)
        if request.status not in (
            RequestStatus.RECEIVED,
            RequestStatus.VERIFIED,
            RequestStatus.APPROVED,
            RequestStatus.ON_HOLD,
        ):
            raise _refuse(request, "reject")
        request.status = RequestStatus.REJECTED
        request.decided_reason = reason
        request.held_from = ""
        close_request_secrets(request)
        request.save()
        _audit(request, actor=actor, action=Action.ERASURE_REJECTED, reason_length=len(reason))
    return request


def hold_request(*, request_id: int, actor: Actor, reason: str) -> DeletionRequest:
    """Put the request on legal hold: no approval or execution until it is released."""
    reason = _required_reason(reason, what="put a request on hold")
    with audited_change():
        request = _locked(request_id)
        if request.status not in (
            RequestStatus.RECEIVED,
            RequestStatus.VERIFIED,
            RequestStatus.APPROVED,
        ):
            raise _refuse(request, "hold")
        request.held_from = request.status
        request.status = RequestStatus.ON_HOLD
        request.decided_reason = reason
        request.save(update_fields=["status", "held_from", "decided_reason", "updated_at"])
        _audit(request, actor=actor, action=Action.ERASURE_HELD, reason_length=len(reason))
    return request


def release_hold(*, request_id: int, actor: Actor, reason: str = "") -> DeletionRequest:
    """Lift the legal hold: the request returns to the step it was held at."""
    with audited_change():
        request = _locked(request_id)
        if request.status != RequestStatus.ON_HOLD:
            raise _refuse(request, "release the hold of")
        request.status = request.held_from or RequestStatus.RECEIVED
        request.held_from = ""
        request.save(update_fields=["status", "held_from", "updated_at"])
        _audit(
            request,
            actor=actor,
            action=Action.ERASURE_HOLD_RELEASED,
            reason_length=len(reason or ""),
        )
    return request
