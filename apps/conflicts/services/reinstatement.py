"""Reinstating a superseded memory from its page.

The reinstated item becomes active again and every active item of the same scope and
key (its successor) becomes superseded *by it*: kept, linked and reinstatable in turn,
never archived, so the operation is its own inverse.
"""

from typing import Any

from apps.audit.models import Action
from apps.audit.services import audited_change
from apps.conflicts.services.detection import supersede_items
from apps.conflicts.services.errors import NotSuperseded
from apps.core.types import Actor
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.services import update_item


def reinstate_item(*, item_id: Any, actor: Actor, reason: str = "") -> MemoryItem:
    """Bring a superseded memory back; whatever replaced it is superseded by it in turn."""
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).get(pk=item_id)
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
                pk__in=[item.superseded_by_id], status=MemoryStatus.ACTIVE
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
