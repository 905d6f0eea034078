"""Demo deletion requests for seed_demo: one in each state, one overdue, one on hold.

Written through the same services as the console (so the timeline and audit are real);
one request is executed for real, erasing a demo user with their sessions. Idempotent:
nothing is added once the demo tenants have any request.
"""

from datetime import timedelta

from django.utils import timezone

from apps.privacy import services
from apps.privacy.models import DeletionRequest
from apps.tenancy.models import Tenant

DEMO_REQUESTS = [
    # (tenant, subject, identifiers, days since receipt, steps)
    ("support-bot-prod", "u_1003", ["jane.roe@example.com"], 2, ()),
    ("support-bot-prod", "u_1004", [], 5, ("verify",)),
    ("support-bot-prod", "u_1005", ["+44 20 7946 0018"], 40, ("verify",)),  # overdue
    ("support-bot-prod", "u_1006", [], 9, ("verify", "hold")),  # on legal hold
    ("shop-assistant-cn", "cn_1002", ["acct-88231"], 28, ("verify", "approve")),  # due soon
    ("internal-hr-agent", "emp_1004", [], 12, ("reject",)),
    ("support-bot-prod", "u_1012", ["u1012@example.com"], 6, ("verify", "approve", "execute")),
]


def seed_deletion_requests(*, tenants: dict[str, Tenant], officer, officer2) -> int:
    """Add the demo requests unless there are some already; returns how many were added."""
    if DeletionRequest.objects.filter(tenant__in=tenants.values()).exists():
        return 0
    now = timezone.now()
    for slug, subject, identifiers, days, steps in DEMO_REQUESTS:
        request = services.create_request(
            tenant=tenants[slug],
            subject=subject,
            identifiers=identifiers,
            reason="Data subject request received by e-mail (demo).",
            received_at=now - timedelta(days=days),
            actor=officer,
        )
        for step in steps:
            if step == "verify":
                services.verify_request(request_id=request.pk, actor=officer)
            elif step == "approve":
                services.approve_request(request_id=request.pk, actor=officer2)
            elif step == "hold":
                services.hold_request(
                    request_id=request.pk, actor=officer2, reason="Litigation hold (demo)."
                )
            elif step == "reject":
                services.reject_request(
                    request_id=request.pk, actor=officer2, reason="Identity could not be verified."
                )
            elif step == "execute":
                services.start_erasure(request_id=request.pk, actor=officer)
                services.execute_erasure(request_id=request.pk)  # a no-op if it ran eagerly
    return len(DEMO_REQUESTS)
