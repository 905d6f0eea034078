"""The snapshot screens: jobs of the user's tenants, start an export, upload a package,
follow a job's progress (htmx polling), read the dry run, choose and apply, download.

Thin: selectors choose what the user may see (404 otherwise; the section answers 403 to
whoever holds no snapshot permission at all), services do the work. Package files are
served only here, after the same permission check.
"""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from apps.core.errors import ServiceError
from apps.core.htmx import is_partial
from apps.snapshots.forms import DecisionForm, ExportForm, UploadForm
from apps.snapshots.models import JobKind, JobStatus, SnapshotJob
from apps.snapshots.selectors import jobs_visible_to, snapshot_tenants_for
from apps.snapshots.services import jobs


class SnapshotSection(LoginRequiredMixin):
    section = "snapshots:list"


def _job(request: HttpRequest, pk: int) -> SnapshotJob:
    return get_object_or_404(
        jobs_visible_to(request.user).select_related("tenant", "created_by"), pk=pk
    )


def _list(request, *, export_form=None, upload_form=None, status=200) -> HttpResponse:
    tenants = snapshot_tenants_for(request.user).only("slug", "name")
    context = {
        "jobs": jobs_visible_to(request.user).select_related("tenant", "created_by")[:100],
        "export_form": export_form or ExportForm(tenants=tenants),
        "upload_form": upload_form or UploadForm(tenants=tenants),
    }
    return render(request, "snapshots/list.html", context, status=status)


class JobListView(SnapshotSection, View):
    """Recent exports and restores, and the forms that start them."""

    def get(self, request: HttpRequest) -> HttpResponse:
        return _list(request)


class ExportView(SnapshotSection, View):
    def post(self, request: HttpRequest) -> HttpResponse:
        tenants = snapshot_tenants_for(request.user)
        form = ExportForm(request.POST, tenants=tenants)
        if not form.is_valid():
            return _list(request, export_form=form, status=400)
        tenant = get_object_or_404(tenants, slug=form.cleaned_data["tenant"])
        try:
            job = jobs.start_export(
                tenant=tenant,
                scope_keys=form.cleaned_data["scopes"],
                passphrase=form.cleaned_data["passphrase"],
                actor=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return _list(request, export_form=form, status=error.status)
        return redirect("snapshots:detail", pk=job.pk)


class UploadView(SnapshotSection, View):
    def post(self, request: HttpRequest) -> HttpResponse:
        tenants = snapshot_tenants_for(request.user)
        form = UploadForm(request.POST, request.FILES, tenants=tenants)
        if not form.is_valid():
            return _list(request, upload_form=form, status=400)
        tenant = get_object_or_404(tenants, slug=form.cleaned_data["tenant"])
        try:
            job = jobs.start_restore(
                tenant=tenant,
                upload=form.cleaned_data["package"],
                passphrase=form.cleaned_data["passphrase"],
                mapping=form.cleaned_data["parsed_mapping"],
                on_conflict=form.cleaned_data["on_conflict"],
                actor=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return _list(request, upload_form=form, status=error.status)
        return redirect("snapshots:detail", pk=job.pk)


def _decision_form(job: SnapshotJob, data=None, files=None) -> DecisionForm:
    initial = {
        "mapping": "\n".join(f"{old}={new}" for old, new in job.mapping.items()),
        "on_conflict": job.on_conflict,
    }
    return DecisionForm(data, files, initial=initial)


class JobDetailView(SnapshotSection, View):
    """A job's progress (polled by htmx while it runs), its dry run, choices and outcome."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        job = _job(request, pk)
        context = {"job": job, "decision": _decision_form(job)}
        if is_partial(request, target="job-status"):
            return render(request, "snapshots/partials/status.html", context)
        return render(request, "snapshots/detail.html", context)


class DecideView(SnapshotSection, View):
    """Dry-run again with new choices, or apply the restore."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        job = _job(request, pk)
        form = _decision_form(job, request.POST, request.FILES)
        if not form.is_valid():
            context = {"job": job, "decision": form}
            return render(request, "snapshots/detail.html", context, status=400)
        try:
            jobs.choose_and_apply(
                job_id=job.pk,
                mapping=form.cleaned_data["parsed_mapping"],
                on_conflict=form.cleaned_data["on_conflict"],
                apply=request.POST.get("action") == "apply",
                actor=request.user,
            )
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("snapshots:detail", pk=job.pk)


class DownloadView(SnapshotSection, View):
    """The export's package file, to whoever may see the job."""

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        job = _job(request, pk)
        if job.kind != JobKind.EXPORT or job.status != JobStatus.SUCCEEDED:
            raise Http404
        path = jobs.package_path(job)
        if not path.exists():
            raise Http404
        filename = f"{job.tenant.slug}-{job.created_at:%Y%m%d-%H%M%S}.mcpkg"
        return FileResponse(
            path.open("rb"),
            as_attachment=True,
            filename=filename,
            content_type="application/octet-stream",
        )
