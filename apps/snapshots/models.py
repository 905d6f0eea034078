"""Snapshot jobs: an export or a restore of a MemoryPackage, run by a Celery task from
/snapshots/ (the commands run the same services without a job row).

The package file lives under settings.MEMORY_CONSOLE_SNAPSHOT_DIR, named by the job; it is
served only through the permission-checked download view. A passphrase given in the
console is kept sealed (apps.memory.crypto) only while the job needs it.
"""

from django.conf import settings
from django.db import models


class JobKind(models.TextChoices):
    EXPORT = "export", "Export"
    RESTORE = "restore", "Restore"


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"  # export, or a restore's dry run
    VALIDATED = "validated", "Dry run ready"  # a restore waiting for its apply
    APPLYING = "applying", "Applying"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class OnConflict(models.TextChoices):
    SKIP = "skip", "Skip the incoming value"
    KEEP_BOTH = "keep_both", "Keep both values"
    REVIEW = "review", "Open a conflict for review"


class SnapshotJob(models.Model):
    """One export or restore started in the console, with its progress and outcome."""

    kind = models.CharField(max_length=16, choices=JobKind.choices)
    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.QUEUED)
    # Items handled so far and expected (the page polls these while the task runs).
    processed = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(default=0)
    # Export: the scope keys chosen (empty: the whole tenant).
    scope_keys = models.JSONField(default=list, blank=True)
    # Restore: OLD=NEW pairs and the on-conflict choice.
    mapping = models.JSONField(default=dict, blank=True)
    on_conflict = models.CharField(
        max_length=16, choices=OnConflict.choices, default=OnConflict.SKIP
    )
    uses_passphrase = models.BooleanField(default=False)
    # Fernet token of the passphrase while the job needs it; emptied when it ends.
    passphrase_sealed = models.TextField(blank=True, default="")
    file_name = models.CharField(max_length=200, blank=True, default="")
    file_size = models.PositiveBigIntegerField(default=0)
    # Counts only (per scope for the dry run; never a denylisted scope or subject).
    report = models.JSONField(default=dict, blank=True)
    outcome = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tenant", "-created_at"], name="snapjob_tenant_newest")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def percent(self) -> int:
        if not self.total:
            return 100 if self.status == JobStatus.SUCCEEDED else 0
        return min(100, int(100 * self.processed / self.total))

    @property
    def is_running(self) -> bool:
        return self.status in {JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.APPLYING}
