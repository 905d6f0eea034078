"""The weekly audit: verify the audit chain, then store this week's health reports."""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record, verify_chain
from apps.core.types import Actor
from apps.reports.models import HealthReport
from apps.reports.services.health import ALL, compute_figures, period_for
from apps.tenancy.models import Tenant


def run_weekly_audit(
    *, actor: Actor = "weekly_audit", now: datetime | None = None
) -> dict[str, Any]:
    """Verify the audit chain and (re)build the week's HealthReport per tenant and for the
    installation; rerunning in the same week replaces that week's reports."""
    verification = verify_chain(actor=actor)
    chain = {
        "ok": verification.ok,
        "checked": verification.checked,
        "head_sequence": verification.head_sequence,
        "first_bad_sequence": verification.first_bad_sequence,
        "verified_at": verification.ran_at.isoformat(),
    }
    reports = build_weekly_reports(actor=actor, now=now, chain=chain)
    return {"chain_ok": verification.ok, "events_checked": verification.checked, **reports}


def build_weekly_reports(
    *, actor: Actor, chain: dict[str, Any], now: datetime | None = None
) -> dict[str, Any]:
    """Compute every figure (aggregate SQL) and store one report per tenant plus one for
    the installation, for the ISO week `now` falls in (see period_for)."""
    now = now or timezone.now()
    period = period_for(now)
    figures = compute_figures(period, chain=chain)
    tenants = {tenant.pk: tenant for tenant in Tenant.objects.all()}
    with transaction.atomic():
        for key, values in figures.items():
            HealthReport.objects.update_or_create(
                tenant=tenants.get(key) if key is not ALL else None,
                week_start=period.week_start,
                defaults={
                    "period_start": period.start,
                    "period_end": period.end,
                    "generated_at": now,
                    "chain_ok": chain.get("ok"),
                    "total_items": values["totals"]["items"],
                    "figures": values,
                },
            )
        record(
            actor=actor,
            action=Action.JOB_RUN,
            target_type="reports.healthreport",
            data={
                "job": "weekly_audit",
                "week": period.week_start.isoformat(),
                "reports": len(figures),
            },
        )
    return {"week": period.week_start.isoformat(), "reports": len(figures)}
