"""Deletion requests in each state, made through the services the console uses."""

from apps.privacy import services
from apps.tenancy.models import Tenant


def received_request(*, tenant: Tenant, subject: str, by, identifiers=None, reason=""):
    return services.create_request(
        tenant=tenant, subject=subject, identifiers=identifiers or [], reason=reason, actor=by
    )


def approved_request(*, tenant: Tenant, subject: str, by, second, identifiers=None):
    """Created and verified by `by`, approved by `second` (four eyes)."""
    request = received_request(tenant=tenant, subject=subject, by=by, identifiers=identifiers)
    services.verify_request(request_id=request.pk, actor=by)
    return services.approve_request(request_id=request.pk, actor=second)
