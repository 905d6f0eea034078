"""State changes of memory items. Every write to a MemoryItem goes through here.

`create_item` and `update_item` are the primitives: they keep the version history
(MemoryVersion), the optimistic lock (`version`), the derived columns (text, hash,
archive_due_at) and the audit event together in one transaction. Other apps
(quarantine, conflicts, privacy) call them instead of saving items themselves.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.errors import ServiceError
from apps.core.validation import ensure_storable, validate_content
from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft, GateRejected, configured_stages, run_hooks
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.scoring import compute_archive_due_at, default_half_life, penalise, reinforce
from memory_console.db import insert_rows

# Fields whose change moves the instant the item decays below the threshold.
_SCORING_FIELDS = {"importance", "half_life_days", "last_access_at"}


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


def version_of(*, item: MemoryItem, change: str, actor: Any, reference: str = "") -> MemoryVersion:
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
        changed_by=actor if getattr(actor, "pk", None) else None,
    )


def snapshot_version(*, item: MemoryItem, change: str, actor: Any, reference: str = "") -> None:
    """Store the item as it now stands, under its current version number."""
    insert_rows(version_of(item=item, change=change, actor=actor, reference=reference))


def create_item(
    *,
    values: dict[str, Any],
    actor: Any,
    action: Action = Action.MEMORY_CREATED,
    reference: str = "",
    audit_data: dict | None = None,
) -> MemoryItem:
    """Insert a new item with its first version and audit event."""
    ensure_storable(values.get("content"))  # the last line, before anything is written
    # No savepoint: a failed insert has nothing to salvage, so it fails the caller's
    # transaction too (two fewer round trips per write through the gate).
    with transaction.atomic(savepoint=False):
        item = MemoryItem(**values)
        item.last_access_at = item.last_access_at or timezone.now()
        if not item.text:
            item.text = render_text(item.content)
        item.content_hash = item.content_hash or content_hash(item.content)
        refresh_archive_due_at(item)
        # The item and its first version in one statement (one round trip).
        insert_rows(item, version_of(item=item, change=action, actor=actor, reference=reference))
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


class RollbackRefused(ServiceError):
    """A rollback that would take an item out of (or around) a review queue."""

    code = "rollback_refused"
    status = 409


# Statuses that mean "waiting in a review queue": each needs its open review record
# (a quarantine entry, a conflict), which a version row does not carry.
_QUEUE_STATUSES = {MemoryStatus.QUARANTINED, MemoryStatus.PENDING_REVIEW}


def rollback_to_version(*, item_id: Any, version: int, actor: Any, reason: str) -> MemoryItem:
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
            run_hooks("MEMORY_CONSOLE_AFTER_EDIT_HOOKS", item_id=restored.pk, actor=actor)
            restored.refresh_from_db()
    return restored


# ---------------------------------------------------------------------------------------
# Agent operations (the REST API's verbs): remember, patch, forget, feedback, merge.


@dataclass(frozen=True)
class RememberResult:
    """What a write through the gate produced: the item, its status, and whether the
    write was folded into an existing item (dedupe) instead of adding one."""

    item: MemoryItem
    status: str
    merged: bool


# Stages that judge content (rather than route the write); edits of content pass them too.
_CONTENT_SCREENING_STAGES = {"sensitive_data", "injection"}


def remember(*, actor: Any, payload: dict, api_key_prefix: str = "") -> RememberResult:
    """Run a write through every gate stage, then persist item, version and audit atomically.

    Stages may refuse (GateRejected), hold the item (status quarantined / pending_review),
    or merge it into an existing one; their on-persist callbacks run after the insert,
    inside the same transaction, so a queue entry never exists without its item.
    """
    draft = Draft(raw=payload, actor=actor, api_key_prefix=api_key_prefix)
    try:
        return _run_gate(draft, actor=actor, api_key_prefix=api_key_prefix)
    except GateRejected as refusal:
        if refusal.code == "sensitive_data" and draft.tenant is not None:
            # Recorded after the write's transaction rolled back, so the refusal survives it.
            record(
                actor=actor,
                action=Action.MEMORY_REJECTED_SENSITIVE,
                target_type="memory.memoryitem",
                tenant=draft.tenant,
                data={"kinds": draft.notes.get("sensitive_kinds", []), "api_key": api_key_prefix},
            )
        raise


def _run_gate(draft: Draft, *, actor: Any, api_key_prefix: str) -> RememberResult:
    with transaction.atomic():
        for stage in configured_stages():
            stage.inspect(draft)
            if draft.merged_into is not None:
                merged = draft.merged_into
                return RememberResult(item=merged, status=merged.status, merged=True)
        audit_data = {"memory_type": draft.values.get("memory_type")}
        if api_key_prefix:
            audit_data["api_key"] = api_key_prefix
        if draft.notes:
            audit_data["gate"] = draft.notes
        item = create_item(
            values={**draft.values, "status": draft.status}, actor=actor, audit_data=audit_data
        )
        for callback in draft.callbacks:
            callback(item)
        if draft.callbacks:  # a callback may have moved the item on (e.g. superseded it)
            item.refresh_from_db(fields=["status", "version", "superseded_by"])
    return RememberResult(item=item, status=item.status, merged=False)


def _screen_content(*, item: MemoryItem, content: dict, actor: Any) -> Draft:
    """Pass new content for an existing item through the content-screening gate stages."""
    values = {
        field.name: getattr(item, field.name)
        for field in MemoryItem._meta.concrete_fields
        if field.name not in {"id", "text", "content_hash", "created_at", "updated_at"}
    }
    # New content starts clean: the old content's sensitivity and seal do not carry over.
    values.update(
        content=content, tenant=item.tenant, scope=item.scope, sensitive=False, sealed_content=""
    )
    raw = {
        "tenant": item.tenant.slug,
        "scope": item.scope.key,
        "memory_type": item.memory_type,
        "content": content,
        "source": item.source,
        "source_kind": item.source_kind,
        "key": item.key,
        "category": item.category,
    }
    draft = Draft(
        raw=raw,
        actor=actor,
        api_key_prefix=item.api_key_prefix,
        tenant=item.tenant,
        scope=item.scope,
        values=values,
        status=item.status,
    )
    for stage in configured_stages():
        if stage.name in _CONTENT_SCREENING_STAGES:
            stage.inspect(draft)
    return draft


def _apply_screened_content(
    *, item: MemoryItem, content: dict, changes: dict, actor: Any
) -> list[Callable[[MemoryItem], None]]:
    """Fold screened content (possibly redacted or sealed, possibly quarantined) into changes."""
    content = validate_content(content)
    draft = _screen_content(item=item, content=content, actor=actor)
    values = draft.values
    changes["content"] = values["content"]
    changes["sensitive"] = bool(values.get("sensitive"))
    changes["sealed_content"] = values.get("sealed_content") or ""
    for derived in ("text", "content_hash"):  # else update_item derives them from content
        if values.get(derived):
            changes[derived] = values[derived]
    if draft.status != item.status:
        changes["status"] = draft.status
    return draft.callbacks


def patch_item(
    *, item_id: Any, changes: dict[str, Any], actor: Any, expected_version: int
) -> MemoryItem:
    """Edit an item (optimistically locked); new content is screened like a new write."""
    with transaction.atomic():
        item = MemoryItem.objects.select_related("tenant", "scope").get(pk=item_id)
        if item.version != expected_version:
            raise StaleVersion(item.version)
        changes = dict(changes)
        callbacks: list[Callable[[MemoryItem], None]] = []
        if "content" in changes:
            callbacks = _apply_screened_content(
                item=item, content=changes["content"], changes=changes, actor=actor
            )
        if {"memory_type", "category"} & changes.keys() and "half_life_days" not in changes:
            changes["half_life_days"] = default_half_life(
                memory_type=changes.get("memory_type", item.memory_type),
                category=changes.get("category", item.category),
                overrides=item.tenant.half_life_overrides,
            )
        item = update_item(
            item_id=item_id,
            changes=changes,
            actor=actor,
            action=Action.MEMORY_UPDATED,
            expected_version=expected_version,
        )
        for callback in callbacks:
            callback(item)
        moved_on = bool(callbacks)
        if {"key", "content"} & changes.keys() and item.key and item.status == MemoryStatus.ACTIVE:
            # A new value (or key) is checked against the other values of its key like a
            # new write: last-write-wins keys supersede them, others wait for review.
            run_hooks("MEMORY_CONSOLE_AFTER_EDIT_HOOKS", item_id=item.pk, actor=actor)
            moved_on = True
        if moved_on:
            item.refresh_from_db()
    return item


def forget_item(*, item_id: Any, actor: Any) -> MemoryItem:
    """Archive an item (soft forget): it leaves recall but is kept until retention or
    erasure removes it. Forgetting an archived or rejected item changes nothing."""
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).get(pk=item_id)
        if item.status in (MemoryStatus.ARCHIVED, MemoryStatus.REJECTED):
            return item
        forgotten = update_item(
            item_id=item_id,
            changes={"status": MemoryStatus.ARCHIVED},
            actor=actor,
            action=Action.MEMORY_FORGOTTEN,
            audit_data={"from_status": item.status},
        )
        run_hooks("MEMORY_CONSOLE_AFTER_FORGET_HOOKS", item_id=item_id, actor=actor)
    return forgotten


class FeedbackSignal(models.TextChoices):
    POSITIVE = "positive", "Positive"
    NEGATIVE = "negative", "Negative"


def give_feedback(*, item_id: Any, signal: str, actor: Any) -> MemoryItem:
    """Positive feedback reinforces S0 and counts as a use; negative cuts S0 sharply."""
    signal = FeedbackSignal(signal)
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).get(pk=item_id)
        if signal == FeedbackSignal.POSITIVE:
            changes = {
                "importance": reinforce(item.importance),
                "last_access_at": timezone.now(),
                "access_count": item.access_count + 1,
            }
        else:
            changes = {"importance": penalise(item.importance)}
        return update_item(
            item_id=item_id,
            changes=changes,
            actor=actor,
            action=Action.MEMORY_FEEDBACK,
            audit_data={"signal": signal.value},
        )


class MergeRefused(ServiceError):
    """The items cannot be merged (different scopes, not active, too few)."""

    def __init__(self, message: str):
        super().__init__(message, fields={"ids": [message]})


def merge_items(*, item_ids: list[Any], actor: Any, content: dict | None = None) -> MemoryItem:
    """Merge active items of one scope into the newest (optionally with new content).

    The survivor gets the summed access counts and the highest importance; the others
    become `superseded` by it. Every item keeps its version history, all in one transaction.
    """
    unique_ids = list(dict.fromkeys(item_ids))
    if len(unique_ids) < 2:
        raise MergeRefused("Give at least two distinct memories to merge.")
    with audited_change():
        # Locked in primary-key order so two concurrent merges cannot deadlock.
        items = list(
            MemoryItem.objects.select_for_update(no_key=True, of=("self",))
            .select_related("tenant", "scope")
            .filter(pk__in=unique_ids)
            .order_by("pk")
        )
        if len(items) != len(unique_ids):
            raise MemoryItem.DoesNotExist
        if len({item.scope_id for item in items}) != 1:
            raise MergeRefused("All memories must belong to the same scope.")
        if any(item.status != MemoryStatus.ACTIVE for item in items):
            raise MergeRefused("Only active memories can be merged.")
        survivor = max(items, key=lambda item: (item.created_at, item.pk.hex))
        others = [item for item in items if item.pk != survivor.pk]
        changes: dict[str, Any] = {
            "access_count": sum(item.access_count for item in items),
            "importance": max(item.importance for item in items),
            "last_access_at": max(item.last_access_at for item in items),
        }
        callbacks: list[Callable[[MemoryItem], None]] = []
        if content is not None:
            callbacks = _apply_screened_content(
                item=survivor, content=content, changes=changes, actor=actor
            )
        reference = f"merge:{survivor.public_id}"
        for other in others:
            update_item(
                item_id=other.pk,
                changes={"status": MemoryStatus.SUPERSEDED, "superseded_by_id": survivor.pk},
                actor=actor,
                action=Action.MEMORY_MERGED,
                reference=reference,
                audit_data={"into": survivor.public_id},
            )
        merged = update_item(
            item_id=survivor.pk,
            changes=changes,
            actor=actor,
            action=Action.MEMORY_MERGED,
            reference=reference,
            audit_data={"merged_count": len(others)},
        )
        for callback in callbacks:
            callback(merged)
        if callbacks:
            merged.refresh_from_db()
    return merged
