"""The GDPR SLA watch: requests due within 48 h or overdue are flagged once per level and
their tenant's compliance officers are e-mailed, without the subject."""

from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.core import mail
from django.utils import timezone

from apps.reports.models import SlaAlert, SlaLevel
from apps.reports.services import watch_erasure_slas
from apps.reports.tasks import gdpr_sla_task

pytestmark = pytest.mark.django_db
needs_privacy = pytest.mark.skipif(
    not django_apps.is_installed("apps.privacy"), reason="apps.privacy has not landed"
)


@pytest.mark.skipif(django_apps.is_installed("apps.privacy"), reason="privacy is installed")
def test_without_the_privacy_app_the_watch_says_it_is_pending():
    assert gdpr_sla_task()["pending"] == "apps.privacy is not installed"


def _request(tenant, officer, *, due_in: timedelta, subject="alice@example.com"):
    from tests.privacy.factories import received_request

    request = received_request(tenant=tenant, subject=subject, by=officer)
    type(request).objects.filter(pk=request.pk).update(due_at=timezone.now() + due_in)
    return request


@needs_privacy
def test_requests_due_soon_or_overdue_are_flagged_and_officers_mailed_once(
    tenant_a, officer, outsider
):
    officer.email, outsider.email = "officer@example.org", "outsider@example.org"
    officer.save(), outsider.save()
    soon = _request(tenant_a, officer, due_in=timedelta(hours=20))
    late = _request(tenant_a, officer, due_in=-timedelta(hours=1), subject="bob@example.com")
    _request(tenant_a, officer, due_in=timedelta(days=10), subject="carol@example.com")

    outcome = watch_erasure_slas()

    assert (outcome["due_soon"], outcome["overdue"], outcome["flagged"]) == (1, 1, 2)
    levels = dict(SlaAlert.objects.values_list("request_id", "level"))
    assert levels == {soon.pk: SlaLevel.DUE_SOON, late.pk: SlaLevel.OVERDUE}
    assert [message.to for message in mail.outbox] == [["officer@example.org"]]
    body = mail.outbox[0].body
    assert f"dr_{soon.pk}" in body and f"dr_{late.pk}" in body
    assert "alice" not in body and "bob" not in body

    assert watch_erasure_slas()["flagged"] == 0
    assert len(mail.outbox) == 1


@needs_privacy
def test_a_request_that_becomes_overdue_is_flagged_again_at_the_new_level(tenant_a, officer):
    officer.email = "officer@example.org"
    officer.save()
    request = _request(tenant_a, officer, due_in=timedelta(hours=1))
    watch_erasure_slas()
    assert watch_erasure_slas(now=timezone.now() + timedelta(hours=2))["flagged"] == 1
    assert set(SlaAlert.objects.filter(request_id=request.pk).values_list("level", flat=True)) == {
        SlaLevel.DUE_SOON,
        SlaLevel.OVERDUE,
    }
    assert len(mail.outbox) == 2


@needs_privacy
def test_the_weekly_report_counts_requests_open_due_soon_overdue_and_completed(tenant_a, officer):
    from apps.reports.services import run_weekly_audit

    _request(tenant_a, officer, due_in=timedelta(hours=20))
    _request(tenant_a, officer, due_in=-timedelta(hours=1), subject="bob@example.com")
    _request(tenant_a, officer, due_in=timedelta(days=10), subject="carol@example.com")
    run_weekly_audit()
    from apps.reports.models import HealthReport

    figures = HealthReport.objects.get(tenant=tenant_a).figures["deletion_requests"]
    assert figures["available"] is True
    assert (figures["open"], figures["due_soon"], figures["overdue"]) == (3, 1, 1)
    assert figures["completed"] == figures["completed_within_sla"] == 0
