"""Every write of the reports app: the weekly audit (health reports), the GDPR SLA watch,
and the review-queue integrity check."""

from apps.reports.services.review_queues import (
    REOPENED_REASON,
    REVIEW_CHECK_ACTOR,
    ReviewQueueReport,
    check_review_queues,
)
from apps.reports.services.sla import watch_erasure_slas
from apps.reports.services.weekly import build_weekly_reports, run_weekly_audit

__all__ = [
    "REOPENED_REASON",
    "REVIEW_CHECK_ACTOR",
    "ReviewQueueReport",
    "build_weekly_reports",
    "check_review_queues",
    "run_weekly_audit",
    "watch_erasure_slas",
]
