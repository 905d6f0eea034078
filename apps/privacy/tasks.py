"""Celery tasks of the privacy app: thin wrappers taking ids (eager when no broker)."""

from celery import shared_task
from django.db import OperationalError

from apps.privacy.services import erasure


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def execute_erasure_task(request_id: int) -> str:
    """Run or resume an erasure; idempotent (a no-op once the request is completed)."""
    return erasure.execute_erasure(request_id=request_id).status
