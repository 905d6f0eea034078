"""Permission-aware reads of the audit log (ARCHITECTURE §6-7).

Compliance officers (and anyone else holding view_audit who is not only an operator)
see every event of the tenants they hold view_audit on; operators see only events about
a scope they may see; analysts hold no view_audit and see nothing. Superusers and the
admin group see everything. Events carry plain tenant and scope ids (the log outlives
the rows), so the filter runs on those ids against the permission tables, in SQL.
"""

from django.db.models import Q, QuerySet

from apps.access.models import (
    ScopeGroupObjectPermission,
    ScopeUserObjectPermission,
    TenantGroupObjectPermission,
    TenantUserObjectPermission,
)
from apps.access.roles import Role
from apps.access.selectors import filter_by_grant, has_global_access, held_permissions
from apps.audit.models import AuditCheckpoint, AuditEvent, AuditVerification

VIEW_AUDIT = "view_audit"


def _role_names(user) -> frozenset[str]:
    cached = getattr(user, "_mc_role_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._mc_role_names = cached
        # The same answer has_global_access would fetch with a query of its own.
        user._mc_is_admin = Role.ADMIN in cached
    return cached


def is_scope_bound(user) -> bool:
    """Operators who are not also compliance officers see events of their scopes only."""
    roles = _role_names(user)
    return Role.OPERATOR in roles and Role.COMPLIANCE_OFFICER not in roles


def _granted_ids(model, user) -> QuerySet:
    lookup = {"user": user} if "User" in model.__name__ else {"group__user": user}
    return model.objects.filter(permission__codename=VIEW_AUDIT, **lookup).values(
        "content_object_id"
    )


def events_visible_to(user) -> QuerySet[AuditEvent]:
    """The audit events this user may read."""
    events = AuditEvent.objects.all()
    if user is None or not user.is_authenticated or not user.is_active:
        return events.none()
    _role_names(user)
    if has_global_access(user):
        return events
    if not is_scope_bound(user):
        return filter_by_grant(
            events, user, VIEW_AUDIT, tenant_field="tenant_id", scope_field="scope_id"
        )
    # An event's tenant_id is its scope's tenant, so "a scope of a granted tenant" is
    # an event with a scope whose tenant is granted; no join to the scope table needed.
    in_granted_tenant = Q(tenant_id__in=_granted_ids(TenantUserObjectPermission, user)) | Q(
        tenant_id__in=_granted_ids(TenantGroupObjectPermission, user)
    )
    in_granted_scope = Q(scope_id__in=_granted_ids(ScopeUserObjectPermission, user)) | Q(
        scope_id__in=_granted_ids(ScopeGroupObjectPermission, user)
    )
    return events.filter(Q(scope_id__isnull=False) & (in_granted_tenant | in_granted_scope))


def may_verify_chain(user) -> bool:
    """Compliance officers and admins run "verify now" and download signed checkpoints."""
    held = held_permissions(user)
    return held is None or "manage_privacy" in held


def newest_sequence() -> int:
    """The chain head's sequence (one read of the unique index's last entry)."""
    return AuditEvent.objects.order_by("-sequence").values_list("sequence", flat=True).first() or 0


def latest_checkpoint() -> AuditCheckpoint | None:
    """The newest signed checkpoint of the chain head."""
    return AuditCheckpoint.objects.order_by("-sequence", "-created_at").first()


def latest_verification() -> AuditVerification | None:
    """The most recent walk of the chain, shown on the viewer."""
    return AuditVerification.objects.order_by("-ran_at").first()


def broken_chain_alert_for(user) -> int | None:
    """Navigation badge: 1 when the latest verification failed and the user reads the log."""
    latest = AuditVerification.objects.order_by("-ran_at").values_list("ok", flat=True).first()
    if latest is None or latest:
        return None
    return 1 if events_visible_to(user).exists() else None
