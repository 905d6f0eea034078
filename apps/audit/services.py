"""Writing the audit log: one `record` call per state change, inside its transaction;
verifying the chain and signing checkpoints of its head."""

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from apps.audit.appending import (
    CHAIN_LOCK_KEY,
    AuditError,
    append_events,
    new_event,
)
from apps.audit.context import (
    RequestContext,
    reset_request_context,
    set_request_context,
)
from apps.audit.hashing import keyed_hash
from apps.audit.models import (
    Action,
    AuditCheckpoint,
    AuditEvent,
    AuditVerification,
    CheckpointSource,
    DenialCounter,
)
from apps.audit.verification import (
    GENESIS_HASH,
    ChainBreak,
    CheckpointError,
    SignedHead,
    WalkResult,
    normalise_ip,
    stored_hash_at,
    walk_chain,
)
from apps.core.types import Actor

__all__ = [
    "GENESIS_HASH",
    "AuditError",
    "append_events",
    "audited_change",
    "create_checkpoint",
    "flush_denials",
    "new_event",
    "note_denial",
    "record",
    "verify_chain",
]


@contextmanager
def audited_change() -> Iterator[None]:
    """A transaction for changing existing rows and recording it: the chain's lock first.

    record() appends under the chain's lock, held until commit, so every audited
    transaction queues for it. One that locked rows before queueing could hold a row
    the chain's holder needs next (to supersede it, merge into it, check a foreign key)
    while waiting for the holder: a deadlock. Taking the chain's lock before any row
    gives every writer the same lock order. The remember gate's insert path is the one
    exception: before the chain it takes only its dedupe lock, which no holder of the
    chain waits for, so new writes still screen in parallel.
    """
    with transaction.atomic():
        if connection.vendor == "postgresql":  # SQLite serialises writers itself
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])
        yield


def record(
    *,
    actor: Actor | None,
    action: Action | str,
    target: Model | None = None,
    target_type: str = "",
    target_id: str = "",
    tenant: Any = None,
    scope: Any = None,
    data: dict | None = None,
    with_rows: Sequence[Model] = (),
) -> AuditEvent:
    """Append one event to the chain; call it last inside the transaction of the change.

    `actor`, `data`: as `new_event`. `with_rows`: new rows of the change itself, inserted
    in the event's statement (one round trip for a new item, its first version and its
    event).
    """
    event = new_event(
        actor=actor,
        action=action,
        target=target,
        target_type=target_type,
        target_id=target_id,
        tenant=tenant,
        scope=scope,
        data=data,
    )
    append_events([event], with_rows=with_rows)
    return event


def _start_point(
    checkpoint: SignedHead | None, *, full: bool
) -> tuple[SignedHead | None, str, ChainBreak | None]:
    """Where a walk starts: an exported checkpoint, the latest stored one, or the genesis."""
    source = CheckpointSource.EXPORTED
    if checkpoint is None and not full:
        latest = AuditCheckpoint.objects.order_by("-sequence").first()
        if latest is None:
            return None, CheckpointSource.NONE, None
        checkpoint, source = SignedHead.from_model(latest), CheckpointSource.STORED
        if not checkpoint.is_authentic():
            reason = "stored checkpoint's signature is invalid"
            return checkpoint, source, ChainBreak(checkpoint.sequence, reason)
    if checkpoint is None:
        return None, CheckpointSource.NONE, None
    if stored_hash_at(checkpoint.sequence) != checkpoint.head_hash:
        reason = "chain does not pass through the checkpoint's head hash"
        return checkpoint, source, ChainBreak(checkpoint.sequence, reason)
    return checkpoint, source, None


def verify_chain(
    *, actor: Actor, checkpoint: SignedHead | None = None, full: bool = False
) -> AuditVerification:
    """Walk the chain, keep the outcome for the console, and audit that it was checked.

    Without `full`, the walk resumes after the latest stored checkpoint (or the given
    exported one, which must be authentic) instead of rehashing all history; with
    `full`, every event is rehashed from the genesis, and a given checkpoint must still
    lie on the chain.
    """
    started = time.perf_counter()
    start, source, broken = _start_point(checkpoint, full=full)
    resume = start is not None and not full and broken is None
    if broken is not None:
        walk = WalkResult(0, broken.sequence - 1, "", broken)
    elif resume and start is not None:
        walk = walk_chain(after_sequence=start.sequence, prev_hash=start.head_hash)
    else:
        walk = walk_chain()
    with transaction.atomic():
        verification = AuditVerification.objects.create(
            ran_at=timezone.now(),
            ok=walk.ok,
            checked=walk.checked,
            head_sequence=walk.head_sequence,
            first_bad_sequence=walk.broken.sequence if walk.broken else None,
            detail=walk.broken.reason if walk.broken else "",
            checkpoint_source=source,
            checkpoint_sequence=start.sequence if start else None,
            duration_ms=int((time.perf_counter() - started) * 1000),
        )
        record(
            actor=actor,
            action=Action.AUDIT_VERIFIED,
            target=verification,
            data={
                "ok": verification.ok,
                "checked": verification.checked,
                "first_bad_sequence": verification.first_bad_sequence,
                "checkpoint": source,
            },
        )
    return verification


