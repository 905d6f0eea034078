"""Settling a conflict, in bulk too, and undoing a settlement.

Item changes go through apps.memory.services.update_item with change
"conflict.resolved" and reference "conflict:<pk>", which is what revert_resolution
(and the item history page) use to undo exactly what a resolution did.

keep_both: both items stay active and the incoming one gets the key
"<key>#<first 8 hex of its id>", so they are two facts from then on and neither the
gate nor the bulk scan flags them again; undo restores the original key.
"""

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.conflicts.models import Conflict, ConflictStatus, Resolution
from apps.conflicts.services.errors import (
    AlreadyResolved,
    ConflictError,
    NotResolved,
    RevertBlocked,
)
from apps.core.types import Actor
from apps.core.validation import parse_content
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.services import snapshot_version, update_item


def newest_resolution(conflict: Conflict) -> Resolution:
    """'Keep newest': keep whichever side was written last (a missing side never wins)."""
    old, new = conflict.existing_item, conflict.incoming_item
    if new is None:
        return Resolution.KEEP_OLD
    if old is None or new.created_at >= old.created_at:
        return Resolution.KEEP_NEW
    return Resolution.KEEP_OLD


def _change(item: MemoryItem, conflict: Conflict, actor: Actor, **changes) -> MemoryItem:
    changes = {name: value for name, value in changes.items() if getattr(item, name) != value}
    if not MemoryVersion.objects.filter(item_id=item.pk, version=item.version).exists():
        # Imported rows (bulk_create) may have no history yet; undo needs the state before.
        snapshot_version(item=item, change=Action.MEMORY_IMPORTED, actor=None)
    return update_item(
        item_id=item.pk,
        changes=changes,
        actor=actor,
        action=Action.CONFLICT_RESOLVED,
        reference=conflict.reference,
        audit_data={"conflict": conflict.pk},
    )


def _apply_resolution(
    conflict: Conflict, resolution: str, merged: dict | None, actor: Actor
) -> int:
    """Change the items as the resolution says; returns how many items were touched."""
    ids = [pk for pk in (conflict.existing_item_id, conflict.incoming_item_id) if pk]
    current: dict[Any, MemoryItem] = {
        item.pk: item for item in MemoryItem.objects.filter(pk__in=ids)
    }
    old = current.get(conflict.existing_item_id)
    new = current.get(conflict.incoming_item_id)
    touched = 0
    active = MemoryStatus.ACTIVE
    if resolution == Resolution.KEEP_OLD:
        if new is not None:
            _change(new, conflict, actor, status=MemoryStatus.REJECTED)
            touched += 1
        return touched
    if resolution == Resolution.KEEP_BOTH:
        if new is not None:
            suffixed = f"{conflict.key}#{new.pk.hex[:8]}"[:200]
            _change(new, conflict, actor, status=active, key=suffixed)
            touched += 1
        return touched
    # keep_new and merge: one value survives, the old one is superseded by it.
    survivor = new or old
    if survivor is None:
        return touched
    survivor_changes: dict[str, Any] = {"status": active, "superseded_by_id": None}
    if resolution == Resolution.MERGE:
        survivor_changes["content"] = merged
    _change(survivor, conflict, actor, **survivor_changes)
    touched += 1
    if old is not None and survivor is not old and old.status == active:
        _change(old, conflict, actor, status=MemoryStatus.SUPERSEDED, superseded_by_id=survivor.pk)
        touched += 1
    return touched


def resolve_conflict(
    *,
    conflict_id: int,
    resolution: Resolution | str,
    actor: Actor,
    reason: str = "",
    content: Any = None,
) -> Conflict:
    """Settle an open conflict; the first reviewer wins, a later one gets AlreadyResolved."""
    try:
        resolution = Resolution(resolution)
    except ValueError:
        raise ConflictError(
            "Choose keep_new, keep_old, keep_both or merge.", fields={"resolution": "invalid"}
        ) from None
    merged = parse_content(content) if resolution == Resolution.MERGE else None
    reason = (reason or "").strip()
    with audited_change():
        claimed = Conflict.objects.filter(pk=conflict_id, status=ConflictStatus.OPEN).update(
            status=ConflictStatus.RESOLVED,
            resolution=resolution,
            reason=reason,
            resolved_by=actor,
            resolved_at=timezone.now(),
            undone_by=None,
            undone_at=None,
        )
        if claimed != 1:  # another reviewer got there first (or it never existed)
            raise _already_resolved(conflict_id)
        conflict = Conflict.objects.get(pk=conflict_id)
        touched = _apply_resolution(conflict, resolution, merged, actor)
        record(
            actor=actor,
            action=Action.CONFLICT_RESOLVED,
            target=conflict,
            tenant=conflict.tenant_id,
            scope=conflict.scope_id,
            data={"resolution": resolution.value, "reason_length": len(reason), "items": touched},
        )
    return conflict


