"""run_job runs a scheduled job now and prints its outcome; schedules are declared in
settings and visible (editable) in django-celery-beat's tables."""

from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from apps.core.jobs import sync_beat_schedule
from apps.core.models import JobOutcome, JobRun, JobTrigger
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db


def _run(job: str) -> str:
    out = StringIO()
    call_command("run_job", job, stdout=out)
    return out.getvalue()


def test_run_job_decay_prints_its_outcome_and_counts(tenant_a):
    past = timezone.now() - timedelta(days=1)
    MemoryItemFactory.create_batch(2, scope=ScopeFactory(tenant=tenant_a), archive_due_at=past)
    printed = _run("decay")
    assert printed.startswith("decay: succeeded")
    assert "  archived: 2" in printed
    assert '  by_tenant: {"tenant-a": 2}' in printed
    run = JobRun.objects.get(job="decay")
    assert (run.trigger, run.outcome, run.counts["archived"]) == (
        JobTrigger.MANUAL,
        JobOutcome.SUCCEEDED,
        2,
    )


@pytest.mark.parametrize("job", ["expiry", "weekly_audit", "gdpr_sla", "vector_index"])
def test_run_job_runs_every_scheduled_job(job, tenant_a):
    assert _run(job).startswith(f"{job}: succeeded")
    assert JobRun.objects.filter(job=job, outcome=JobOutcome.SUCCEEDED).count() == 1


def test_run_job_refuses_an_unknown_job():
    with pytest.raises(CommandError):
        call_command("run_job", "vacuum")


@pytest.mark.parametrize(
    ("entry", "task", "minutes", "hours", "weekdays"),
    [
        ("weekly-audit", "apps.reports.tasks.weekly_audit_task", {0}, {3}, {1}),
        ("daily-decay-archival", "apps.memory.tasks.decay_task", {15}, {2}, set(range(7))),
        ("hourly-expiry", "apps.memory.tasks.expiry_task", {5}, set(range(24)), set(range(7))),
        (
            "daily-large-scope-vector-indexes",
            "apps.memory.tasks.index_large_scopes_task",
            {45},
            {2},
            set(range(7)),
        ),
        (
            "hourly-gdpr-sla-watch",
            "apps.reports.tasks.gdpr_sla_task",
            {10},
            set(range(24)),
            set(range(7)),
        ),
    ],
)
def test_the_schedules_are_declared_in_settings_and_copied_to_beat(
    entry, task, minutes, hours, weekdays
):
    declared = settings.CELERY_BEAT_SCHEDULE[entry]
    schedule = declared["schedule"]
    assert declared["task"] == task and declared["kwargs"] == {"trigger": "scheduled"}
    assert (schedule.minute, schedule.hour, schedule.day_of_week) == (minutes, hours, weekdays)
    assert settings.CELERY_TIMEZONE == "UTC"
    sync_beat_schedule()
    stored = PeriodicTask.objects.get(name=entry)
    assert stored.task == task and stored.enabled
    assert stored.crontab.hour == str(schedule._orig_hour)


def test_the_weekly_chain_verify_is_folded_into_the_weekly_audit():
    weekly = [
        name
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
        if entry["task"] == "apps.audit.tasks.verify_audit_chain_task"
        and not entry.get("kwargs", {}).get("full")
    ]
    assert weekly == []
