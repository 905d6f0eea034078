"""Idempotent writes: a retried request with the same `Idempotency-Key` gets the first answer.

The key is claimed (a row without an answer) before the write runs, in its own short
transaction, so a concurrent retry sees the claim; the answer is stored once the write
succeeded, and the claim is released when it failed (a retry then runs again). Rows
live IDEMPOTENCY_TTL and are pruned by the hourly expiry job (prune_idempotent_requests).
"""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.core.errors import ServiceError
from apps.memory.models import IdempotentRequest

IDEMPOTENCY_TTL = timedelta(hours=24)
# A claim older than this whose request never answered (its process died) is taken over.
CLAIM_LEASE = timedelta(minutes=2)
_PRUNE_BATCH = 5000


class IdempotencyKeyReused(ServiceError):
    """The key was first used for another request (another body, method or path)."""

    code = "idempotency_key_reused"
    status = 422
    default_message = (
        "This Idempotency-Key was used for a different request; use a new key for a new write."
    )


class IdempotentRequestInProgress(ServiceError):
    """The first request with this key has not answered yet."""

    code = "idempotency_in_progress"
    status = 409
    default_message = "A request with this Idempotency-Key is still in progress; retry shortly."


@dataclass(frozen=True)
class StoredAnswer:
    """The first answer to replay: status, body and Location header."""

    status_code: int
    body: Any
    location: str


def claim_idempotency_key(*, owner: str, key: str, fingerprint: str) -> StoredAnswer | None:
    """Claim the key for a request about to run (None: run it), or return the first answer
    to the same request; another request under the key is refused (422), one still
    running answers 409."""
    now = timezone.now()
    claim = {"fingerprint": fingerprint, "created_at": now, "expires_at": now + IDEMPOTENCY_TTL}
    with transaction.atomic():
        record, created = IdempotentRequest.objects.get_or_create(
            owner=owner, key=key, defaults=claim
        )
    if created:
        return None
    expired = record.expires_at <= now
    if record.fingerprint != fingerprint and not expired:
        raise IdempotencyKeyReused()
    if record.status_code is not None and not expired:
        return StoredAnswer(record.status_code, record.body, record.location)
    if record.status_code is None and not expired and record.created_at > now - CLAIM_LEASE:
        raise IdempotentRequestInProgress()
    # An expired row not pruned yet, or an abandoned claim: take it over, unless another
    # retry just did (the conditional UPDATE claims it for one of them only).
    taken = IdempotentRequest.objects.filter(pk=record.pk, created_at=record.created_at).update(
        fingerprint=fingerprint,
        status_code=None,
        body=None,
        location="",
        item=None,
        scope=None,
        created_at=now,
        expires_at=now + IDEMPOTENCY_TTL,
    )
    if not taken:
        raise IdempotentRequestInProgress()
    return None


def store_idempotent_answer(
    *,
    owner: str,
    key: str,
    status_code: int,
    body: Any,
    location: str = "",
    item_id: Any = None,
    scope_id: int | None = None,
) -> None:
    """Keep the answer to a claimed request, for its retries (linked to what it wrote)."""
    IdempotentRequest.objects.filter(owner=owner, key=key, status_code=None).update(
        status_code=status_code,
        body=body,
        location=location,
        item_id=item_id,
        scope_id=scope_id,
        expires_at=timezone.now() + IDEMPOTENCY_TTL,
    )


def release_idempotency_key(*, owner: str, key: str) -> None:
    """Drop the claim of a request that failed, so its retry runs again."""
    IdempotentRequest.objects.filter(owner=owner, key=key, status_code=None).delete()


def prune_idempotent_requests() -> int:
    """Delete the answers past their time to live, in batches; returns how many."""
    pruned = 0
    while True:
        batch = list(
            IdempotentRequest.objects.filter(expires_at__lte=timezone.now()).values_list(
                "pk", flat=True
            )[:_PRUNE_BATCH]
        )
        if not batch:
            return pruned
        pruned += IdempotentRequest.objects.filter(pk__in=batch).delete()[0]
