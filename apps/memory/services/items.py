"""The primitives of MemoryItem state. Every write to a MemoryItem goes through here.

`create_item`, `update_item` and `delete_items` keep the version history
(MemoryVersion), the optimistic lock (`version`), the derived columns (text, hash,
archive_due_at) and the audit event together in one transaction. Other apps
(quarantine, conflicts, privacy) call them instead of saving or deleting items themselves.
"""

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from apps.audit.models import Action, AuditEvent
from apps.audit.services import append_events, audited_change, new_event, record
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.core.validation import ensure_storable
from apps.memory import wiring
from apps.memory.content import content_hash, render_text
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.scoring import compute_archive_due_at
from apps.memory.vectors import new_vectors_insert, store_vector
from memory_console.db import delete_by_keys, insert_rows

# Fields whose change moves the instant the item decays below the threshold.
_SCORING_FIELDS = {"importance", "half_life_days", "last_access_at"}
# Fields that decide whether (and what) the item's vector-index row is (vectors.indexed).
_VECTOR_FIELDS = {"embedding", "embedding_model", "status", "expires_at"}


class StaleVersion(ServiceError):
    """The caller edited an older version than the one stored (answer 409)."""

    code = "version_conflict"
    status = 409

    def __init__(self, current_version: int):
        message = f"The memory is at version {current_version}; reload and retry."
        super().__init__(
            message, fields={"version": [message]}, extra={"current_version": current_version}
        )
        self.current_version = current_version


def refresh_archive_due_at(item: MemoryItem) -> None:
    """Recompute when the item's decayed score will cross its tenant's archive threshold."""
    item.archive_due_at = compute_archive_due_at(
        importance=item.importance,
        half_life_days=item.half_life_days,
        last_access_at=item.last_access_at,
        threshold=item.tenant.archive_threshold,
    )


def version_of(
    *, item: MemoryItem, change: str, actor: Actor | None, reference: str = ""
) -> MemoryVersion:
    """The history row of the item as it now stands, under its current version (unsaved)."""
    return MemoryVersion(
        item=item,
        version=item.version,
        content=item.content,
        text=item.text,
        key=item.key,
        status=item.status,
        importance=item.importance,
        superseded_by_id=item.superseded_by_id,
        change=str(change),
        reference=reference,
        changed_by=None if actor is None or isinstance(actor, str) else actor,
    )


def snapshot_version(
    *, item: MemoryItem, change: str, actor: Actor | None, reference: str = ""
) -> None:
    """Store the item as it now stands, under its current version number."""
    insert_rows(version_of(item=item, change=change, actor=actor, reference=reference))


class NewItemRows(NamedTuple):
    """A new item with its first version and its audit event: built, not yet stored."""

    item: MemoryItem
    version: MemoryVersion
    event: AuditEvent


def new_item_rows(
    *,
    values: dict[str, Any],
    actor: Actor,
    action: Action = Action.MEMORY_CREATED,
    reference: str = "",
    audit_data: dict | None = None,
) -> NewItemRows:
    """Check and build a new item with its first version and audit event, unstored:
    create_item stores one at once, a batch of writes stores many in one statement."""
    ensure_storable(values.get("content"))  # the last line, before anything is written
    item = MemoryItem(**values)
    item.last_access_at = item.last_access_at or timezone.now()
    if not item.text:
        item.text = render_text(item.content)
    item.content_hash = item.content_hash or content_hash(item.content)
    refresh_archive_due_at(item)
    event = new_event(
        actor=actor,
        action=action,
        target=item,
        tenant=item.tenant_id,
        scope=item.scope_id,
        data={"status": item.status, **(audit_data or {})},
    )
    version = version_of(item=item, change=action, actor=actor, reference=reference)
    return NewItemRows(item, version, event)


def store_items(rows: Sequence[NewItemRows]) -> None:
    """Insert built items with their first versions, their embeddings' rows in the vector
    index (none without pgvector) and their audit events, in order: one statement after
    the chain's head however many there are."""
    vectors = new_vectors_insert([row.item for row in rows if row.item.embedding])
    # No savepoint: a failed insert has nothing to salvage, so it fails the caller's
    # transaction too (two fewer round trips per write through the gate).
    with transaction.atomic(savepoint=False):
        append_events(
            [row.event for row in rows],
            with_rows=[*(row.item for row in rows), *(row.version for row in rows)],
            with_inserts=[vectors] if vectors else (),
        )


