"""Admin: browse deletion requests and the denylist; every change goes through the
services (the console's screens), so the admin is read-only here."""

from django.contrib import admin

from apps.core.admin import ReadOnlyAdmin
from apps.privacy.models import DeletionRequest, DenylistEntry


@admin.register(DeletionRequest)
class DeletionRequestAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "tenant", "subject_masked", "status", "received_at", "due_at")
    list_filter = ("status", "tenant")
    search_fields = ("=subject_hash", "=reference")
    exclude = ("subject_sealed", "identifiers_sealed")
    show_full_result_count = False


@admin.register(DenylistEntry)
class DenylistEntryAdmin(ReadOnlyAdmin):
    list_display = ("digest", "kind", "tenant", "request", "created_at", "lifted_at")
    list_filter = ("kind", "tenant")
    search_fields = ("=digest",)
