"""Permission-aware reads of the audit log (ARCHITECTURE §6-7).

Compliance officers (and anyone else holding view_audit who is not only an operator)
see every event of the tenants they hold view_audit on; operators see only events about
a scope they may see; analysts hold no view_audit and see nothing. Superusers and the
admin group see everything. Events carry plain tenant and scope ids (the log outlives
the rows), so the filter runs on those ids against the permission tables, in SQL.
"""

from django.db.models import QuerySet

from apps.audit.models import AuditCheckpoint, AuditEvent, AuditVerification
from apps.tenancy.grants import grants
from apps.tenancy.permissions import Perm


def events_visible_to(user) -> QuerySet[AuditEvent]:
    """The audit events this user may read."""
    events = AuditEvent.objects.all()
    if user is None or not user.is_authenticated or not user.is_active:
        return events.none()
    granted = grants()
    scope_bound = granted.is_scope_bound(user)  # reads the roles once; reused just below
    if granted.has_global_access(user):
        return events
    if scope_bound:
        # An event's tenant_id is its scope's tenant, so "a scope of a granted tenant" is
        # an event with a scope whose tenant is granted; no join to the scope table needed.
        events = events.filter(scope_id__isnull=False)
    return granted.filter_by_grant(
        events, user, Perm.VIEW_AUDIT, tenant_field="tenant_id", scope_field="scope_id"
    )


def may_verify_chain(user) -> bool:
    """Compliance officers and admins run "verify now" and download signed checkpoints."""
    return grants().tenants_visible_to(user, Perm.MANAGE_PRIVACY).exists()


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
