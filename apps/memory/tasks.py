"""Celery tasks of the memory app: thin wrappers around services, taking ids."""

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.utils.dateparse import parse_datetime

from apps.memory.services import record_recall_accesses


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def record_recall_accesses_task(
    item_ids: list[str],
    accessed_at: str,
    *,
    tenant_id: int,
    scope_id: int,
    actor_id: int | None = None,
) -> int:
    """Apply one recall's accesses (reinforcement, archive_due_at) in one UPDATE."""
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    return record_recall_accesses(
        item_ids=item_ids,
        accessed_at=parse_datetime(accessed_at),
        tenant_id=tenant_id,
        scope_id=scope_id,
        actor=actor or "recall",
    )