def create_checkpoint(*, actor: Actor) -> AuditCheckpoint:
    """Verify the chain, then sign its head so later walks can resume there."""
    verification = verify_chain(actor=actor)
    if not verification.ok:
        raise CheckpointError(
            f"Refusing to sign a broken chain (first bad event #{verification.first_bad_sequence})."
        )
    sequence = verification.head_sequence or 0
    signed_at = timezone.now()
    if sequence == 0:
        raise CheckpointError("The audit log is empty: there is no head to sign.")
    head = SignedHead(
        sequence=sequence,
        head_hash=stored_hash_at(sequence) or "",
        count=sequence,  # a verified chain is gapless from #1
        created_at=signed_at.isoformat(timespec="microseconds"),
    ).signed()
    with transaction.atomic():
        checkpoint = AuditCheckpoint.objects.create(
            sequence=head.sequence,
            head_hash=head.head_hash,
            count=head.count,
            created_at=signed_at,
            signature=head.signature,
        )
        record(
            actor=actor,
            action=Action.AUDIT_CHECKPOINT,
            target=checkpoint,
            data={"sequence": head.sequence, "count": head.count},
        )
    return checkpoint


# --- coalesced denials ------------------------------------------------------------------


def denial_actor(*, user: Any = None, address: str | None = None) -> str:
    """The counter's actor: the signed-in user, else a keyed hash of the client address."""
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return f"address:{keyed_hash(normalise_ip(address) or 'unknown')[:64]}"


def note_denial(*, actor: str, target_kind: str, action: Action | str) -> None:
    """Count one failed login or denied request in this minute's counter (no chain lock).

    One upsert on the request path; flush_denials turns closed minutes into audit events.
    """
    minute = timezone.now().replace(second=0, microsecond=0)
    table = DenialCounter._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (minute, actor, target_kind, action, count) "  # noqa: S608
            "VALUES (%s, %s, %s, %s, 1) ON CONFLICT (minute, actor, target_kind, action) "
            f"DO UPDATE SET count = {table}.count + 1",
            [minute, actor[:80], target_kind[:64], Action(action).value],
        )


def flush_denials(*, now: Any = None) -> int:
    """Append one audit event per counter of every closed minute, then drop the counters.

    Run by the minutely `flush_denials_task` and by the audit viewer before it reads (so
    an installation without beat shows them too). Events carry the count, the minute and
    the actor (a user, or the address only as a keyed hash); never a plain address.
    """
    current_minute = (now or timezone.now()).replace(second=0, microsecond=0)
    if not DenialCounter.objects.filter(minute__lt=current_minute).exists():
        return 0  # the common case costs one indexed read, not the chain's lock
    # The events describe other requests: this one's IP and id must not leak into them.
    token = set_request_context(RequestContext())
    try:
        with audited_change():
            closed = list(
                DenialCounter.objects.select_for_update(skip_locked=True)
                .filter(minute__lt=current_minute)
                .order_by("minute", "pk")
            )
            users = _users_by_pk(row.actor for row in closed)
            for row in closed:
                kind, _, ident = row.actor.partition(":")
                data = {"count": row.count, "minute": row.minute.isoformat()}
                if kind == "address":
                    data["address_hmac"] = ident
                record(
                    actor=users.get(ident, "anonymous") if kind == "user" else "anonymous",
                    action=row.action,
                    target_type=row.target_kind,
                    data=data,
                )
            DenialCounter.objects.filter(pk__in=[row.pk for row in closed]).delete()
    finally:
        reset_request_context(token)
    return len(closed)


def _users_by_pk(actors: Iterator[str]) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    pks = {actor.partition(":")[2] for actor in actors if actor.startswith("user:")}
    if not pks:
        return {}
    users = get_user_model().objects.select_related("service_account").filter(pk__in=pks)
    return {str(user.pk): user for user in users}