def create_item(
    *,
    values: dict[str, Any],
    actor: Actor,
    action: Action = Action.MEMORY_CREATED,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Insert a new item with its first version and audit event."""
    rows = new_item_rows(
        values=values, actor=actor, action=action, reference=reference, audit_data=audit_data
    )
    store_items([rows])
    return rows.item


def update_item(
    *,
    item_id: Any,
    changes: dict[str, Any],
    actor: Actor,
    action: Action,
    expected_version: int | None = None,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Apply field changes under a row lock, bump the version, keep history, audit.

    With `expected_version`, a caller that read an older version gets StaleVersion
    instead of silently overwriting someone else's edit.
    """
    ensure_storable(changes.get("content"))  # the last line, before anything is written
    with audited_change():
        # After the chain's lock (audited_change), the item row only, in the mode an
        # UPDATE takes (FOR NO KEY UPDATE): a key-level lock on it or on its joined
        # tenant would block other writers' foreign-key checks at commit. Every
        # select_for_update here uses no_key for the same reason; keys never change.
        item = (
            MemoryItem.objects.select_for_update(no_key=True, of=("self",))
            .select_related("tenant")
            .get(pk=item_id)
        )
        if expected_version is not None and item.version != expected_version:
            raise StaleVersion(item.version)
        for field, value in changes.items():
            setattr(item, field, value)
        if "content" in changes:
            item.text = changes.get("text") or render_text(item.content)
            # A stage may key the hash itself (sealed content hashes its plaintext, keyed).
            item.content_hash = changes.get("content_hash") or content_hash(item.content)
        if _SCORING_FIELDS & changes.keys():
            refresh_archive_due_at(item)
        item.version += 1
        item.save()
        if _VECTOR_FIELDS & changes.keys():  # leaving active, the trigger deletes it too
            store_vector(item)
        # The new version row goes in the audit event's statement (one round trip).
        record(
            actor=actor,
            action=action,
            target=item,
            tenant=item.tenant_id,
            scope=item.scope_id,
            data={"fields": sorted(changes), "version": item.version, **(audit_data or {})},
            with_rows=(version_of(item=item, change=action, actor=actor, reference=reference),),
        )
    return item


class RollbackRefused(ServiceError):
    """A rollback that would take an item out of (or around) a review queue."""

    code = "rollback_refused"
    status = 409


# Statuses that mean "waiting in a review queue": each needs its open review record
# (a quarantine entry, a conflict), which a version row does not carry.
_QUEUE_STATUSES = {MemoryStatus.QUARANTINED, MemoryStatus.PENDING_REVIEW}


def rollback_to_version(*, item_id: Any, version: int, actor: Actor, reason: str) -> MemoryItem:
    """Restore an item's content, key and importance as they stood at `version`.

    The status follows the restored value instead of being copied from history, so a
    rollback never leaves an item waiting in no queue: a version that waited for a
    conflict review comes back active and meets the conflict policy like an edit (a
    still-contradicted value opens a new conflict and waits again); a version held in
    quarantine, or an item waiting in a queue now, is refused with the reason.
    """
    reason = (reason or "").strip()
    if not reason:
        raise RollbackRefused("Say why you roll this memory back.", fields={"reason": "required"})
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).get(pk=item_id)
        old = MemoryVersion.objects.get(item_id=item_id, version=version)
        if item.status in _QUEUE_STATUSES:
            raise RollbackRefused(
                f"{item.public_id} is waiting for review ({item.get_status_display().lower()}); "
                "decide it in its review queue before rolling it back."
            )
        if old.status == MemoryStatus.QUARANTINED:
            raise RollbackRefused(
                f"Version {version} was held in quarantine; rolling back to it would hide "
                "the memory from every review queue. Roll back to a reviewed version instead."
            )
        status = MemoryStatus.ACTIVE if old.status == MemoryStatus.PENDING_REVIEW else old.status
        restored = update_item(
            item_id=item_id,
            changes={
                "content": old.content,
                "key": old.key,
                "status": status,
                "importance": old.importance,
                "superseded_by_id": old.superseded_by_id if status != MemoryStatus.ACTIVE else None,
            },
            actor=actor,
            action=Action.MEMORY_ROLLED_BACK,
            audit_data={"to_version": version, "reason_length": len(reason)},
        )
        if restored.key and restored.status == MemoryStatus.ACTIVE:
            # The restored value is checked against its key like an edit: a contradiction
            # opens a conflict (the item waits again), last-write-wins keys supersede.
            wiring.run_hooks(wiring.current().after_edit, item_id=restored.pk, actor=actor)
            restored.refresh_from_db()
    return restored


def activate_item(
    *,
    item_id: Any,
    actor: Actor,
    action: Action,
    changes: dict[str, Any] | None = None,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Return a held item to active use (a quarantine release), then run the checks its
    held write skipped (the after-release hooks: the conflict policy)."""
    with transaction.atomic():
        item = update_item(
            item_id=item_id,
            changes={"status": MemoryStatus.ACTIVE, **(changes or {})},
            actor=actor,
            action=action,
            reference=reference,
            audit_data=audit_data,
        )
        wiring.run_hooks(wiring.current().after_release, item_id=item_id, actor=actor)
    return item


# Ids per DELETE statement: bounded parameter lists, each one set-based.
_DELETE_BATCH = 1000


def delete_items(*, item_ids: Iterable[Any]) -> int:
    """Hard-delete items with their versions; returns how many items were deleted.

    The one way a MemoryItem row is deleted (quarantine reject, blast radius, erasure):
    set-based, a batch of ids per statement. Versions go with their items; rows of other
    apps pointing at an item (queue entries, conflicts, successors) keep their own row
    with the link cleared. The caller audits the decision that deleted them.
    """
    ids = list(dict.fromkeys(item_ids))
    deleted = 0
    with transaction.atomic():
        for start in range(0, len(ids), _DELETE_BATCH):
            batch = ids[start : start + _DELETE_BATCH]
            fast = delete_by_keys(MemoryItem, batch)  # same effect, set-based (PostgreSQL)
            if fast is not None:
                deleted += fast
                continue
            counts = MemoryItem.objects.filter(pk__in=batch).delete()[1]
            deleted += counts.get(MemoryItem._meta.label, 0)
    return deleted
