"""Django admin for tenants, scopes, memory items and their versions.

Tenant and Scope (apps.tenancy) are registered here because saving a tenant writes an
audit event, and tenancy sits below audit.

Tenants (policies) are edited here, audited. Scopes, items and versions are
read-only: every change to memory goes through apps.memory.services (API, console),
which keeps versions and the audit log. Big tables use a capped count paginator so a
changelist never counts millions of rows.
"""

from django.contrib import admin
from django.db import transaction

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.admin import CappedCountPaginator, ReadOnlyAdmin
from apps.memory.models import MemoryItem, MemoryVersion
from apps.tenancy.models import Scope, Tenant


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = (
        "slug",
        "name",
        "sensitive_policy",
        "archive_threshold",
        "recall_alpha",
        "recall_beta",
        "recall_gamma",
        "erasure_sla_hours",
        "created_at",
    )
    list_filter = ("sensitive_policy",)
    search_fields = ("slug", "name")
    readonly_fields = ("created_at",)
    fieldsets = (
        (None, {"fields": ("slug", "name", "created_at")}),
        ("Remember gate", {"fields": ("sensitive_policy", "lww_key_patterns")}),
        (
            "Recall and decay",
            {
                "fields": (
                    "recall_alpha",
                    "recall_beta",
                    "recall_gamma",
                    "archive_threshold",
                    "half_life_overrides",
                )
            },
        ),
        ("Privacy", {"fields": ("erasure_sla_hours",)}),
    )

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # deleting a tenant would erase memories outside the erasure workflow

    def save_model(self, request, obj, form, change) -> None:
        """Save and audit the policy change in one transaction (field names only)."""
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            record(
                actor=request.user,
                action=Action.TENANT_UPDATED if change else Action.TENANT_CREATED,
                target=obj,
                tenant=obj.pk,
                data={"fields": sorted(form.changed_data)},
            )


@admin.register(Scope)
class ScopeAdmin(ReadOnlyAdmin):
    list_display = ("key_display", "tenant", "kind", "subject", "created_at")
    list_filter = ("kind", "tenant")
    search_fields = ("external_id", "subject")
    list_select_related = ("tenant",)
    show_full_result_count = False
    paginator = CappedCountPaginator

    @admin.display(description="Scope key", ordering="external_id")
    def key_display(self, obj: Scope) -> str:
        return obj.key


class MemoryVersionInline(admin.TabularInline):
    model = MemoryVersion
    fields = ("version", "change", "reference", "status", "importance", "changed_by", "created_at")
    readonly_fields = fields
    ordering = ("-version",)
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(MemoryItem)
class MemoryItemAdmin(ReadOnlyAdmin):
    list_display = (
        "public_id",
        "tenant",
        "scope",
        "memory_type",
        "category",
        "status",
        "key",
        "source",
        "importance",
        "created_at",
    )
    list_filter = ("status", "memory_type", "source_kind", "sensitive", "tenant")
    search_fields = ("text", "key", "source", "run_id", "api_key_prefix")
    raw_id_fields = ("tenant", "scope", "created_by", "superseded_by")
    list_select_related = ("tenant", "scope")
    show_full_result_count = False
    paginator = CappedCountPaginator
    # Never show the sealed token or raw embedding bytes.
    exclude = ("sealed_content", "embedding")
    readonly_fields = (
        "id",
        "tenant",
        "scope",
        "memory_type",
        "category",
        "key",
        "content",
        "text",
        "source",
        "source_kind",
        "created_by",
        "api_key_prefix",
        "run_id",
        "importance",
        "half_life_days",
        "last_access_at",
        "access_count",
        "archive_due_at",
        "confidence",
        "status",
        "superseded_by",
        "expires_at",
        "version",
        "content_hash",
        "sensitive",
        "embedding_model",
        "created_at",
        "updated_at",
    )
    inlines = [MemoryVersionInline]


@admin.register(MemoryVersion)
class MemoryVersionAdmin(ReadOnlyAdmin):
    list_display = ("item", "version", "change", "reference", "status", "changed_by", "created_at")
    list_filter = ("change",)
    search_fields = ("reference", "key")
    raw_id_fields = ("item", "changed_by")
    list_select_related = ("item", "changed_by")
    show_full_result_count = False
    paginator = CappedCountPaginator
