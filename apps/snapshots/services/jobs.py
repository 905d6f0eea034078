"""The console's snapshot jobs: a row per export or restore, run by a Celery task.

Start functions check and record what was asked (audited later by the export or restore
itself), keep the package under MEMORY_CONSOLE_SNAPSHOT_DIR, and enqueue the task after
commit. Run functions are what the tasks call: idempotent on the job's status, updating
its progress as they go, and never leaving a passphrase behind once the job ends.
"""

import secrets
from pathlib import Path
from typing import IO

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.memory import crypto
from apps.snapshots.models import JobKind, JobStatus, OnConflict, SnapshotJob
from apps.snapshots.package.keys import MIN_PASSPHRASE
from apps.snapshots.services import export_snapshot, restore_snapshot
from apps.snapshots.services.mapping import Mapping, mapping_from_pairs
from apps.tenancy.models import Tenant

_COPY_BLOCK = 1024 * 1024


class JobStateError(ServiceError):
    code = "invalid_state"
    status = 409


def snapshot_dir() -> Path:
    directory = Path(settings.MEMORY_CONSOLE_SNAPSHOT_DIR)
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    return directory


def package_path(job: SnapshotJob) -> Path:
    return snapshot_dir() / job.file_name


def _person(actor: Actor) -> User | None:
    return None if isinstance(actor, str) else actor


def _seal_passphrase(passphrase: str) -> str:
    if not passphrase:
        return ""
    if len(passphrase) < MIN_PASSPHRASE:
        message = f"A passphrase needs at least {MIN_PASSPHRASE} characters."
        raise ServiceError(message, fields={"passphrase": [message]})
    return crypto.seal(passphrase)


def _passphrase(job: SnapshotJob) -> str | None:
    return crypto.unseal(job.passphrase_sealed) if job.passphrase_sealed else None


def _enqueue(task_name: str, job_id: int) -> None:
    from apps.snapshots import tasks  # the tasks module imports these services

    task = getattr(tasks, task_name)
    transaction.on_commit(lambda: task.delay(job_id))


def start_export(
    *, tenant: Tenant, scope_keys: list[str], passphrase: str, actor: Actor
) -> SnapshotJob:
    """Record an export of the tenant (or chosen scopes) and queue it."""
    with transaction.atomic():
        job = SnapshotJob.objects.create(
            kind=JobKind.EXPORT,
            tenant=tenant,
            scope_keys=scope_keys,
            uses_passphrase=bool(passphrase),
            passphrase_sealed=_seal_passphrase(passphrase),
            created_by=_person(actor),
        )
        job.file_name = f"export-{job.pk}-{secrets.token_hex(8)}.mcpkg"
        job.save(update_fields=["file_name"])
        _enqueue("export_snapshot_task", job.pk)
    return job


def start_restore(
    *,
    tenant: Tenant,
    upload: IO[bytes],
    passphrase: str,
    mapping: Mapping,
    on_conflict: str,
    actor: Actor,
) -> SnapshotJob:
    """Keep an uploaded package and queue its dry run (nothing is restored yet)."""
    with transaction.atomic():
        job = SnapshotJob.objects.create(
            kind=JobKind.RESTORE,
            tenant=tenant,
            mapping=mapping.as_pairs(),
            on_conflict=on_conflict,
            uses_passphrase=bool(passphrase),
            passphrase_sealed=_seal_passphrase(passphrase),
            created_by=_person(actor),
        )
        job.file_name = f"restore-{job.pk}-{secrets.token_hex(8)}.mcpkg"
        size = 0
        with package_path(job).open("wb") as out:
            while block := upload.read(_COPY_BLOCK):
                size += len(block)
                if size > settings.MEMORY_CONSOLE_SNAPSHOT_MAX_UPLOAD:
                    raise ServiceError("The package is larger than this installation accepts.")
                out.write(block)
        job.file_size = size
        job.save(update_fields=["file_name", "file_size"])
        _enqueue("dry_run_task", job.pk)
    return job


