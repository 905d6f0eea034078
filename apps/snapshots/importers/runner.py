"""Running an import: each foreign record, cleaned and validated, through the remember gate.

One record at a time, each all-or-nothing (the gate's atomic block: a savepoint inside
a transaction committed every BATCH_SIZE records): a bad record is refused alone, and an
item is written whole or not at all. The import is idempotent: an item
already imported merges into itself (the gate's dedupe), or — when the gate held it
(quarantine, conflict review) — is counted as a duplicate and not written twice.
"""

from collections.abc import Callable, Iterator
from typing import IO

from django.db import transaction

from apps.audit.models import Action
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.memory.api.remember_body import new_memory_from_values, validate_remember_body
from apps.memory.gate import NewMemory
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.services import remember
from apps.snapshots.importers import jsonl, langgraph, mem0
from apps.snapshots.importers.cleaning import BadRecord, Record, Refusal, Unreadable, clean_body
from apps.snapshots.importers.summary import ImportSummary, record_import_summary
from apps.tenancy.keys import parse_scope_key
from apps.tenancy.models import Scope, Tenant

Reader = Callable[..., Iterator[Record | Refusal]]
FORMATS: dict[str, Reader] = {"jsonl": jsonl.read, "mem0": mem0.read, "langgraph": langgraph.read}
# Statuses of an item the gate held back: a re-import of the same content is a duplicate.
_HELD = (MemoryStatus.QUARANTINED, MemoryStatus.PENDING_REVIEW)
_OUTCOME_BY_STATUS: dict[str, str] = {
    MemoryStatus.QUARANTINED: "quarantined",
    MemoryStatus.PENDING_REVIEW: "pending_review",
}
_SCOPE_CACHE_SIZE = 10_000
# Records committed together (one commit per batch, not per record).
BATCH_SIZE = 100


def import_memories(
    *,
    tenant: Tenant,
    format: str,
    stream: IO[bytes],
    actor: Actor,
    on_refusal: Callable[[Refusal], None] = lambda refusal: None,
    on_record: Callable[[int], None] = lambda records: None,
) -> ImportSummary:
    """Map a foreign export onto memory items of `tenant` through the remember gate, and
    audit the counts; refusals are reported to `on_refusal` as they happen."""
    summary = ImportSummary(format=format)
    scopes: dict[str, Scope] = {}
    records = FORMATS[format](stream, tenant_slug=tenant.slug)
    try:
        for batch in _batches(records):
            # One commit per batch; each record is still all-or-nothing (the gate's own
            # atomic block is a savepoint in here).
            with transaction.atomic():
                for record in batch:
                    outcome = _import_one(record, tenant=tenant, actor=actor, scopes=scopes)
                    if isinstance(outcome, Refusal):
                        summary.count("refused")
                        on_refusal(outcome)
                    else:
                        summary.count(outcome)
                    on_record(summary.records)
    except Unreadable as error:
        summary.unreadable = str(error)
    record_import_summary(summary=summary, tenant_id=tenant.pk, actor=actor)
    return summary


def _batches(records: Iterator[Record | Refusal]) -> Iterator[list[Record | Refusal]]:
    """The records in lists of BATCH_SIZE; those read before the file turned out
    unreadable still come out before the error."""
    batch: list[Record | Refusal] = []
    try:
        for record in records:
            batch.append(record)
            if len(batch) == BATCH_SIZE:
                yield batch
                batch = []
    except Unreadable:
        if batch:
            yield batch
        raise
    if batch:
        yield batch


def _import_one(
    record: Record | Refusal, *, tenant: Tenant, actor: Actor, scopes: dict[str, Scope]
) -> str | Refusal:
    """One record through the gate: its outcome (a summary count's name), or a Refusal."""
    if isinstance(record, Refusal):
        return record
    try:
        valid = validate_remember_body({**clean_body(record.body), "tenant": tenant.slug})
        scope = _scope(valid["scope"], tenant=tenant, cache=scopes)
        new = new_memory_from_values(valid, scope=scope)  # refuses an overflowing embedding
    except (BadRecord, ServiceError) as bad:
        return Refusal(record.position, str(bad))
    new.created_at = record.created_at
    if _held_already(new):
        return "merged"
    try:
        result = remember(new=new, actor=actor, action=Action.MEMORY_IMPORTED)
    except ServiceError as refusal:
        if refusal.code == "subject_erased":
            return "skipped_erased"
        return Refusal(record.position, refusal.message)
    if len(scopes) >= _SCOPE_CACHE_SIZE:
        scopes.clear()
    scopes[valid["scope"]] = result.item.scope
    if result.merged:
        return "merged"
    # Anything else (active, or superseded at once by a newer value of its key): imported.
    return _OUTCOME_BY_STATUS.get(result.status, "imported")


def _scope(key: str, *, tenant: Tenant, cache: dict[str, Scope]) -> Scope:
    """The tenant's scope with this key, or an unsaved one the gate's runner creates."""
    if key in cache:
        return cache[key]
    kind, external_id = parse_scope_key(key)
    scope = Scope.objects.filter(tenant=tenant, kind=kind, external_id=external_id).first()
    scope = scope or Scope(kind=kind, external_id=external_id)
    scope.tenant = tenant
    return scope


def _held_already(new: NewMemory) -> bool:
    """Whether the scope holds this content already, held back by the gate (an earlier
    import of it): the gate merges only into active items, so it would add a twin."""
    if new.scope.pk is None:
        return False
    held = MemoryItem.objects.filter(
        scope=new.scope, content_hash=new.content_hash, status__in=_HELD
    )
    return held.exists()
