"""Read-only admin view of queue entries; decisions are made in the console (audited)."""

from django.contrib import admin

from apps.quarantine.models import QuarantineEntry


@admin.register(QuarantineEntry)
class QuarantineEntryAdmin(admin.ModelAdmin):
    list_display = ("id", "tenant", "scope", "status", "risk", "source_kind", "created_at")
    list_filter = ("status", "source_kind")
    search_fields = ("source", "run_id", "api_key_prefix")
    list_select_related = ("tenant", "scope")
    show_full_result_count = False  # no COUNT over a large queue

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
