"""Conflict stage of the remember gate (ARCHITECTURE §4, step 5).

Same scope and key, a different value: on a last-write-wins key the old item is
superseded once the new one is saved; on any other key the new item is stored as
pending_review (never recalled while it waits) and a Conflict is opened against the
newest active value. Quarantined drafts are left alone: they are not facts yet.
"""

from apps.conflicts.models import DetectedBy
from apps.conflicts.policy import is_last_write_wins
from apps.conflicts.services import contradicting_items, open_conflict, supersede_items
from apps.conflicts.services.detection import lock_fact
from apps.memory.content import content_hash
from apps.memory.gate import Draft
from apps.memory.models import MemoryStatus


def supersede_older_values(item, *, actor) -> int:
    """At persist time, under the (scope, key) lock: every other value is now the old one."""
    lock_fact(scope_id=item.scope_id, key=item.key)
    others = contradicting_items(
        scope_id=item.scope_id, key=item.key, content_hash=item.content_hash, exclude_id=item.pk
    ).values_list("pk", flat=True)
    return supersede_items(item_ids=list(others), successor=item, actor=actor)


class ConflictStage:
    name = "conflict"

    def inspect(self, draft: Draft) -> None:
        """Supersede (LWW) or hold for review when the key already has another value."""
        memory = draft.memory
        key, scope = memory.key, memory.scope
        if not key or scope is None or scope.pk is None or draft.twin is not None:
            return
        if draft.status != MemoryStatus.ACTIVE:
            return
        incoming_hash = memory.content_hash or content_hash(memory.content or {})
        others = list(
            contradicting_items(scope_id=scope.pk, key=key, content_hash=incoming_hash).only(
                "pk", "tenant_id", "scope_id", "key", "created_at"
            )
        )
        if not others:
            return
        actor = draft.actor
        if is_last_write_wins(memory.tenant, key):
            draft.notes["conflict"] = "superseded"
            draft.on_persist(lambda item: supersede_older_values(item, actor=actor))
            return
        draft.status = MemoryStatus.PENDING_REVIEW
        draft.notes["conflict"] = "opened"
        draft.on_persist(
            lambda item: open_conflict(
                existing=others[0], incoming=item, actor=actor, detected_by=DetectedBy.GATE
            )
        )
