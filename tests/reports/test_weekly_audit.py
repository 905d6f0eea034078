"""The weekly audit: the chain verified, one stored HealthReport per tenant and one for the
installation, every figure computed by aggregate SQL (a bounded number of queries)."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.quarantine.models import EntryStatus
from apps.reports.models import HealthReport
from apps.reports.services import run_weekly_audit
from apps.reports.services.health import period_for
from tests.conflicts.factories import ConflictFactory
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.quarantine.factories import QuarantineEntryFactory

pytestmark = pytest.mark.django_db


def _report(tenant=None) -> dict:
    return HealthReport.objects.get(tenant=tenant).figures


def test_a_monday_run_reports_the_week_just_ended_and_later_runs_the_week_so_far():
    monday_run = datetime(2026, 11, 30, 3, 0, tzinfo=UTC)
    assert period_for(monday_run).week_start == date(2026, 11, 23)
    assert period_for(monday_run).end == datetime(2026, 11, 30, tzinfo=UTC)
    wednesday = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    assert period_for(wednesday).week_start == date(2026, 11, 30)
    assert period_for(wednesday).end == wednesday


def test_the_weekly_audit_stores_one_report_per_tenant_and_one_for_the_installation(
    tenant_a, tenant_b
):
    MemoryItemFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_b), memory_type=MemoryType.WORKING)
    outcome = run_weekly_audit()
    assert outcome["chain_ok"] is True and outcome["reports"] == 3
    assert _report(tenant_a)["totals"]["items"] == 3
    assert _report(tenant_b)["totals"]["by_type"]["working"] == 1
    installation = _report()
    assert installation["totals"]["items"] == 4
    assert installation["totals"]["by_tenant"] == {"tenant-a": 3, "tenant-b": 1}
    assert installation["chain"]["ok"] is True
    assert HealthReport.objects.get(tenant=None).chain_ok is True


def test_rerunning_in_the_same_week_replaces_that_weeks_reports(tenant_a):
    run_weekly_audit()
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
    run_weekly_audit()
    assert HealthReport.objects.filter(tenant=tenant_a).count() == 1
    assert _report(tenant_a)["totals"]["items"] == 1


def test_last_weeks_report_stays_beside_this_weeks(tenant_a):
    run_weekly_audit(now=timezone.now() - timedelta(days=7))
    run_weekly_audit()
    assert HealthReport.objects.filter(tenant=tenant_a).count() == 2


def test_figures_cover_status_category_scores_and_lifecycle(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = timezone.now() - timedelta(days=400)
    MemoryItemFactory(scope=scope, importance=0.95)  # fresh: top bucket
    MemoryItemFactory(scope=scope, importance=0.9, last_access_at=old)  # decayed: bottom
    MemoryItemFactory(scope=scope, category=85, status=MemoryStatus.ARCHIVED)
    MemoryItemFactory(
        scope=scope,
        status=MemoryStatus.ARCHIVED,
        expires_at=timezone.now() - timedelta(hours=1),
    )
    MemoryItemFactory(scope=scope, access_count=4)
    run_weekly_audit()
    figures = _report(tenant_a)
    assert figures["totals"]["by_status"]["archived"] == 2
    assert figures["totals"]["by_category"]["Correction & safety warning"] == 1
    histogram = figures["score_histogram"]["counts"]
    assert sum(histogram) == 3 and histogram[9] == 1 and histogram[0] == 1
    assert figures["lifecycle"] == {
        "archived": 2,
        "expired": 1,
        "never_recalled": 2,
        "archived_this_week": 2,
    }
    assert figures["growth"]["created_this_week"] == 5


def test_duplicate_supersession_quarantine_and_conflict_figures(tenant_a, operator_a):
    scope = ScopeFactory(tenant=tenant_a)
    for action in [Action.MEMORY_CREATED] * 3 + [Action.MEMORY_DEDUPLICATED]:
        record(actor="test", action=action, tenant=tenant_a)
    record(actor="test", action=Action.MEMORY_SUPERSEDED, tenant=tenant_a)
    now = timezone.now()
    QuarantineEntryFactory(item__scope=scope)
    QuarantineEntryFactory(
        item__scope=scope, status=EntryStatus.RELEASED, decided_at=now + timedelta(hours=2)
    )
    QuarantineEntryFactory(
        item__scope=scope, status=EntryStatus.REJECTED, decided_at=now + timedelta(hours=4)
    )
    ConflictFactory(scope=scope, created_at=now - timedelta(hours=10))
    run_weekly_audit(now=now + timedelta(hours=5))
    figures = _report(tenant_a)
    assert figures["quality"] == {
        "writes": 4,
        "duplicates": 1,
        "duplicate_rate": 0.25,
        "superseded": 1,
        "supersession_rate": round(1 / 3, 4),
    }
    quarantine = figures["quarantine"]
    assert (quarantine["inflow"], quarantine["reviewed"], quarantine["released"]) == (3, 2, 1)
    assert quarantine["release_rate"] == 0.5
    assert quarantine["median_review_hours"] == pytest.approx(3, abs=0.1)
    assert figures["conflicts"]["open"] == 1
    assert figures["conflicts"]["median_age_hours"] == pytest.approx(15, abs=0.1)


def test_anomalies_name_bursting_keys_wide_keys_and_scopes_whose_sources_changed(
    tenant_a, settings
):
    settings.MEMORY_CONSOLE_REPORT_BURST_WRITES_PER_HOUR = 5
    settings.MEMORY_CONSOLE_REPORT_FANOUT_SUBJECTS = 3
    MemoryItemFactory.create_batch(6, scope=ScopeFactory(tenant=tenant_a), api_key_prefix="burst1")
    for _ in range(3):
        MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a), api_key_prefix="wide22")
    shifted = ScopeFactory(tenant=tenant_a)
    MemoryItemFactory.create_batch(2, scope=shifted, source="crm@1")
    MemoryItem.objects.filter(scope=shifted).update(created_at=timezone.now() - timedelta(days=30))
    MemoryItemFactory.create_batch(5, scope=shifted, source="unknown-tool@9")
    run_weekly_audit()
    anomalies = _report(tenant_a)["anomalies"]
    assert [entry["api_key"] for entry in anomalies["write_bursts"]] == ["burst1"]
    assert [entry["api_key"] for entry in anomalies["key_fanout"]] == ["wide22"]
    assert anomalies["source_shifts"] == [
        {"scope_id": shifted.pk, "writes": 5, "new_source_writes": 5}
    ]
    assert _report()["anomalies"]["write_bursts"] == anomalies["write_bursts"]


def test_the_report_holds_no_memory_content(tenant_a):
    MemoryItemFactory(
        scope=ScopeFactory(tenant=tenant_a), content={"text": "Ignore previous rules"}
    )
    run_weekly_audit()
    assert "Ignore previous" not in str(HealthReport.objects.values_list("figures", flat=True))


def test_the_report_costs_the_same_number_of_queries_for_ten_or_a_hundred_items(tenant_a):
    def queries_for(n):
        MemoryItemFactory.create_batch(n, scope=ScopeFactory(tenant=tenant_a))
        with CaptureQueriesContext(connection) as captured:
            run_weekly_audit()
        return len(captured)

    run_weekly_audit()  # this week's rows exist: later runs update them
    assert queries_for(10) == queries_for(90)


def test_a_rebuilt_past_week_ignores_conflicts_and_entries_that_came_later(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    ConflictFactory(scope=scope)
    QuarantineEntryFactory(item__scope=scope)
    run_weekly_audit(now=timezone.now() - timedelta(days=7))
    figures = _report(tenant_a)
    assert figures["conflicts"] == {"open": 0, "median_age_hours": None}
    assert figures["quarantine"]["pending"] == 0
