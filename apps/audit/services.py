"""Writing the audit log: one `record` call per state change, inside its transaction."""

import hashlib
import json
from typing import Any

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from apps.audit.context import current_request_context
from apps.audit.models import Action, ActorKind, AuditEvent

GENESIS_HASH = "0" * 64
# Arbitrary constant naming the advisory lock that serialises appends to the chain head.
_CHAIN_LOCK_KEY = 0x4D43_4155  # "MCAU"
_MAX_METADATA_BYTES = 4096


class AuditError(ValueError):
    """An audit call that would write something the log must not hold."""


def canonical_event(event: AuditEvent) -> bytes:
    """Serialise the hashed fields of an event deterministically."""
    payload = {
        "sequence": event.sequence,
        "occurred_at": event.occurred_at.isoformat(timespec="microseconds"),
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
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_hash(prev_hash: str, event: AuditEvent) -> str:
    """hash = sha256(prev_hash ‖ canonical(event))."""
    return hashlib.sha256(prev_hash.encode() + canonical_event(event)).hexdigest()


def _describe_actor(actor: Any) -> tuple[str, int | None, str]:
    if actor is None or isinstance(actor, str):
        return ActorKind.SYSTEM, None, actor or "system"
    kind = ActorKind.SERVICE_ACCOUNT if hasattr(actor, "service_account") else ActorKind.USER
    return kind, actor.pk, actor.get_username()


def record(
    *,
    actor: Any,
    action: Action | str,
    target: Model | None = None,
    target_type: str = "",
    target_id: str = "",
    tenant: Any = None,
    scope: Any = None,
    data: dict | None = None,
) -> AuditEvent:
    """Append one event to the chain; call it last inside the transaction of the change.

    `actor` is a user (person or service account), or a job name for system work.
    `data` is small metadata: never memory content, never a plain subject identifier
    (use apps.audit.hashing.keyed_hash).
    """
    action = Action(action)
    metadata = data or {}
    if len(json.dumps(metadata, default=str)) > _MAX_METADATA_BYTES:
        raise AuditError("Audit metadata is limited to 4 KiB; it must not carry content.")
    if target is not None:
        target_type = target_type or target._meta.label_lower
        target_id = target_id or str(target.pk)
    kind, actor_id, actor_label = _describe_actor(actor)
    request_context = current_request_context()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_CHAIN_LOCK_KEY])
        head = AuditEvent.objects.order_by("-sequence").values("sequence", "hash").first()
        event = AuditEvent(
            sequence=(head["sequence"] + 1) if head else 1,
            occurred_at=timezone.now(),
            actor_kind=kind,
            actor_id=actor_id,
            actor_label=actor_label[:150],
            action=action.value,
            target_type=target_type[:64],
            target_id=str(target_id)[:64],
            tenant_id=getattr(tenant, "pk", tenant),
            scope_id=getattr(scope, "pk", scope),
            ip=request_context.ip,
            request_id=request_context.request_id,
            metadata=json.loads(json.dumps(metadata, default=str)),
            prev_hash=head["hash"] if head else GENESIS_HASH,
        )
        event.hash = chain_hash(event.prev_hash, event)
        event.save(force_insert=True)
    return event
