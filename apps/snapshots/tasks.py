"""Celery tasks of the snapshots app: thin wrappers taking job ids (eager when no broker)."""

from celery import shared_task

from apps.snapshots.services import jobs

# Large packages take a while: the limits are the job's, not the default half hour.
_LIMITS = {"time_limit": 6 * 3600, "soft_time_limit": 6 * 3600 - 60}


@shared_task(acks_late=True, **_LIMITS)
def export_snapshot_task(job_id: int) -> str:
    """Write an export job's package; a no-op once the job has run."""
    return jobs.run_export(job_id=job_id)


@shared_task(acks_late=True, **_LIMITS)
def dry_run_task(job_id: int) -> str:
    """Validate an uploaded package and store its dry-run report."""
    return jobs.run_dry_run(job_id=job_id)


@shared_task(acks_late=True, **_LIMITS)
def apply_task(job_id: int) -> str:
    """Apply a restore whose mapping and on-conflict choice were made."""
    return jobs.run_apply(job_id=job_id)
