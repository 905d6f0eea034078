"""The dashboard, the analysts' health reports (/reports/) and the admins' job runs
(/reports/jobs/). Aggregates only, limited to the tenants the user may see; never content."""

import csv
import json

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View
from django.views.generic import TemplateView

from apps.access.selectors import has_global_access
from apps.core.models import JobRun
from apps.memory.models import MemoryStatus
from apps.reports.charts import HEADLINE_FIGURES, chart_specs, comparison_rows, flat_rows
from apps.reports.jobs import JOB_DESCRIPTIONS, JOBS
from apps.reports.selectors import (
    SUMMARY_TTL_SECONDS,
    last_run_per_job,
    latest_reports_for,
    memory_counts_by_tenant,
    previous_report,
    reports_visible_to,
)

REPORTS_PER_PAGE = 60
RUNS_SHOWN = 100


class DashboardView(LoginRequiredMixin, TemplateView):
    """Memories per status per visible tenant, the latest report's headline figures and
    the last run of each job (aggregates only, never content)."""

    template_name = "reports/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["dashboard"] = memory_counts_by_tenant(user)
        context["statuses"] = MemoryStatus.choices
        context["summary_minutes"] = SUMMARY_TTL_SECONDS // 60
        context["latest_reports"] = [
            {"report": report, "rows": comparison_rows(report, None)[:6]}
            for report in latest_reports_for(user)
        ]
        context["headline_labels"] = [label for _, label in HEADLINE_FIGURES[:6]]
        context["job_runs"] = last_run_per_job(JOBS) if has_global_access(user) else None
        return context


class ReportListView(LoginRequiredMixin, View):
    """The weekly reports the user may read, newest week first."""

    def get(self, request: HttpRequest) -> HttpResponse:
        reports = list(
            reports_visible_to(request.user).order_by("-week_start", "tenant__slug")[
                :REPORTS_PER_PAGE
            ]
        )
        context = {"reports": reports, "is_admin": has_global_access(request.user)}
        return render(request, "reports/list.html", context)


class ReportDetailView(LoginRequiredMixin, View):
    """One report: a chart for every figure beside the week before, and the comparison."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        report = get_object_or_404(reports_visible_to(request.user), pk=pk)
        previous = previous_report(report)
        context = {
            "report": report,
            "previous": previous,
            "charts": chart_specs(report, previous),
            "comparison": comparison_rows(report, previous),
            "anomalies": report.figures.get("anomalies", {}),
            "chain": report.figures.get("chain", {}),
        }
        return render(request, "reports/detail.html", context)


class ReportDownloadView(LoginRequiredMixin, View):
    """The report's figures as JSON or as CSV rows (figure, value)."""

    def get(self, request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
        report = get_object_or_404(reports_visible_to(request.user), pk=pk)
        about = report.tenant.slug if report.tenant else "installation"
        name = f"health-report-{report.week_start}-{about}"
        if fmt == "json":
            body = {
                "id": report.pk,
                "tenant": report.tenant.slug if report.tenant else None,
                "week_start": report.week_start.isoformat(),
                "period_start": report.period_start.isoformat(),
                "period_end": report.period_end.isoformat(),
                "generated_at": report.generated_at.isoformat(),
                "figures": report.figures,
            }
            response = JsonResponse(body, json_dumps_params={"indent": 2})
        else:
            response = HttpResponse(content_type="text/csv; charset=utf-8")
            writer = csv.writer(response)
            writer.writerow(["figure", "value"])
            for figure, value in flat_rows(report.figures):
                writer.writerow([figure, json.dumps(value) if value is None else value])
        response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
        return response


class AdminRequired(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not has_global_access(request.user):
            raise PermissionDenied("Job runs are for admins.")
        return super().dispatch(request, *args, **kwargs)


class JobRunListView(AdminRequired, View):
    """Every scheduled job with its last run and a "run now" button; recent runs below."""

    def get(self, request: HttpRequest) -> HttpResponse:
        last = last_run_per_job(JOBS)
        jobs = [
            {"name": name, "description": JOB_DESCRIPTIONS[name], "last": last[name]}
            for name in JOBS
        ]
        runs = list(JobRun.objects.order_by("-started_at", "-id")[:RUNS_SHOWN])
        return render(request, "reports/jobs.html", {"jobs": jobs, "runs": runs})


class RunJobView(AdminRequired, View):
    """Queue a job now (through the broker; in-process when none is configured)."""

    def post(self, request: HttpRequest, job: str) -> HttpResponse:
        task = JOBS.get(job)
        if task is None:
            raise Http404
        transaction.on_commit(lambda: task.delay(trigger="manual"))
        messages.success(request, f"{job} queued: its run appears below when a worker takes it.")
        return redirect("reports:jobs")
