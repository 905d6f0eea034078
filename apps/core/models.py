"""Shared records: one row per run of a periodic job (ARCHITECTURE §10)."""

from django.db import models
from django.utils import timezone


class JobTrigger(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled (beat)"
    MANUAL = "manual", "Manual"


class JobOutcome(models.TextChoices):
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"


class JobRun(models.Model):
    """One run of a periodic job: when, why, how it ended and what it counted.

    Written by `apps.core.jobs.record_job_run` around every periodic task. `counts` holds
    figures only and `error` the failure's type, never memory content.
    """

    job = models.CharField(max_length=64)
    trigger = models.CharField(max_length=16, choices=JobTrigger.choices)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(
        max_length=16, choices=JobOutcome.choices, default=JobOutcome.RUNNING
    )
    counts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["job", "-started_at"], name="jobrun_job_started")]

    def __str__(self) -> str:
        return f"{self.job} {self.started_at:%Y-%m-%d %H:%M} {self.outcome}"

    @property
    def duration_seconds(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()
