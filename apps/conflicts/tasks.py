"""Celery tasks of the conflicts app: thin wrappers around the services."""

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from apps.conflicts.services import detect_conflicts
from apps.core.jobs import record_job_run, skip_job_run
from apps.core.models import JobTrigger
from apps.tenancy.models import Tenant

_LOCK_KEY = "conflicts:detect:lock"
_LOCK_SECONDS = 60 * 60


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def detect_conflicts_task(tenant_id: int | None = None, trigger: str = JobTrigger.MANUAL) -> dict:
    """The weekly bulk scan; a lock keeps two runs from overlapping."""
    with record_job_run("conflict_scan", trigger=trigger) as run:
        if not cache.add(_LOCK_KEY, "1", _LOCK_SECONDS):
            skip_job_run(run)
            return {"skipped": "another scan is running"}
        try:
            tenant = Tenant.objects.get(pk=tenant_id) if tenant_id else None
            found = detect_conflicts(tenant=tenant).as_dict()
        finally:
            cache.delete(_LOCK_KEY)
        run.counts.update(found)
    return found
