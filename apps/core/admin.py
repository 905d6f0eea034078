"""The one read-only admin base, a paginator that never counts a whole big table, and the
admin of job runs."""

from django.contrib import admin
from django.core.paginator import Paginator
from django.utils.functional import cached_property

from apps.core.models import JobRun

COUNT_CAP = 10_000


class CappedCountPaginator(Paginator):
    """Counts at most COUNT_CAP rows (SELECT COUNT(*) FROM (… LIMIT cap)), never the table."""

    @cached_property
    def count(self) -> int:
        return self.object_list.order_by()[:COUNT_CAP].count()


class ReadOnlyAdmin(admin.ModelAdmin):
    """Browse and search only: writes belong to the services (and evidence is never edited)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    """Job runs are evidence of what ran: browse and filter, never edit."""

    list_display = ("job", "trigger", "outcome", "started_at", "finished_at", "counts", "error")
    list_filter = ("job", "outcome", "trigger")
    show_full_result_count = False
    list_per_page = 50
