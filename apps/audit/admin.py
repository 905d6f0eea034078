"""Read-only admin for the audit log: it can be searched, never edited."""

from django.contrib import admin

from apps.audit.models import AuditCheckpoint, AuditEvent, AuditVerification
from apps.core.admin import ReadOnlyAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = (
        "sequence",
        "occurred_at",
        "actor_kind",
        "actor_label",
        "action",
        "target_type",
        "target_id",
        "tenant_id",
        "scope_id",
        "ip",
    )
    list_filter = ("action", "actor_kind", "occurred_at")
    search_fields = ("=sequence", "actor_label", "=target_id", "=request_id", "=hash")
    date_hierarchy = None  # a date hierarchy counts every row per level: too slow at millions
    show_full_result_count = False
    list_per_page = 50
    ordering = ("-sequence",)


@admin.register(AuditCheckpoint)
class AuditCheckpointAdmin(ReadOnlyAdmin):
    list_display = ("sequence", "count", "head_hash", "created_at")


@admin.register(AuditVerification)
class AuditVerificationAdmin(ReadOnlyAdmin):
    list_display = (
        "ran_at",
        "ok",
        "checked",
        "head_sequence",
        "first_bad_sequence",
        "checkpoint_source",
        "duration_ms",
    )
    list_filter = ("ok", "checkpoint_source")
