"""Every state change around conflicts: opening, superseding, resolving, undoing, scanning.

Item changes go through apps.memory.services.update_item so each one keeps its version
history and audit event. Resolutions tag their versions with reference "conflict:<pk>"
and change "conflict.resolved"; that is what revert_resolution (and the item history
page) use to undo exactly what a resolution did.

Decisions (docs/conflicts.md repeats them):
- keep_both: both items stay active, and the incoming one gets the key
  "<key>#<first 8 hex of its id>" so they are two facts from then on and neither the
  gate nor the bulk scan flags them again; undo restores the original key.
- reinstate: the reinstated item becomes active again and every active item of the
  same scope and key (its successor) becomes superseded *by it* — kept, linked and
  reinstatable in turn, never archived, so the operation is its own inverse.
- bulk scan, non-LWW keys: the oldest active value stands; each newer, different
  value waits as pending_review in a conflict against it. LWW keys: the newest wins.
"""

import json
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record
from apps.conflicts.models import Conflict, ConflictStatus, DetectedBy, Resolution
from apps.conflicts.policy import is_last_write_wins
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion, Tenant
from apps.memory.services import snapshot_version, update_item

BULK_SCAN_ACTOR = "conflict-scan"


class ConflictError(Exception):
    """A conflict operation that cannot be done; `message` is shown to the person."""

    code = "invalid"

    def __init__(self, message: str, *, fields: dict | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}


class AlreadyResolved(ConflictError):
    code = "already_resolved"


class NotResolved(ConflictError):
    code = "not_resolved"


class RevertBlocked(ConflictError):
    code = "changed_since"


class InvalidContent(ConflictError):
    code = "invalid_content"


class NotSuperseded(ConflictError):
    code = "not_superseded"


def _too_large(limit: int) -> InvalidContent:
    return InvalidContent(
        f"Merged content is limited to {limit // 1024} KiB.", fields={"content": "too large"}
    )


def parse_merged_content(raw: Any) -> dict:
    """Accept merged content as a JSON object (or its text) of at most the content limit."""
    limit = settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES
    if isinstance(raw, str):
        if len(raw.encode()) > limit:
            raise InvalidContent(
                f"Merged content is limited to {limit // 1024} KiB.",
                fields={"content": "too large"},
            )
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise InvalidContent(
                f"Merged content is not valid JSON: {exc.msg} (line {exc.lineno}, column "
                f"{exc.colno}).",
                fields={"content": "invalid JSON"},
            ) from None
    if not isinstance(raw, dict) or not raw:
        raise InvalidContent(
            'Merged content must be a non-empty JSON object, e.g. {"city": "Haidian"}.',
            fields={"content": "must be a JSON object"},
        )
    if len(json.dumps(raw, ensure_ascii=False).encode()) > limit:
        raise _too_large(limit)
    return raw


# --- detection: superseding and opening --------------------------------------------


def contradicting_items(*, scope_id: int, key: str, content_hash: str, exclude_id=None):
    """Active items of the scope with the same key and a different value, newest first."""
    queryset = MemoryItem.objects.filter(
        scope_id=scope_id, key=key, status=MemoryStatus.ACTIVE
    ).exclude(content_hash=content_hash)
    if exclude_id is not None:
        queryset = queryset.exclude(pk=exclude_id)
    return queryset.order_by("-created_at", "-pk")


def supersede_items(*, item_ids: list, successor: MemoryItem, actor: Any) -> int:
    """Mark old values superseded by their successor (last-write-wins); kept and reinstatable."""
    with transaction.atomic():
        for item_id in item_ids:
            update_item(
                item_id=item_id,
                changes={"status": MemoryStatus.SUPERSEDED, "superseded_by_id": successor.pk},
                actor=actor,
                action=Action.MEMORY_SUPERSEDED,
                reference=f"item:{successor.pk}",
            )
    return len(item_ids)


