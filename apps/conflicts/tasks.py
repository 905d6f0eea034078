"""Celery tasks of the conflicts app: thin wrappers around the services."""

from celery import shared_task
from django.db import OperationalError

from apps.conflicts.services import detect_conflicts
from apps.core.jobs import run_exclusive_job
from apps.core.models import JobTrigger
from apps.tenancy.models import Tenant


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def detect_conflicts_task(tenant_id: int | None = None, trigger: str = JobTrigger.MANUAL) -> dict:
    """The weekly bulk scan; the job's advisory lock keeps two runs from overlapping."""

    def work(run):
        tenant = Tenant.objects.get(pk=tenant_id) if tenant_id else None
        return detect_conflicts(tenant=tenant).as_dict()

    return run_exclusive_job("conflict_scan", work, trigger=trigger)
