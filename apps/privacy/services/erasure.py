"""Executing an erasure: idempotent, resumable, batched hard deletes (ARCHITECTURE §8).

`start_erasure` moves an approved request to executing, records the officer's residue
choice and denylists the subject at once (so no write lands while it runs), then
enqueues the task. `execute_erasure` deletes the target's rows a batch per transaction,
adding each batch's counts to the request in that same transaction: a run killed after
any batch and started again carries on where the last commit left off, and nothing is
counted twice. The final step removes the scopes, completes the denylist, runs one
verification query per table (all must count zero), wipes the sealed subject and
issues the signed receipt, all in one transaction with the audit event.
"""

from django.db import transaction
from django.utils import timezone

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory.models import MemoryItem
from apps.memory.services import delete_items
from apps.privacy.models import DeletionRequest, RequestStatus
from apps.privacy.services.denylist import add_to_denylist
from apps.privacy.services.dependants import delete_dependants
from apps.privacy.services.errors import ErasureIncomplete, PrivacyError, StepNotAllowed
from apps.privacy.services.identifiers import person, scrub, search_terms, subject_of
from apps.privacy.services.preview import (
    ErasureTarget,
    count_target,
    parse_memory_id,
    subject_scopes,
    target_of,
)
from apps.privacy.services.receipts import build_receipt
from apps.tenancy.models import Scope

BATCH_SIZE = 2000
MAX_RESIDUE_IDS = 1000

ITEMS = MemoryItem._meta.db_table
SCOPES = Scope._meta.db_table


