"""The denylist: keyed hashes of erased subjects and scope keys, per tenant (§8)."""

from django.db import transaction
from django.utils import timezone

from apps.access.selectors import has_global_access
from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.privacy.models import DeletionRequest, DenylistEntry, DenylistKind
from apps.privacy.services.errors import PrivacyError, StepNotAllowed
from apps.privacy.services.identifiers import person

MAX_LIFT_REASON = 2000


class LiftNotPermitted(PrivacyError):
    code = "permission_denied"
    status = 403


def add_to_denylist(
    *,
    tenant_id: int,
    subject_hash: str,
    scope_key_hashes: list[str],
    request: DeletionRequest | None = None,
) -> int:
    """Make sure the subject and scope keys are denylisted; returns how many were added.

    Idempotent (an active entry is kept as it is); the caller's transaction audits it.
    """
    wanted = {(DenylistKind.SUBJECT.value, subject_hash)}
    wanted |= {(DenylistKind.SCOPE.value, digest) for digest in scope_key_hashes}
    with transaction.atomic():
        present = set(
            DenylistEntry.objects.filter(
                tenant_id=tenant_id,
                lifted_at__isnull=True,
                digest__in=[digest for _, digest in wanted],
            ).values_list("kind", "digest")
        )
        missing = sorted(wanted - present)
        DenylistEntry.objects.bulk_create(
            [
                DenylistEntry(tenant_id=tenant_id, kind=kind, digest=digest, request=request)
                for kind, digest in missing
            ]
        )
    return len(missing)


def lift_entry(*, entry_id: int, actor: Actor, reason: str) -> DenylistEntry:
    """An admin lets a denylisted subject or scope key be written again (audited)."""
    if not has_global_access(actor):
        raise LiftNotPermitted("Only an administrator may lift a denylist entry.")
    reason = (reason or "").strip()
    if not reason:
        raise PrivacyError(
            "A reason is required to lift an entry.", fields={"reason": ["Required."]}
        )
    if len(reason) > MAX_LIFT_REASON:
        message = f"The reason is limited to {MAX_LIFT_REASON} characters."
        raise PrivacyError(message, fields={"reason": [message]})
    with audited_change():
        entry = DenylistEntry.objects.select_for_update().get(pk=entry_id)
        if entry.lifted_at is not None:
            raise StepNotAllowed(
                f"This entry was already lifted on {entry.lifted_at:%Y-%m-%d %H:%M} UTC."
            )
        entry.lifted_at = timezone.now()
        entry.lifted_by = person(actor)
        entry.lift_reason = reason
        entry.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        record(
            actor=actor,
            action=Action.DENYLIST_LIFTED,
            target=entry,
            tenant=entry.tenant_id,
            data={
                "kind": entry.kind,
                "digest": entry.digest,
                "request": entry.request_id,
                "reason_length": len(reason),
            },
        )
    return entry
