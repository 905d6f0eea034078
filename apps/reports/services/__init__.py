"""Every write of the reports app: the weekly audit (health reports) and the GDPR SLA watch."""

from apps.reports.services.sla import watch_erasure_slas
from apps.reports.services.weekly import build_weekly_reports, run_weekly_audit

__all__ = ["build_weekly_reports", "run_weekly_audit", "watch_erasure_slas"]
