"""Recording recall accesses: one set-based UPDATE per recall, off the request path."""

from collections.abc import Sequence
from datetime import datetime

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.scoring import reinforcement_updates
from apps.tenancy.models import Tenant


def record_recall_accesses(
    *,
    item_ids: Sequence[str],
    accessed_at: datetime,
    tenant_id: int,
    scope_id: int,
    actor: Actor,
) -> int:
    """Reinforce every recalled item with ONE set-based UPDATE and audit the counts."""
    with audited_change():
        threshold = Tenant.objects.values_list("archive_threshold", flat=True).get(pk=tenant_id)
        updated = MemoryItem.objects.filter(
            pk__in=list(item_ids),
            tenant_id=tenant_id,
            scope_id=scope_id,
            status=MemoryStatus.ACTIVE,
        ).update(**reinforcement_updates(accessed_at=accessed_at, threshold=threshold))
        record(
            actor=actor,
            action=Action.MEMORY_RECALLED,
            target_type="memory.scope",
            target_id=str(scope_id),
            tenant=tenant_id,
            scope=scope_id,
            data={"hits": len(item_ids), "updated": updated},
        )
    return updated
