"""Django admin for grants, service accounts and agent API keys.

Grants are listed here but given and taken through apps.access.services (audited),
so the permission rows are read-only; keys are issued by `create_api_key` and can
be revoked here through the audited service. This is the one API-key admin: the
library's own APIKey model is unused (agents' keys are AgentAPIKey), so its admin
section is removed rather than shown empty beside ours.
"""

from axes.models import AccessAttempt
from django.contrib import admin, messages
from rest_framework_api_key.models import APIKey

from apps.access.api_keys import revoke_api_key
from apps.access.models import (
    AgentAPIKey,
    ScopeGroupObjectPermission,
    ScopeUserObjectPermission,
    ServiceAccount,
    TenantGroupObjectPermission,
    TenantUserObjectPermission,
)
from apps.access.services import unlock_logins
from apps.core.admin import ReadOnlyAdmin


class GrantAdmin(ReadOnlyAdmin):
    list_filter = ("permission__codename",)
    show_full_result_count = False

    @admin.display(description="Permission", ordering="permission__codename")
    def codename(self, obj) -> str:
        return obj.permission.codename


@admin.register(TenantUserObjectPermission)
class TenantUserGrantAdmin(GrantAdmin):
    list_display = ("user", "codename", "content_object")
    search_fields = ("user__username", "content_object__slug")
    list_select_related = ("user", "permission", "content_object")


@admin.register(TenantGroupObjectPermission)
class TenantGroupGrantAdmin(GrantAdmin):
    list_display = ("group", "codename", "content_object")
    search_fields = ("group__name", "content_object__slug")
    list_select_related = ("group", "permission", "content_object")


@admin.register(ScopeUserObjectPermission)
class ScopeUserGrantAdmin(GrantAdmin):
    list_display = ("user", "codename", "content_object", "tenant")
    search_fields = ("user__username", "content_object__external_id")
    list_select_related = ("user", "permission", "content_object__tenant")

    @admin.display(description="Tenant")
    def tenant(self, obj) -> str:
        return obj.content_object.tenant.slug


@admin.register(ScopeGroupObjectPermission)
class ScopeGroupGrantAdmin(GrantAdmin):
    list_display = ("group", "codename", "content_object")
    search_fields = ("group__name", "content_object__external_id")
    list_select_related = ("group", "permission", "content_object")


@admin.register(ServiceAccount)
class ServiceAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "description", "key_count", "created_at")
    search_fields = ("user__username", "description")
    readonly_fields = ("user", "created_at")
    list_select_related = ("user",)

    def has_add_permission(self, request) -> bool:
        return False  # created with their first key by `create_api_key` (audited)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="API keys")
    def key_count(self, obj: ServiceAccount) -> int:
        return obj.user.agent_api_keys.count()


@admin.register(AgentAPIKey)
class AgentAPIKeyAdmin(ReadOnlyAdmin):
    list_display = ("prefix", "name", "user", "created", "expiry_date", "revoked", "last_used_at")
    list_filter = ("revoked",)
    search_fields = ("prefix", "name", "user__username")
    list_select_related = ("user",)
    exclude = ("hashed_key", "id")
    actions = ["revoke_selected"]

    @admin.action(description="Revoke the selected keys (audited)")
    def revoke_selected(self, request, queryset) -> None:
        prefixes = list(queryset.filter(revoked=False).values_list("prefix", flat=True))
        for prefix in prefixes:
            revoke_api_key(key_id=prefix, actor=request.user)
        self.message_user(request, f"Revoked {len(prefixes)} key(s).", messages.SUCCESS)


@admin.register(AccessAttempt)
class LoginAttemptAdmin(ReadOnlyAdmin):
    """Failed-login counters kept by django-axes; "Unlock" lifts a lockout (audited)."""

    list_display = ("attempt_time", "username", "ip_address", "failures_since_start", "path_info")
    search_fields = ("username", "ip_address")
    date_hierarchy = "attempt_time"
    exclude = ("get_data", "post_data", "user_agent", "http_accept")
    actions = ["unlock_selected"]

    @admin.action(description="Unlock: clear the selected failed-login counters (audited)")
    def unlock_selected(self, request, queryset) -> None:
        lifted = unlock_logins(attempts=queryset, actor=request.user)
        self.message_user(request, f"Unlocked {lifted} login counter(s).", messages.SUCCESS)


if admin.site.is_registered(APIKey):
    admin.site.unregister(APIKey)
