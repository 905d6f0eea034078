"""The one way a periodic job records itself (ARCHITECTURE §10).

    with record_job_run("conflict_scan", trigger=trigger) as run:
        run.counts["opened"] = ...

The run is saved as `running` before the body starts, so the console can tell a job in
progress (or one whose worker died) from one that never ran. On success it becomes
`succeeded` (or `skipped` when the body called `skip_job_run`); on an exception it becomes
`failed` with the exception's type and the run's error is re-raised. Only the type (and a
service error's code) is kept: a database error's message can quote row values, and
memory content must never reach a record outside the memory tables.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from apps.core.errors import ServiceError
from apps.core.models import JobOutcome, JobRun, JobTrigger


def describe_failure(error: BaseException) -> str:
    """What a failed run keeps of its exception: the type, and a service error's code."""
    kind = type(error)
    name = f"{kind.__module__}.{kind.__qualname__}"
    if isinstance(error, ServiceError):
        return f"{name} (code {error.code})"
    return name


def skip_job_run(run: JobRun) -> None:
    """Mark the run skipped (e.g. another run holds the job's lock); it ends normally."""
    run.outcome = JobOutcome.SKIPPED


@contextmanager
def record_job_run(job: str, *, trigger: str = JobTrigger.MANUAL) -> Iterator[JobRun]:
    """Keep a JobRun around the body: running, then succeeded, skipped or failed."""
    run = JobRun.objects.create(job=job, trigger=JobTrigger(trigger), outcome=JobOutcome.RUNNING)
    try:
        yield run
    except BaseException as error:
        run.outcome = JobOutcome.FAILED
        run.error = describe_failure(error)
        _finish(run)
        raise
    if run.outcome == JobOutcome.RUNNING:
        run.outcome = JobOutcome.SUCCEEDED
    _finish(run)


def _finish(run: JobRun) -> None:
    run.finished_at = timezone.now()
    run.save(update_fields=["outcome", "error", "counts", "finished_at"])


def sync_beat_schedule(*, using: str = DEFAULT_DB_ALIAS, **_signal_kwargs: object) -> None:
    """Copy settings' CELERY_BEAT_SCHEDULE into django-celery-beat's tables (after
    `migrate`), so admins see every schedule before beat's first start. Idempotent: it
    updates each entry by name, the way beat itself does when it starts."""
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import ModelEntry

    from memory_console.celery import app

    table = PeriodicTask._meta.db_table
    if table not in connections[using].introspection.table_names():
        return  # django-celery-beat's migrations have not run (e.g. `migrate core`)
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        ModelEntry.from_entry(name, app=app, **entry)
