"""Appending to the audit chain: building an event, then stamping, linking and inserting it
(one round trip on PostgreSQL). apps.audit.services.record is the door most callers use.
"""

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from apps.audit.context import current_request_context
from apps.audit.models import Action, ActorKind, AuditEvent
from apps.audit.verification import (
    GENESIS_HASH,
    canonical,
    canonical_pieces,
    link_hash,
    normalise_ip,
)
from apps.core.types import Actor
from memory_console.db import insert_rows, insert_rows_then

# Arbitrary constant naming the advisory lock that serialises appends to the chain head.
CHAIN_LOCK_KEY = 0x4D43_4155  # "MCAU"
_MAX_METADATA_BYTES = 4096


class AuditError(ValueError):
    """An audit call that would write something the log must not hold."""


def canonical_event(event: AuditEvent) -> bytes:
    """Serialise the hashed fields of an event deterministically."""
    return canonical(_hashed_fields(event))


def _hashed_fields(event: AuditEvent) -> dict[str, Any]:
    return {
        "sequence": event.sequence,
        "occurred_at": event.occurred_at and event.occurred_at.isoformat(timespec="microseconds"),
        "actor_kind": event.actor_kind,
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "action": event.action,
        "target_type": event.target_type,
        "target_id": event.target_id,
        "tenant_id": event.tenant_id,
        "scope_id": event.scope_id,
        "ip": event.ip,
        "request_id": event.request_id,
        "metadata": event.metadata,
    }


def chain_hash(prev_hash: str, event: AuditEvent) -> str:
    """hash = sha256(prev_hash ‖ canonical(event))."""
    return link_hash(prev_hash, canonical_event(event))


def _describe_actor(actor: Actor | None) -> tuple[str, int | None, str]:
    if actor is None or isinstance(actor, str):
        return ActorKind.SYSTEM, None, actor or "system"
    kind = ActorKind.SERVICE_ACCOUNT if hasattr(actor, "service_account") else ActorKind.USER
    return kind, actor.pk, actor.get_username()


def _as_id(value: Any) -> int | None:
    """A model instance or id as the integer the column stores (and the hash must see)."""
    value = getattr(value, "pk", value)
    return None if value is None else int(value)


def _chain_head() -> tuple[int, str]:
    """The head the next event extends, (sequence, hash), where the database serialises
    writers itself (SQLite); PostgreSQL appends in audit_append_events instead."""
    head = AuditEvent.objects.order_by("-sequence").values_list("sequence", "hash").first()
    return (head[0], head[1]) if head else (0, GENESIS_HASH)


def new_event(
    *,
    actor: Actor | None,
    action: Action | str,
    target: Model | None = None,
    target_type: str = "",
    target_id: str = "",
    tenant: Any = None,
    scope: Any = None,
    data: dict | None = None,
) -> AuditEvent:
    """An event in this request's context, not yet in the chain: append_events stamps,
    links and inserts it.

    `actor` is a user (person or service account), or a job name for system work.
    `data` is small metadata: never memory content, never a plain subject identifier
    (use apps.audit.hashing.keyed_hash).
    """
    action = Action(action)
    metadata_text = json.dumps(data or {}, default=str)
    if len(metadata_text) > _MAX_METADATA_BYTES:
        raise AuditError("Audit metadata is limited to 4 KiB; it must not carry content.")
    if target is not None:
        target_type = target_type or target._meta.label_lower
        target_id = target_id or str(target.pk)
    kind, actor_id, actor_label = _describe_actor(actor)
    request_context = current_request_context()
    return AuditEvent(
        actor_kind=kind,
        actor_id=actor_id,
        actor_label=actor_label[:150],
        action=action.value,
        target_type=target_type[:64],
        target_id=str(target_id)[:64],
        tenant_id=_as_id(tenant),
        scope_id=_as_id(scope),
        ip=normalise_ip(request_context.ip),
        request_id=request_context.request_id,
        # What the hash covers is what the column returns: JSON's own types, not Python's.
        metadata=json.loads(metadata_text),
    )


def append_events(
    events: Sequence[AuditEvent],
    *,
    with_rows: Sequence[Model] = (),
    with_inserts: Sequence[tuple[str, Sequence[Any]]] = (),
) -> None:
    """Stamp, link and insert events into the chain, in order; call it last inside the
    transaction of the change. `with_rows`, the new rows of the change itself (items,
    their first versions), are inserted in the same statement, and so are `with_inserts`
    ((sql, params) of INSERTs into tables without a model, e.g. the vector index).

    On PostgreSQL that statement is the whole append, however many events: the chain's
    lock, its head, the links and the inserts happen in audit_append_events (one round
    trip). The lock is held until the transaction ends, so appends never interleave.
    """
    if not events:
        raise ValueError("append_events needs at least one event.")
    if connection.vendor == "postgresql":
        _append_in_database(events, with_rows, with_inserts)
        return
    with transaction.atomic(savepoint=False):  # the events live or die with the change
        sequence, prev_hash = _chain_head()
        now = timezone.now()  # one time for the events, like the database's append
        for event in events:
            sequence += 1
            event.sequence, event.occurred_at, event.prev_hash = sequence, now, prev_hash
            event.hash = prev_hash = chain_hash(prev_hash, event)
        insert_rows(*with_rows, *events)
        if with_inserts:
            with connection.cursor() as cursor:
                for sql, params in with_inserts:
                    cursor.execute(sql, params)


# The lock's key is a constant of the text, not a parameter: one fewer of the 50 (below).
_APPEND_EVENTS_SQL = f"SELECT * FROM audit_append_events({CHAIN_LOCK_KEY:d}, %s::jsonb)"  # noqa: S608
# The event's columns audit_append_events takes from each object of its JSON array.
_APPENDED_COLUMNS = (
    "actor_kind",
    "actor_id",
    "actor_label",
    "action",
    "target_type",
    "target_id",
    "tenant_id",
    "scope_id",
    "ip",
    "request_id",
    "metadata",
)


def _append_in_database(
    events: Sequence[AuditEvent],
    with_rows: Sequence[Model],
    with_inserts: Sequence[tuple[str, Sequence[Any]]] = (),
) -> None:
    """append_events on PostgreSQL: the lock, the head, the links and the inserts in one
    call of audit_append_events (migration 0007), in the statement of `with_rows`.

    The events go as one JSON array: one parameter however many events, so the statement
    of one item, its version, its vector and its event stays under the 50 parameters whose
    rewriting psycopg caches (beyond them, rewriting it cost ~0.3 ms CPU per write).
    """
    payload = []
    for event in events:
        before_time, before_sequence, after_sequence = canonical_pieces(_hashed_fields(event))
        payload.append(
            {
                "before_time": before_time,
                "before_sequence": before_sequence,
                "after_sequence": after_sequence,
                **{name: getattr(event, name) for name in _APPENDED_COLUMNS},
            }
        )
    rows = insert_rows_then(
        _APPEND_EVENTS_SQL,
        [json.dumps(payload)],
        *with_rows,
        inserts=with_inserts,
    )
    for event, (pk, sequence, occurred_at, prev_hash, hash_) in zip(events, rows, strict=True):
        event.pk, event.sequence, event.occurred_at = pk, sequence, occurred_at
        event.prev_hash, event.hash = prev_hash, hash_
        event._state.adding, event._state.db = False, "default"