def open_conflict(
    *,
    existing: MemoryItem,
    incoming: MemoryItem,
    actor: Any,
    detected_by: DetectedBy = DetectedBy.GATE,
) -> Conflict:
    """Record that `incoming` contradicts `existing`; the incoming item must wait for review.

    The caller has already stored (or is storing) the incoming item as pending_review;
    bulk detection moves it there through `hold_for_review`.
    """
    with transaction.atomic():
        conflict = Conflict.objects.create(
            tenant_id=incoming.tenant_id,
            scope_id=incoming.scope_id,
            key=incoming.key,
            existing_item=existing,
            incoming_item=incoming,
            detected_by=detected_by,
        )
        record(
            actor=actor,
            action=Action.CONFLICT_OPENED,
            target=conflict,
            tenant=conflict.tenant_id,
            scope=conflict.scope_id,
            data={"detected_by": str(detected_by)},
        )
    return conflict


def hold_for_review(*, existing: MemoryItem, incoming: MemoryItem, actor: Any, detected_by):
    """Open a conflict for an already stored item and take it out of recall meanwhile."""
    with transaction.atomic():
        conflict = open_conflict(
            existing=existing, incoming=incoming, actor=actor, detected_by=detected_by
        )
        update_item(
            item_id=incoming.pk,
            changes={"status": MemoryStatus.PENDING_REVIEW},
            actor=actor,
            action=Action.CONFLICT_OPENED,
            reference=conflict.reference,
        )
    return conflict


def apply_conflict_policy(*, item_id: Any, actor: Any) -> str:
    """Apply the tenant's conflict policy to a stored, active item (e.g. after a release).

    Returns "superseded" (LWW: older values superseded), "conflict" (the item now waits
    for review) or "none".
    """
    with transaction.atomic():
        item = MemoryItem.objects.select_for_update().select_related("tenant").get(pk=item_id)
        if not item.key or item.status != MemoryStatus.ACTIVE:
            return "none"
        others = list(
            contradicting_items(
                scope_id=item.scope_id,
                key=item.key,
                content_hash=item.content_hash,
                exclude_id=item.pk,
            )
        )
        if not others:
            return "none"
        if is_last_write_wins(item.tenant, item.key):
            supersede_items(item_ids=[other.pk for other in others], successor=item, actor=actor)
            return "superseded"
        hold_for_review(existing=others[0], incoming=item, actor=actor, detected_by=DetectedBy.GATE)
        return "conflict"


@dataclass
class DetectionReport:
    """What one bulk scan found and did; counts only, no content."""

    groups: int = 0
    superseded: int = 0
    opened: int = 0
    conflict_ids: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"groups": self.groups, "superseded": self.superseded, "opened": self.opened}


def contradiction_groups(*, tenant: Tenant | None = None, scope_ids=None):
    """(tenant, scope, key) groups holding active items with more than one distinct value.

    One GROUP BY … HAVING count(DISTINCT content_hash) > 1 over the (scope, key, status)
    index: the cost follows the table once, not a query per item.
    """
    queryset = MemoryItem.objects.filter(status=MemoryStatus.ACTIVE).exclude(key="")
    if tenant is not None:
        queryset = queryset.filter(tenant=tenant)
    if scope_ids is not None:
        queryset = queryset.filter(scope_id__in=list(scope_ids))
    return (
        queryset.values("tenant_id", "scope_id", "key")
        .annotate(values=Count("content_hash", distinct=True))
        .filter(values__gt=1)
        .order_by("tenant_id", "scope_id", "key")
    )


def _settle_group(*, tenant: Tenant, scope_id: int, key: str, actor: Any, report) -> None:
    items = list(
        MemoryItem.objects.select_for_update()
        .filter(scope_id=scope_id, key=key, status=MemoryStatus.ACTIVE)
        .order_by("created_at", "pk")
    )
    if len({item.content_hash for item in items}) < 2:
        return  # settled by a concurrent write since the scan
    if is_last_write_wins(tenant, key):
        winner = items[-1]
        losers = [item.pk for item in items if item.content_hash != winner.content_hash]
        report.superseded += supersede_items(item_ids=losers, successor=winner, actor=actor)
        return
    standing = items[0]
    for item in items[1:]:
        if item.content_hash == standing.content_hash:
            continue  # the same value twice is dedupe's business, not a contradiction
        conflict = hold_for_review(
            existing=standing, incoming=item, actor=actor, detected_by=DetectedBy.BULK_SCAN
        )
        report.opened += 1
        report.conflict_ids.append(conflict.pk)