def _already_resolved(conflict_id: int) -> Exception:
    conflict = Conflict.objects.select_related("resolved_by").filter(pk=conflict_id).first()
    if conflict is None:
        return Conflict.DoesNotExist(f"No conflict {conflict_id}.")
    who = conflict.resolved_by.get_username() if conflict.resolved_by else "someone"
    when = timezone.localtime(conflict.resolved_at).strftime("%Y-%m-%d %H:%M:%S")
    return AlreadyResolved(
        f"Conflict {conflict_id} was already resolved ({conflict.get_resolution_display()}) "
        f"by {who} at {when}; nothing was changed."
    )


@dataclass
class BulkResult:
    """Outcome of a bulk 'keep newest': which conflicts were settled, which were skipped."""

    resolved: list[int] = field(default_factory=list)
    skipped: dict[int, str] = field(default_factory=dict)


def bulk_keep_newest(*, conflicts: list[Conflict], actor: Actor, reason: str) -> BulkResult:
    """Resolve each selected conflict by keeping its newest value; one transaction each,
    so a conflict someone else just resolved is skipped without undoing the others."""
    result = BulkResult()
    for conflict in conflicts:
        try:
            resolve_conflict(
                conflict_id=conflict.pk,
                resolution=newest_resolution(conflict),
                actor=actor,
                reason=reason,
            )
        except ConflictError as exc:
            result.skipped[conflict.pk] = exc.message
        else:
            result.resolved.append(conflict.pk)
    return result


def resolution_touches(conflict: Conflict) -> dict[Any, tuple[int, int]]:
    """{item id: (first, last) version written by the conflict's latest resolution}."""
    touched: dict[Any, tuple[int, int]] = {}
    rows = (
        MemoryVersion.objects.filter(reference=conflict.reference)
        .order_by("item_id", "version")
        .values_list("item_id", "version", "change")
    )
    for item_id, version, change in rows:
        if change == Action.CONFLICT_REVERTED:
            touched.pop(item_id, None)
        elif change == Action.CONFLICT_RESOLVED:
            first, _ = touched.get(item_id, (version, version))
            touched[item_id] = (first, version)
    return touched


def revert_resolution(*, conflict_id: int, actor: Actor, reason: str = "") -> Conflict:
    """Undo a resolution: each touched item returns to its version before it; reopen."""
    with audited_change():
        conflict = Conflict.objects.select_for_update(no_key=True).get(pk=conflict_id)
        if conflict.status != ConflictStatus.RESOLVED:
            raise NotResolved(f"Conflict {conflict_id} is open; there is no resolution to undo.")
        touches = resolution_touches(conflict)
        items = MemoryItem.objects.select_for_update(no_key=True).in_bulk(list(touches))
        for item_id, (_first, last) in touches.items():
            item = items.get(item_id)
            if item is not None and item.version != last:
                raise RevertBlocked(
                    f"{item.public_id} changed after the resolution (now version "
                    f"{item.version}); roll it back from its history page instead."
                )
        for item_id, (first, _last) in touches.items():
            if item_id not in items:
                continue  # hard-deleted since (quarantine reject, erasure): nothing to restore
            before = MemoryVersion.objects.get(item_id=item_id, version=first - 1)
            item = items[item_id]
            wanted = {
                "content": before.content,
                "key": before.key,
                "status": before.status,
                "importance": before.importance,
                "superseded_by_id": before.superseded_by_id,
            }
            update_item(
                item_id=item_id,
                changes={
                    name: value for name, value in wanted.items() if getattr(item, name) != value
                },
                actor=actor,
                action=Action.CONFLICT_REVERTED,
                reference=conflict.reference,
                audit_data={"conflict": conflict.pk, "to_version": first - 1},
            )
        undone = conflict.resolution
        try:
            with transaction.atomic():
                Conflict.objects.filter(pk=conflict.pk).update(
                    status=ConflictStatus.OPEN,
                    resolution="",
                    resolved_by=None,
                    resolved_at=None,
                    undone_by=actor if getattr(actor, "pk", None) else None,
                    undone_at=timezone.now(),
                )
        except IntegrityError:
            raise ConflictError(
                "Another open conflict already covers these two memories; resolve it instead.",
                status=409,
            ) from None
        conflict.refresh_from_db()
        record(
            actor=actor,
            action=Action.CONFLICT_REVERTED,
            target=conflict,
            tenant=conflict.tenant_id,
            scope=conflict.scope_id,
            data={"undone": undone, "items": len(touches), "reason_length": len(reason)},
        )
    return conflict
