"""Object permissions on tenants and scopes (direct foreign keys, for fast joins) and
service accounts, the users that agents act as."""

from django.conf import settings
from django.db import models
from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase
from rest_framework_api_key.models import AbstractAPIKey


class TenantUserObjectPermission(UserObjectPermissionBase):
    """A user's permission on one tenant; covers every scope of it."""

    content_object = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE)

    class Meta(UserObjectPermissionBase.Meta):
        verbose_name = "grant to a user on a tenant"
        verbose_name_plural = "grants: users on tenants"


class TenantGroupObjectPermission(GroupObjectPermissionBase):
    """A group's permission on one tenant."""

    content_object = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE)

    class Meta(GroupObjectPermissionBase.Meta):
        verbose_name = "grant to a role on a tenant"
        verbose_name_plural = "grants: roles on tenants"


class ScopeUserObjectPermission(UserObjectPermissionBase):
    """A user's permission on a single scope."""

    content_object = models.ForeignKey("tenancy.Scope", on_delete=models.CASCADE)

    class Meta(UserObjectPermissionBase.Meta):
        verbose_name = "grant to a user on a scope"
        verbose_name_plural = "grants: users on scopes"


class ScopeGroupObjectPermission(GroupObjectPermissionBase):
    """A group's permission on a single scope."""

    content_object = models.ForeignKey("tenancy.Scope", on_delete=models.CASCADE)

    class Meta(GroupObjectPermissionBase.Meta):
        verbose_name = "grant to a role on a scope"
        verbose_name_plural = "grants: roles on scopes"


class ServiceAccount(models.Model):
    """Marks a user as the identity of an agent; its API keys authenticate as this user."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="service_account"
    )
    description = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.user.get_username()


class AgentAPIKey(AbstractAPIKey):
    """A hashed API key an agent presents (`Authorization: Api-Key …`); it acts as `user`,
    so the service account's object permissions bound what the key may read and write."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_api_keys"
    )
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "agent API key"
        verbose_name_plural = "agent API keys"
