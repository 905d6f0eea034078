"""Celery tasks for the audit log: thin wrappers the weekly job calls."""

from celery import shared_task
from django.db import OperationalError

from apps.audit.services import flush_denials, verify_chain
from apps.core.jobs import record_job_run
from apps.core.models import JobTrigger


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def flush_denials_task(trigger: str = JobTrigger.MANUAL) -> int:
    """Turn closed minutes of counted denials into audit events (one per actor and kind)."""
    with record_job_run("audit_denials_flush", trigger=trigger) as run:
        run.counts["events"] = written = flush_denials()
    return written


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def verify_audit_chain_task(full: bool = False, trigger: str = JobTrigger.MANUAL) -> dict:
    """Walk the chain (resuming from the latest checkpoint unless `full`) and keep the result."""
    job = "audit_chain_verify_full" if full else "audit_chain_verify"
    with record_job_run(job, trigger=trigger) as run:
        result = verify_chain(actor="weekly_audit", full=full)
        outcome = {
            "ok": result.ok,
            "checked": result.checked,
            "head_sequence": result.head_sequence,
            "first_bad_sequence": result.first_bad_sequence,
            "verification_id": result.pk,
        }
        run.counts.update(outcome)
    return outcome
