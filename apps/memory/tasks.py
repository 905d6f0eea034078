"""Celery tasks of the memory app: thin wrappers around services, taking ids.

send_recall_accesses is the one way recall hands its accesses on: to the broker, or,
while the broker is unreachable, to the PendingAccess table (never lost, never slow).
"""

import logging
import time
from datetime import datetime

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError, transaction
from django.utils.dateparse import parse_datetime

from apps.core.jobs import record_job_run, run_exclusive_job
from apps.core.models import JobTrigger
from apps.memory.embedding_provider import EmbeddingUnavailable
from apps.memory.models import PendingAccess
from apps.memory.services import (
    archive_due_items,
    embed_item,
    expire_items,
    record_recall_accesses,
)
from apps.memory.services.idempotency import prune_idempotent_requests
from apps.memory.vectors import index_large_scopes

logger = logging.getLogger("memory_console.broker")

# After the broker failed, recall skips it for this long (straight to the table), so an
# outage costs one short connection attempt per process per period.
BROKER_RETRY_AFTER_SECONDS = 10.0
_broker_down_until = 0.0
APPLY_BATCH = 500


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
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


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def decay_task(trigger: str = JobTrigger.MANUAL) -> dict:
    """Daily: archive active items whose decayed score crossed the threshold."""

    def work(run):
        counts = archive_due_items(on_batch=lambda counts: _save_progress(run, counts))
        run.counts.pop("archived_so_far", None)
        return counts.as_dict()

    return run_exclusive_job("decay", work, trigger=trigger)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def expiry_task(trigger: str = JobTrigger.MANUAL) -> dict:
    """Hourly: archive (or delete, per tenant) active items past their expires_at, and
    drop the stored answers of Idempotency-Keys past their 24 hours."""

    def work(run):
        archived, deleted = expire_items()
        return {
            **archived.as_dict(),
            "deleted": deleted.total,
            "deleted_by_tenant": deleted.as_dict()["by_tenant"],
            "batches": archived.batches + deleted.batches,
            "idempotency_keys_pruned": prune_idempotent_requests(),
        }

    return run_exclusive_job("expiry", work, trigger=trigger)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def index_large_scopes_task(trigger: str = JobTrigger.MANUAL) -> dict:
    """Nightly: give every scope that has grown large its own HNSW index, so hybrid recall
    walks a graph of its own scope instead of the table-wide one."""

    def work(run):
        created = index_large_scopes()
        return {"indexes_created": len(created)}

    return run_exclusive_job("vector_index", work, trigger=trigger)


def _save_progress(run, counts) -> None:
    """Keep the run's running total visible while a long sweep goes on."""
    run.counts["archived_so_far"] = counts.total
    run.save(update_fields=["counts"])


def _broker_errors() -> tuple[type[BaseException], ...]:
    from kombu.exceptions import OperationalError as KombuOperationalError
    from redis.exceptions import RedisError

    return (KombuOperationalError, RedisError, OSError, TimeoutError)


def send_recall_accesses(
    *,
    item_ids: list[str],
    accessed_at: datetime,
    tenant_id: int,
    scope_id: int,
    actor_id: int | None,
) -> bool:
    """Queue one recall's accesses; with the broker down, keep them in PendingAccess.

    Returns True when the broker took them. The fallback is one INSERT and a warning in
    the log; apply_pending_accesses_task applies the rows later.
    """
    global _broker_down_until
    if time.monotonic() >= _broker_down_until:
        try:
            record_recall_accesses_task.apply_async(
                (item_ids, accessed_at.isoformat()),
                {"tenant_id": tenant_id, "scope_id": scope_id, "actor_id": actor_id},
                retry=False,
            )
            return True
        except _broker_errors() as exc:
            _broker_down_until = time.monotonic() + BROKER_RETRY_AFTER_SECONDS
            logger.warning(
                "broker unreachable (%s); recall accesses are kept in the database",
                type(exc).__name__,
            )
    PendingAccess.objects.create(
        item_ids=item_ids,
        accessed_at=accessed_at,
        tenant_id=tenant_id,
        scope_id=scope_id,
        actor_id=actor_id,
    )
    return False


def apply_pending_accesses(*, batch: int = APPLY_BATCH) -> int:
    """Apply the accesses kept while the broker was down, oldest first; returns rows done."""
    done = 0
    while True:
        with transaction.atomic():
            rows = list(
                PendingAccess.objects.select_for_update(skip_locked=True).order_by("pk")[:batch]
            )
            for row in rows:
                actor = (
                    get_user_model().objects.filter(pk=row.actor_id).first()
                    if row.actor_id
                    else None
                )
                record_recall_accesses(
                    item_ids=row.item_ids,
                    accessed_at=row.accessed_at,
                    tenant_id=row.tenant_id,
                    scope_id=row.scope_id,
                    actor=actor or "recall",
                )
            PendingAccess.objects.filter(pk__in=[row.pk for row in rows]).delete()
        done += len(rows)
        if len(rows) < batch:
            return done


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def apply_pending_accesses_task(trigger: str = JobTrigger.MANUAL) -> int:
    """Apply recall accesses kept in the database during a broker outage."""
    with record_job_run("pending_recall_accesses", trigger=trigger) as run:
        run.counts["applied"] = applied = apply_pending_accesses()
    return applied


@shared_task(
    acks_late=True,
    autoretry_for=(EmbeddingUnavailable, OperationalError),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
)
def embed_item_task(item_id: str) -> None:
    """Embed a write that came without an embedding, with the configured provider."""
    embed_item(item_id=item_id)
