"""The agent's verbs on existing memories (the REST API's): edit, forget, feedback, merge.

New content (edit, merge) is judged through the gate's door (services.gate.screen_content);
every item change goes through the primitives of services.items.
"""

from collections.abc import Callable
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.memory import wiring
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.scoring import default_half_life, penalise, reinforce
from apps.memory.services.gate import screen_content
from apps.memory.services.items import StaleVersion, update_item


def _changes(item: MemoryItem, name: str, value: Any) -> bool:
    """Whether setting `name` to `value` would change the item (sealed content: always)."""
    if name == "content" and item.sensitive:
        return True
    return getattr(item, name) != value


def patch_item(
    *, item_id: Any, changes: dict[str, Any], actor: Actor, expected_version: int
) -> MemoryItem:
    """Edit an item (optimistically locked); new content is screened like a new write."""
    with transaction.atomic():
        item = MemoryItem.objects.select_related("tenant", "scope").get(pk=item_id)
        if item.version != expected_version:
            raise StaleVersion(item.version)
        changes = {name: value for name, value in changes.items() if _changes(item, name, value)}
        if not changes:
            return item  # nothing to change: the version (and the history) stays as it is
        callbacks: list[Callable[[MemoryItem], None]] = []
        if "content" in changes:
            callbacks = screen_content(
                item=item, content=changes["content"], changes=changes, actor=actor
            ).callbacks
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
            wiring.run_hooks(wiring.current().after_edit, item_id=item.pk, actor=actor)
            moved_on = True
        if moved_on:
            item.refresh_from_db()
    return item


def forget_item(*, item_id: Any, actor: Actor) -> MemoryItem:
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
        wiring.run_hooks(wiring.current().after_forget, item_id=item_id, actor=actor)
    return forgotten


class FeedbackSignal(models.TextChoices):
    POSITIVE = "positive", "Positive"
    NEGATIVE = "negative", "Negative"


def give_feedback(*, item_id: Any, signal: str, actor: Actor) -> MemoryItem:
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


def merge_items(*, item_ids: list[Any], actor: Actor, content: dict | None = None) -> MemoryItem:
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
            callbacks = screen_content(
                item=survivor, content=content, changes=changes, actor=actor
            ).callbacks
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
