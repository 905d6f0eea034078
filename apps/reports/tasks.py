"""Celery tasks of the reports app: thin wrappers around selectors and services."""

from celery import shared_task
from django.db import OperationalError

from apps.core.jobs import record_job_run
from apps.core.models import JobTrigger
from apps.reports.selectors import refresh_installation_summary
from apps.reports.services import check_review_queues


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def refresh_dashboard_summary_task(trigger: str = JobTrigger.MANUAL) -> int:
    """Recount the dashboard's per-tenant figures so no page view pays for the GROUP BY.

    Schedule it a little more often than SUMMARY_TTL_SECONDS (e.g. every 4 minutes) on
    large installations; returns how many tenants were counted.
    """
    with record_job_run("dashboard_summary", trigger=trigger) as run:
        counts, _ = refresh_installation_summary()
        run.counts["tenants"] = len(counts)
    return len(counts)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def check_review_queues_task(repair: bool = True, trigger: str = JobTrigger.MANUAL) -> dict:
    """The weekly invariant check: every pending item has an open review; requeues strays."""
    with record_job_run("review_queue_check", trigger=trigger) as run:
        found = check_review_queues(repair=repair).as_dict()
        run.counts.update(found)
    return found
