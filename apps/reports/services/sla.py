"""The GDPR SLA watch: flag deletion requests due within 48 h or overdue, once per level,
and e-mail the tenant's compliance officers (Django mail; console backend by default)."""

from datetime import datetime
from typing import Any

from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.access.models import TenantGroupObjectPermission, TenantUserObjectPermission
from apps.reports.models import SlaAlert, SlaLevel
from apps.reports.services.health import DELETION_REQUEST_MODEL, DUE_SOON, SLA_WATCHED_STATUSES
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm


def privacy_installed() -> bool:
    """The watch needs apps.privacy's DeletionRequest; without it the job has nothing to do."""
    return django_apps.is_installed("apps.privacy")


def compliance_officers_of(tenant_id: int):
    """Active users with an e-mail who may run erasures on the tenant (direct or by role)."""
    granted = Q(permission__codename=Perm.MANAGE_PRIVACY, content_object_id=tenant_id)
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .exclude(email="")
        .filter(
            Q(pk__in=TenantUserObjectPermission.objects.filter(granted).values("user_id"))
            | Q(groups__in=TenantGroupObjectPermission.objects.filter(granted).values("group_id"))
        )
        .distinct()
    )


def watch_erasure_slas(*, now: datetime | None = None) -> dict[str, Any]:
    """Flag requests newly due soon or overdue; e-mail each tenant's officers about them.

    Idempotent: a request is flagged (and mailed) once per level, so the hourly run only
    reports what changed. Messages name the request and its due time, never the subject.
    """
    if not privacy_installed():
        return {"pending": "apps.privacy is not installed", "flagged": 0, "mailed": 0}
    DeletionRequest = django_apps.get_model(*DELETION_REQUEST_MODEL)
    now = now or timezone.now()
    watched = DeletionRequest.objects.filter(
        status__in=SLA_WATCHED_STATUSES, due_at__lt=now + DUE_SOON
    )
    rows = watched.values_list("pk", "tenant_id", "due_at")
    candidates = [
        SlaAlert(
            request_id=pk,
            tenant_id=tenant_id,
            level=SlaLevel.OVERDUE if due_at < now else SlaLevel.DUE_SOON,
            due_at=due_at,
            flagged_at=now,
        )
        for pk, tenant_id, due_at in rows
    ]
    with transaction.atomic():
        already = set(
            SlaAlert.objects.filter(request_id__in=[a.request_id for a in candidates]).values_list(
                "request_id", "level"
            )
        )
        new = [a for a in candidates if (a.request_id, a.level) not in already]
        messages = _messages(new)
        for alert in new:
            alert.notified = len(messages.get(alert.tenant_id, ([], set()))[1])
        SlaAlert.objects.bulk_create(new, ignore_conflicts=True)
        # Inside the transaction: a mail server that refuses leaves nothing flagged, so
        # the next hourly run tries again.
        mails = [mail for mail_list, _ in messages.values() for mail in mail_list]
        sent = send_mass_mail(mails, fail_silently=False) if mails else 0
    return {
        "watched": len(candidates),
        "due_soon": sum(a.level == SlaLevel.DUE_SOON for a in candidates),
        "overdue": sum(a.level == SlaLevel.OVERDUE for a in candidates),
        "flagged": len(new),
        "mailed": sent,
    }


def _messages(alerts: list[SlaAlert]) -> dict[int, tuple[list[tuple], set[str]]]:
    """One e-mail per tenant with new alerts, to each of its compliance officers."""
    by_tenant: dict[int, list[SlaAlert]] = {}
    for alert in alerts:
        by_tenant.setdefault(alert.tenant_id, []).append(alert)
    slugs = dict(Tenant.objects.filter(pk__in=by_tenant).values_list("pk", "slug"))
    result: dict[int, tuple[list[tuple], set[str]]] = {}
    for tenant_id, tenant_alerts in by_tenant.items():
        recipients = set(compliance_officers_of(tenant_id).values_list("email", flat=True))
        if not recipients:
            result[tenant_id] = ([], set())
            continue
        lines = [
            f"- dr_{a.request_id}: {a.get_level_display().lower()} "
            f"(due {a.due_at:%Y-%m-%d %H:%M} UTC)"
            for a in sorted(tenant_alerts, key=lambda a: a.due_at)
        ]
        tenant = slugs.get(tenant_id, tenant_id)
        count = len(tenant_alerts)
        subject = f"[Memory Console] {count} erasure request(s) due soon or overdue in {tenant}"
        body = (
            "These GDPR deletion requests need attention:\n\n"
            + "\n".join(lines)
            + "\n\nOpen them at /privacy/requests/ in the console.\n"
        )
        mails = [
            (subject, body, settings.DEFAULT_FROM_EMAIL, [email]) for email in sorted(recipients)
        ]
        result[tenant_id] = (mails, recipients)
    return result
