"""Read-mostly admin for conflicts: changes go through the review screen's services."""

from django.contrib import admin

from apps.conflicts.models import Conflict


@admin.register(Conflict)
class ConflictAdmin(admin.ModelAdmin):
    list_display = ("id", "tenant", "scope", "key", "status", "resolution", "created_at")
    list_filter = ("status", "resolution", "detected_by")
    search_fields = ("key",)
    raw_id_fields = ("existing_item", "incoming_item", "scope")
    show_full_result_count = False

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