def choose_and_apply(
    *, job_id: int, mapping: Mapping, on_conflict: str, apply: bool, actor: Actor
) -> SnapshotJob:
    """Change a validated restore's mapping and on-conflict choice; dry-run it again, or
    apply it. Only a restore whose dry run is ready can move on (409 otherwise)."""
    if on_conflict not in OnConflict.values:
        raise ServiceError("Choose skip, keep both or review for conflicts.")
    with transaction.atomic():
        claimed = SnapshotJob.objects.filter(
            pk=job_id, kind=JobKind.RESTORE, status=JobStatus.VALIDATED
        ).update(
            mapping=mapping.as_pairs(),
            on_conflict=on_conflict,
            status=JobStatus.APPLYING if apply else JobStatus.QUEUED,
            processed=0,
        )
        if claimed != 1:
            raise JobStateError("This restore is not waiting for a decision (already applied?).")
        _enqueue("apply_task" if apply else "dry_run_task", job_id)
    return SnapshotJob.objects.get(pk=job_id)


def _progress(job_id: int):
    def report(done: int, total: int) -> None:
        SnapshotJob.objects.filter(pk=job_id).update(processed=done, total=total)

    return report


def _fail(job_id: int, error: ServiceError) -> None:
    SnapshotJob.objects.filter(pk=job_id).update(
        status=JobStatus.FAILED,
        error=error.message,
        passphrase_sealed="",
        finished_at=timezone.now(),
    )


def _claim(job_id: int) -> SnapshotJob | str:
    """Move a queued job to running and return it, or return the status of a job another
    worker has claimed or that has ended (a redelivered task then does nothing)."""
    claimed = SnapshotJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING
    )
    if not claimed:
        return SnapshotJob.objects.get(pk=job_id).status
    return SnapshotJob.objects.select_related("tenant", "created_by").get(pk=job_id)


def run_export(*, job_id: int) -> str:
    """Write the job's package file (a no-op once the job has ended)."""
    job = _claim(job_id)
    if isinstance(job, str):
        return job
    path = package_path(job)
    try:
        with path.open("wb") as out:
            result = export_snapshot(
                tenant=job.tenant,
                out=out,
                actor=job.created_by or "snapshot_export",
                scope_keys=job.scope_keys,
                passphrase=_passphrase(job),
                progress=_progress(job_id),
            )
    except ServiceError as error:
        path.unlink(missing_ok=True)
        _fail(job_id, error)
        return JobStatus.FAILED
    SnapshotJob.objects.filter(pk=job_id).update(
        status=JobStatus.SUCCEEDED,
        file_size=result.bytes,
        outcome={"items": result.items, "scopes": result.scopes, "key": result.key},
        passphrase_sealed="",
        finished_at=timezone.now(),
    )
    return JobStatus.SUCCEEDED


def _restore(job: SnapshotJob, *, dry_run: bool):
    with package_path(job).open("rb") as stream:
        return restore_snapshot(
            stream=stream,
            tenant=job.tenant,
            actor=job.created_by or "snapshot_restore",
            mapping=mapping_from_pairs(job.mapping.items()),
            on_conflict=job.on_conflict,
            passphrase=_passphrase(job),
            dry_run=dry_run,
            reference=f"snapshot:{job.pk}",
            progress=_progress(job.pk),
        )


def run_dry_run(*, job_id: int) -> str:
    """Validate the whole package and store the dry-run report (writes no memory)."""
    job = _claim(job_id)
    if isinstance(job, str):
        return job
    try:
        result = _restore(job, dry_run=True)
    except ServiceError as error:
        _fail(job_id, error)
        return JobStatus.FAILED
    SnapshotJob.objects.filter(pk=job_id).update(status=JobStatus.VALIDATED, report=result.report)
    return JobStatus.VALIDATED


def run_apply(*, job_id: int) -> str:
    """Validate again and apply atomically; the outcome (counts) is kept on the job."""
    job = SnapshotJob.objects.select_related("tenant", "created_by").get(pk=job_id)
    if job.status != JobStatus.APPLYING:
        return job.status
    try:
        result = _restore(job, dry_run=False)
    except ServiceError as error:
        _fail(job_id, error)
        return JobStatus.FAILED
    SnapshotJob.objects.filter(pk=job_id, status=JobStatus.APPLYING).update(
        status=JobStatus.SUCCEEDED,
        report=result.report,
        outcome=result.outcome or {},
        passphrase_sealed="",
        processed=F("total"),
        finished_at=timezone.now(),
    )
    return JobStatus.SUCCEEDED