def detect_conflicts(
    *, tenant: Tenant | None = None, scope_ids=None, actor: Any = BULK_SCAN_ACTOR
) -> DetectionReport:
    """Find every contradiction among active items (imports, restores) and apply the policy.

    Idempotent: afterwards each (scope, key) holds one value among active items, so a
    second run finds nothing. Each group is settled in its own transaction.
    """
    report = DetectionReport()
    groups = list(contradiction_groups(tenant=tenant, scope_ids=scope_ids))
    tenants = {t.pk: t for t in Tenant.objects.filter(pk__in={g["tenant_id"] for g in groups})}
    for group in groups:
        report.groups += 1
        with transaction.atomic():
            _settle_group(
                tenant=tenants[group["tenant_id"]],
                scope_id=group["scope_id"],
                key=group["key"],
                actor=actor,
                report=report,
            )
    with transaction.atomic():
        record(
            actor=actor,
            action=Action.JOB_RUN,
            target_type="job",
            target_id="detect_conflicts",
            tenant=tenant,
            data={"job": "detect_conflicts", **report.as_dict()},
        )
    return report


# --- resolution ---------------------------------------------------------------------


def newest_resolution(conflict: Conflict) -> Resolution:
    """'Keep newest': keep whichever side was written last (a missing side never wins)."""
    old, new = conflict.existing_item, conflict.incoming_item
    if new is None:
        return Resolution.KEEP_OLD
    if old is None or new.created_at >= old.created_at:
        return Resolution.KEEP_NEW
    return Resolution.KEEP_OLD


def _change(item: MemoryItem, conflict: Conflict, actor: Any, **changes) -> MemoryItem:
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


def _apply_resolution(conflict: Conflict, resolution: str, merged: dict | None, actor) -> int:
    """Change the items as the resolution says; returns how many items were touched."""
    ids = [pk for pk in (conflict.existing_item_id, conflict.incoming_item_id) if pk]
    current = {item.pk: item for item in MemoryItem.objects.filter(pk__in=ids)}
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
    actor: Any,
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
    merged = parse_merged_content(content) if resolution == Resolution.MERGE else None
    reason = (reason or "").strip()
    with transaction.atomic():
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


def bulk_keep_newest(*, conflicts: list[Conflict], actor: Any, reason: str) -> BulkResult:
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


# --- undo ---------------------------------------------------------------------------


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


def revert_resolution(*, conflict_id: int, actor: Any, reason: str = "") -> Conflict:
    """Undo a resolution: each touched item returns to its version before it; reopen."""
    with transaction.atomic():
        conflict = Conflict.objects.select_for_update().get(pk=conflict_id)
        if conflict.status != ConflictStatus.RESOLVED:
            raise NotResolved(f"Conflict {conflict_id} is open; there is no resolution to undo.")
        touches = resolution_touches(conflict)
        items = MemoryItem.objects.select_for_update().in_bulk(list(touches))
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
                "Another open conflict already covers these two memories; resolve it instead."
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


# --- reinstatement ------------------------------------------------------------------


def reinstate_item(*, item_id: Any, actor: Any, reason: str = "") -> MemoryItem:
    """Bring a superseded memory back; whatever replaced it is superseded by it in turn."""
    with transaction.atomic():
        item = MemoryItem.objects.select_for_update().get(pk=item_id)
        if item.status != MemoryStatus.SUPERSEDED:
            raise NotSuperseded(
                f"{item.public_id} is {item.status}; only a superseded memory can be reinstated."
            )
        if item.key:
            replaced = MemoryItem.objects.filter(
                scope_id=item.scope_id, key=item.key, status=MemoryStatus.ACTIVE
            ).exclude(pk=item.pk)
        else:
            replaced = MemoryItem.objects.filter(
                pk=item.superseded_by_id, status=MemoryStatus.ACTIVE
            )
        replaced_ids = list(replaced.order_by("created_at").values_list("pk", flat=True))
        item = update_item(
            item_id=item.pk,
            changes={"status": MemoryStatus.ACTIVE, "superseded_by_id": None},
            actor=actor,
            action=Action.MEMORY_REINSTATED,
            reference=f"item:{item.superseded_by_id}" if item.superseded_by_id else "",
            audit_data={"superseding": len(replaced_ids), "reason_length": len(reason)},
        )
        supersede_items(item_ids=replaced_ids, successor=item, actor=actor)
    return item
