"""Admin for the shared records: job runs are evidence of what ran, never edited."""

from django.contrib import admin

from apps.audit.admin import ReadOnlyAdmin
from apps.core.models import JobRun


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    list_display = ("job", "trigger", "outcome", "started_at", "finished_at", "counts", "error")
    list_filter = ("job", "outcome", "trigger")
    show_full_result_count = False
    list_per_page = 50
