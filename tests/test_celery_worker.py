"""Scheduled work really runs through the broker and a separate worker process."""

import pytest
from celery.result import allow_join_result

from apps.audit.models import AuditVerification
from apps.audit.services import record
from apps.audit.tasks import verify_audit_chain_task

pytestmark = pytest.mark.slow


def test_a_worker_process_verifies_the_audit_chain_sent_through_the_broker(real_celery_worker):
    for n in range(3):
        record(actor="test", action="job.run", data={"n": n})
    # Eager tasks run by threaded tests earlier in the run can leave Celery's process-wide
    # "inside a task" flag set (it is saved and restored without a lock); this test is
    # not inside a task, so it says so.
    with allow_join_result():
        outcome = verify_audit_chain_task.delay(full=True).get(timeout=90)
    assert outcome["ok"] is True
    assert outcome["head_sequence"] >= 3
    assert AuditVerification.objects.filter(ok=True).exists()


def test_a_worker_process_runs_the_weekly_audit_and_stores_the_reports(real_celery_worker):
    from apps.core.models import JobOutcome, JobRun
    from apps.reports.models import HealthReport
    from apps.reports.tasks import weekly_audit_task
    from tests.factories import MemoryItemFactory, ScopeFactory, TenantFactory

    tenant = TenantFactory(slug="worker-tenant")
    MemoryItemFactory.create_batch(3, scope=ScopeFactory(tenant=tenant))
    with allow_join_result():
        outcome = weekly_audit_task.delay(trigger="scheduled").get(timeout=90)
    assert outcome["chain_ok"] is True and outcome["reports"] == 2
    report = HealthReport.objects.get(tenant=tenant)
    assert report.figures["totals"]["items"] == 3
    assert report.figures["chain"]["ok"] is True
    assert HealthReport.objects.filter(tenant=None).exists()
    run = JobRun.objects.get(job="weekly_audit")
    assert (run.trigger, run.outcome) == ("scheduled", JobOutcome.SUCCEEDED)


def test_a_worker_process_exports_a_snapshot_job_and_reports_its_progress(real_celery_worker):
    import time

    from apps.snapshots.models import JobStatus, SnapshotJob
    from apps.snapshots.services import jobs
    from tests.factories import MemoryItemFactory, ScopeFactory, TenantFactory

    tenant = TenantFactory(slug="worker-snapshots")
    MemoryItemFactory.create_batch(5, scope=ScopeFactory(tenant=tenant))
    job = jobs.start_export(tenant=tenant, scope_keys=[], passphrase="", actor="test")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not job.is_running:
            break
        time.sleep(0.5)
    path = jobs.package_path(job)
    try:
        assert job.status == JobStatus.SUCCEEDED, job.error
        assert (job.processed, job.total, job.outcome["items"]) == (5, 5, 5)
        assert path.read_bytes().startswith(b"MCPKG\n") and path.stat().st_size == job.file_size
    finally:
        path.unlink(missing_ok=True)
        SnapshotJob.objects.filter(pk=job.pk).delete()
