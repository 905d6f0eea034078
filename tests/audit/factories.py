"""Audit events for tests, written the only way events are written: through record()."""

from apps.audit.models import Action, AuditEvent
from apps.audit.services import record


def make_event(
    *, action=Action.JOB_RUN, actor="test-job", tenant=None, scope=None, **kwargs
) -> AuditEvent:
    """One chained event about a tenant and/or scope (ids or model instances)."""
    if scope is not None and tenant is None:
        tenant = scope.tenant_id
    return record(actor=actor, action=action, tenant=tenant, scope=scope, **kwargs)
