"""State changes of memory items. Every write to a MemoryItem goes through here.

`create_item` and `update_item` are the primitives: they keep the version history
(MemoryVersion), the optimistic lock (`version`), the derived columns (text, hash,
archive_due_at) and the audit event together in one transaction. Other apps
(quarantine, conflicts, privacy) call them instead of saving items themselves.
"""

from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record
from apps.memory.content import content_hash, render_text
from apps.memory.models import MemoryItem, MemoryVersion
from apps.memory.scoring import compute_archive_due_at

# Fields whose change moves the instant the item decays below the threshold.
_SCORING_FIELDS = {"importance", "half_life_days", "last_access_at"}


class StaleVersion(Exception):
    """The caller edited an older version than the one stored (answer 409)."""

    def __init__(self, current_version: int):
        super().__init__(f"The memory is at version {current_version}; reload and retry.")
        self.current_version = current_version


def refresh_archive_due_at(item: MemoryItem) -> None:
    """Recompute when the item's decayed score will cross its tenant's archive threshold."""
    item.archive_due_at = compute_archive_due_at(
        importance=item.importance,
        half_life_days=item.half_life_days,
        last_access_at=item.last_access_at,
        threshold=item.tenant.archive_threshold,
    )


def snapshot_version(*, item: MemoryItem, change: str, actor: Any, reference: str = "") -> None:
    """Store the item as it now stands, under its current version number."""
    MemoryVersion.objects.create(
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
        changed_by=actor if getattr(actor, "pk", None) else None,
    )


def create_item(
    *,
    values: dict[str, Any],
    actor: Any,
    action: Action = Action.MEMORY_CREATED,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Insert a new item with its first version and audit event."""
    with transaction.atomic():
        item = MemoryItem(**values)
        item.last_access_at = item.last_access_at or timezone.now()
        if not item.text:
            item.text = render_text(item.content)
        item.content_hash = item.content_hash or content_hash(item.content)
        refresh_archive_due_at(item)
        item.save(force_insert=True)
        snapshot_version(item=item, change=action, actor=actor, reference=reference)
        record(
            actor=actor,
            action=action,
            target=item,
            tenant=item.tenant_id,
            scope=item.scope_id,
            data={"status": item.status, **(audit_data or {})},
        )
    return item


def update_item(
    *,
    item_id: Any,
    changes: dict[str, Any],
    actor: Any,
    action: Action,
    expected_version: int | None = None,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Apply field changes under a row lock, bump the version, keep history, audit.

    With `expected_version`, a caller that read an older version gets StaleVersion
    instead of silently overwriting someone else's edit.
    """
    with transaction.atomic():
        item = MemoryItem.objects.select_for_update().select_related("tenant").get(pk=item_id)
        if expected_version is not None and item.version != expected_version:
            raise StaleVersion(item.version)
        for field, value in changes.items():
            setattr(item, field, value)
        if "content" in changes:
            item.text = changes.get("text") or render_text(item.content)
            item.content_hash = content_hash(item.content)
        if _SCORING_FIELDS & changes.keys():
            refresh_archive_due_at(item)
        item.version += 1
        item.save()
        snapshot_version(item=item, change=action, actor=actor, reference=reference)
        record(
            actor=actor,
            action=action,
            target=item,
            tenant=item.tenant_id,
            scope=item.scope_id,
            data={"fields": sorted(changes), "version": item.version, **(audit_data or {})},
        )
    return item


def rollback_to_version(*, item_id: Any, version: int, actor: Any) -> MemoryItem:
    """Restore an item's content, key, status and importance as they stood at `version`."""
    old = MemoryVersion.objects.get(item_id=item_id, version=version)
    return update_item(
        item_id=item_id,
        changes={
            "content": old.content,
            "key": old.key,
            "status": old.status,
            "importance": old.importance,
            "superseded_by_id": old.superseded_by_id,
        },
        actor=actor,
        action=Action.MEMORY_ROLLED_BACK,
        audit_data={"to_version": version},
    )