def add_counts(counts: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    total = dict(counts)
    for table, count in more.items():
        total[table] = total.get(table, 0) + count
    return total


def close_request_secrets(request: DeletionRequest) -> None:
    """Forget the plain subject and identifiers of a request that is closing: free text
    keeps them only masked, the sealed copies are emptied (caller saves)."""
    secrets = search_terms(request)
    request.reason = scrub(request.reason, secrets)
    request.decided_reason = scrub(request.decided_reason, secrets)
    request.residue_reason = scrub(request.residue_reason, secrets)
    request.subject_sealed = ""
    request.identifiers_sealed = ""


def scope_key_hashes(scope_ids) -> list[str]:
    keys = Scope.objects.filter(pk__in=scope_ids).values_list("kind", "external_id")
    return [keyed_hash(f"{kind}:{external_id}") for kind, external_id in keys]


def erase_batch(target: ErasureTarget, *, limit: int = BATCH_SIZE) -> dict[str, int]:
    """Delete up to `limit` of the target's items with every row about them; {} when none
    are left. Call inside a transaction."""
    item_ids = list(target.items().order_by().values_list("pk", flat=True)[:limit])
    if not item_ids:
        return {}
    # Versions, queue entries, conflicts … of these items (whichever app keeps them).
    counts = delete_dependants(item_ids=item_ids)
    # The one hard delete of items: what is left pointing at them (successors elsewhere)
    # keeps its row with the link cleared.
    counts[ITEMS] = delete_items(item_ids=item_ids)
    return counts


def erase_scopes(target: ErasureTarget) -> dict[str, int]:
    """The scopes themselves and what is left in them once their items are gone
    (content-free decision records, grants). Call inside a transaction."""
    counts = delete_dependants(scope_ids=target.scope_ids)
    deleted = Scope.objects.filter(pk__in=target.scope_ids).delete()[1]
    counts[SCOPES] = deleted.get(Scope._meta.label, 0)
    return counts


def verification_counts(target: ErasureTarget, *, subject: str = "") -> dict[str, int]:
    """One query per table for rows of the target still there: all must be zero."""
    scope_ids = set(target.scope_ids)
    if subject:
        scope_ids |= set(
            subject_scopes(tenant_id=target.tenant_id, subject=subject).values_list("pk", flat=True)
        )
    counts = count_target(
        ErasureTarget(target.tenant_id, tuple(sorted(scope_ids)), target.residue_ids)
    )
    counts[SCOPES] = Scope.objects.filter(pk__in=scope_ids).count()
    return counts


def _residue_choice(request: DeletionRequest, residue_ids, reason: str) -> list[str]:
    """The chosen residue as `mem_<hex>` ids: items of the tenant outside the target."""
    try:
        chosen = list(dict.fromkeys(parse_memory_id(value) for value in residue_ids))
    except (TypeError, ValueError, AttributeError):
        message = "Residue ids must be memory ids (mem_<hex>)."
        raise PrivacyError(message, fields={"residue_ids": [message]}) from None
    if len(chosen) > MAX_RESIDUE_IDS:
        message = f"At most {MAX_RESIDUE_IDS} residue items per request."
        raise PrivacyError(message, fields={"residue_ids": [message]})
    if chosen and not reason.strip():
        message = "Give the reason these residue items join the erasure."
        raise PrivacyError(message, fields={"residue_reason": [message]})
    found = MemoryItem.objects.filter(tenant_id=request.tenant_id, pk__in=chosen).count()
    if found != len(chosen):
        message = "Some residue ids are not items of this request's tenant."
        raise PrivacyError(message, fields={"residue_ids": [message]})
    return [f"mem_{value.hex}" for value in chosen]


def start_erasure(
    *,
    request_id: int,
    actor: Actor,
    residue_ids: list[str] | None = None,
    residue_reason: str = "",
) -> DeletionRequest:
    """Begin (or resume) the erasure of an approved request, then enqueue its task."""
    with audited_change():
        request = (
            DeletionRequest.objects.select_for_update().select_related("tenant").get(pk=request_id)
        )
        if request.status == RequestStatus.APPROVED:
            request.residue_ids = _residue_choice(request, residue_ids or [], residue_reason)
            request.residue_reason = residue_reason.strip()
            target = target_of(request)
            request.preview_counts = count_target(target)  # again, just before execution
            request.status = RequestStatus.EXECUTING
            request.executed_by = person(actor)
            request.execution_started_at = timezone.now()
            request.save()
            # Denylisted before the first delete: no write for the subject lands meanwhile.
            add_to_denylist(
                tenant_id=request.tenant_id,
                subject_hash=request.subject_hash,
                scope_key_hashes=scope_key_hashes(target.scope_ids),
                request=request,
            )
            record(
                actor=actor,
                action=Action.ERASURE_STARTED,
                target=request,
                tenant=request.tenant_id,
                data={
                    "subject_hash": request.subject_hash,
                    "residue_items": len(request.residue_ids),
                    "counts": request.preview_counts,
                },
            )
        elif request.status != RequestStatus.EXECUTING:  # executing: a resume
            raise StepNotAllowed(
                f"Cannot execute this request: it is {request.get_status_display().lower()}.",
                fields={"status": [request.status]},
            )
        # Imported here: tasks import services.
        from apps.privacy.tasks import execute_erasure_task

        transaction.on_commit(lambda: execute_erasure_task.delay(request.pk))
    return request


def execute_erasure(
    *, request_id: int, max_batches: int | None = None, batch_size: int = BATCH_SIZE
) -> DeletionRequest:
    """Run (or resume) an executing request to completion; a no-op once completed.

    `max_batches` stops after that many batches, leaving the request executing (how a
    worker killed mid-run leaves it).
    """
    request = DeletionRequest.objects.select_related("tenant").get(pk=request_id)
    if request.status == RequestStatus.COMPLETED:
        return request
    if request.status != RequestStatus.EXECUTING:
        raise StepNotAllowed(
            f"The request is {request.get_status_display().lower()}, not executing."
        )
    target = target_of(request)
    batches = 0
    while max_batches is None or batches < max_batches:
        with transaction.atomic():
            # The row lock serialises overlapping runs: each batch is picked after it.
            request = DeletionRequest.objects.select_for_update().get(pk=request_id)
            if request.status != RequestStatus.EXECUTING:
                return request
            counts = erase_batch(target, limit=batch_size)
            if not counts:
                break
            request.erased_counts = add_counts(request.erased_counts, counts)
            request.save(update_fields=["erased_counts", "updated_at"])
        batches += 1
    else:
        return DeletionRequest.objects.get(pk=request_id)
    return _complete(request_id=request_id, target=target)


def _complete(*, request_id: int, target: ErasureTarget) -> DeletionRequest:
    with audited_change():
        request = (
            DeletionRequest.objects.select_for_update(of=("self",))
            .select_related("tenant", "verified_by", "approved_by", "executed_by")
            .get(pk=request_id)
        )
        if request.status != RequestStatus.EXECUTING:
            return request
        subject = subject_of(request)
        counts = request.erased_counts
        while batch := erase_batch(target):  # anything written after the last batch
            counts = add_counts(counts, batch)
        added = add_to_denylist(
            tenant_id=request.tenant_id,
            subject_hash=request.subject_hash,
            scope_key_hashes=scope_key_hashes(target.scope_ids),
            request=request,
        )
        counts = add_counts(counts, erase_scopes(target))
        counts = {**dict.fromkeys(request.preview_counts, 0), **counts}  # every table named
        verification = verification_counts(target, subject=subject)
        if any(verification.values()):
            raise ErasureIncomplete(f"Rows remain after the erasure: {verification}.")
        close_request_secrets(request)
        request.erased_counts = counts
        request.status = RequestStatus.COMPLETED
        request.completed_at = timezone.now()
        request.receipt = build_receipt(request, verification=verification)
        request.save()
        record(
            actor="erasure",
            action=Action.ERASURE_EXECUTED,
            target=request,
            tenant=request.tenant_id,
            data={
                "subject_hash": request.subject_hash,
                "counts": counts,
                "denylisted": added,
                "verified_zero": sorted(verification),
            },
        )
    return request
