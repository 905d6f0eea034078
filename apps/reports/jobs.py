"""The scheduled jobs a person can run now (`run_job NAME`, the "run now" button), by name.

The names are the JobRun names their tasks record, so /reports/jobs/ pairs each job with
its last run.
"""

from celery import Task

from apps.memory.tasks import decay_task, expiry_task, index_large_scopes_task
from apps.reports.tasks import gdpr_sla_task, weekly_audit_task

JOBS: dict[str, Task] = {
    "decay": decay_task,
    "expiry": expiry_task,
    "weekly_audit": weekly_audit_task,
    "gdpr_sla": gdpr_sla_task,
    "vector_index": index_large_scopes_task,
}
JOB_DESCRIPTIONS = {
    "decay": "Archive memories whose decayed score crossed the threshold (daily).",
    "expiry": "Archive or delete working memories past their expiry (hourly).",
    "weekly_audit": "Verify the audit chain and build the health reports (Mondays 03:00 UTC).",
    "gdpr_sla": "Flag erasure requests due within 48 h or overdue; e-mail officers (hourly).",
    "vector_index": "Give each scope of 10,000+ embedded memories its own vector index (daily).",
}
