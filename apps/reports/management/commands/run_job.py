"""run_job decay|expiry|weekly_audit|gdpr_sla: run a scheduled job now, print its outcome."""

import json

from django.core.management.base import BaseCommand, CommandError

from apps.core.models import JobOutcome, JobRun
from apps.reports.jobs import JOBS


class Command(BaseCommand):
    help = "Run one scheduled job now (in this process) and print its outcome and counts."

    def add_arguments(self, parser):
        parser.add_argument("job", choices=sorted(JOBS))

    def handle(self, *args, job: str, **options):
        latest = JobRun.objects.filter(job=job).order_by("-id").values_list("id", flat=True).first()
        try:
            JOBS[job].apply(kwargs={"trigger": "manual"}).get()
        except Exception as error:  # the run is recorded as failed with the error's type
            raise CommandError(f"{job}: failed ({type(error).__name__})") from error
        run = JobRun.objects.filter(job=job, id__gt=latest or 0).order_by("-id").first()
        if run is None:
            raise CommandError(f"{job}: no run was recorded")
        duration = f" in {run.duration_seconds:.2f}s" if run.duration_seconds is not None else ""
        self.stdout.write(f"{job}: {run.outcome}{duration}")
        if run.error:
            self.stdout.write(run.error)
        for name, value in run.counts.items():
            shown = json.dumps(value, sort_keys=True) if isinstance(value, dict) else value
            self.stdout.write(f"  {name}: {shown}")
        if run.outcome == JobOutcome.FAILED:
            raise CommandError(f"{job}: failed")
