"""Celery tasks of the memory app: thin wrappers around services, taking ids."""

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.utils.dateparse import parse_datetime

from apps.core.jobs import run_exclusive_job
from apps.core.models import JobTrigger
from apps.memory.services import archive_due_items, expire_items, record_recall_accesses


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
    """Hourly: archive (or delete, per tenant) active items past their expires_at."""

    def work(run):
        archived, deleted = expire_items()
        return {
            **archived.as_dict(),
            "deleted": deleted.total,
            "deleted_by_tenant": deleted.as_dict()["by_tenant"],
            "batches": archived.batches + deleted.batches,
        }

    return run_exclusive_job("expiry", work, trigger=trigger)


def _save_progress(run, counts) -> None:
    """Keep the run's running total visible while a long sweep goes on."""
    run.counts["archived_so_far"] = counts.total
    run.save(update_fields=["counts"])
