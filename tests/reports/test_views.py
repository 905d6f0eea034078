"""Analysts' report pages and API: aggregates of granted tenants only, charts for every
figure fed through json_script, downloads; admins' job runs with "run now"."""

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from apps.core.models import JobOutcome, JobRun
from apps.reports.models import HealthReport
from apps.reports.services import run_weekly_audit
from tests.factories import MemoryItemFactory, ScopeFactory, TenantFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def reports(tenant_a, tenant_b):
    tenant_c = TenantFactory(slug="tenant-c")
    for tenant in (tenant_a, tenant_b, tenant_c):
        MemoryItemFactory.create_batch(2, scope=ScopeFactory(tenant=tenant))
    run_weekly_audit(now=timezone.now() - timedelta(days=7))
    run_weekly_audit()
    return {
        "a": HealthReport.objects.filter(tenant=tenant_a).order_by("-week_start").first(),
        "c": HealthReport.objects.filter(tenant=tenant_c).order_by("-week_start").first(),
        "installation": HealthReport.objects.filter(tenant=None).order_by("-week_start").first(),
    }


def test_the_analyst_lists_reports_of_granted_tenants_only(client, analyst, reports):
    client.force_login(analyst)
    page = client.get("/reports/")
    listed = {report.tenant.slug if report.tenant else None for report in page.context["reports"]}
    assert listed == {"tenant-a", "tenant-b"}


def test_a_report_outside_the_grant_or_the_installations_is_not_found_for_an_analyst(
    client, analyst, reports
):
    client.force_login(analyst)
    for report in (reports["c"], reports["installation"]):
        assert client.get(f"/reports/{report.pk}/").status_code == 404
        assert client.get(f"/reports/{report.pk}/report.csv").status_code == 404


def test_an_admin_reads_the_installations_report(client, admin_user, reports):
    client.force_login(admin_user)
    assert client.get(f"/reports/{reports['installation'].pk}/").status_code == 200


def test_an_operator_without_report_rights_sees_no_reports(client, operator_a, reports):
    client.force_login(operator_a)
    assert list(client.get("/reports/").context["reports"]) == []
    assert client.get(f"/reports/{reports['a'].pk}/").status_code == 404


def test_the_report_page_charts_every_figure_beside_last_week_without_inline_script(
    client, analyst, reports
):
    client.force_login(analyst)
    page = client.get(f"/reports/{reports['a'].pk}/")
    html = page.content.decode()
    charts = json.loads(re.search(r'id="report-charts"[^>]*>(.*?)</script>', html, re.S)[1])
    ids = {chart["id"] for chart in charts}
    assert {
        "by-type",
        "by-status",
        "by-category",
        "growth",
        "lifecycle",
        "quality",
        "quarantine",
        "score-histogram",
        "rates",
        "review-times",
        "anomalies",
    } <= ids
    assert all(chart["previous"] is not None for chart in charts)
    by_id = {chart["id"]: chart for chart in charts}
    for chart_id in ("by-type", "by-status", "by-category"):
        assert sum(by_id[chart_id]["this"]) == 2, chart_id
    assert by_id["growth"]["this"] == [2, 0]
    for chart_id in ids:
        assert f'id="chart-{chart_id}"' in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag
    assert 'id="week-over-week"' in html and page.context["previous"] is not None
    chain_row = next(row for row in page.context["comparison"] if row["path"] == "chain.ok")
    assert chain_row["change"] is None


def test_csv_and_json_downloads_hold_every_figure(client, analyst, reports):
    client.force_login(analyst)
    report = reports["a"]
    as_json = client.get(f"/reports/{report.pk}/report.json")
    assert as_json["Content-Disposition"].endswith('.json"')
    assert as_json.json()["figures"] == report.figures
    as_csv = client.get(f"/reports/{report.pk}/report.csv").content.decode()
    assert as_csv.startswith("figure,value")
    assert "totals.items,2" in as_csv and "score_histogram.counts.9," in as_csv


def test_the_report_api_lists_and_reads_granted_reports_only(analyst, reports):
    api = APIClient()
    api.force_authenticate(analyst)
    listed = api.get("/api/v1/reports/").json()["results"]
    assert {entry["tenant"] for entry in listed} == {"tenant-a", "tenant-b"}
    assert "figures" not in listed[0]
    one = api.get(f"/api/v1/reports/{reports['a'].pk}/").json()
    assert one["figures"]["totals"]["items"] == 2
    assert api.get(f"/api/v1/reports/{reports['c'].pk}/").status_code == 404
    assert api.get(f"/api/v1/reports/{reports['installation'].pk}/").status_code == 404


def test_the_report_list_and_api_cost_a_fixed_number_of_queries(
    client, analyst, reports, django_assert_max_num_queries
):
    client.force_login(analyst)
    api = APIClient()
    api.force_authenticate(analyst)
    with django_assert_max_num_queries(12):
        client.get("/reports/")
    with django_assert_max_num_queries(8):
        api.get("/api/v1/reports/")


def test_admins_see_job_runs_and_run_a_job_now(
    client, admin_user, django_capture_on_commit_callbacks
):
    client.force_login(admin_user)
    page = client.get("/reports/jobs/")
    assert page.status_code == 200
    assert [job["name"] for job in page.context["jobs"]] == [
        "decay",
        "expiry",
        "weekly_audit",
        "gdpr_sla",
        "vector_index",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/reports/jobs/decay/run/")
    assert response.status_code == 302
    run = JobRun.objects.get(job="decay")
    assert (run.trigger, run.outcome) == ("manual", JobOutcome.SUCCEEDED)
    assert b'data-job="decay"' in client.get("/reports/jobs/").content


def test_job_runs_are_for_admins_only(client, analyst, operator_a):
    for user in (analyst, operator_a):
        client.force_login(user)
        assert client.get("/reports/jobs/").status_code == 403
        assert client.post("/reports/jobs/decay/run/").status_code == 403
    assert not JobRun.objects.exists()


def test_the_dashboard_shows_the_latest_report_and_admins_the_last_job_runs(
    client, analyst, admin_user, reports
):
    client.force_login(analyst)
    page = client.get("/")
    assert b'id="latest-report"' in page.content
    assert {entry["report"].tenant.slug for entry in page.context["latest_reports"]} == {
        "tenant-a",
        "tenant-b",
    }
    assert b'id="last-job-runs"' not in page.content
    client.force_login(admin_user)
    page = client.get("/")
    assert b'id="last-job-runs"' in page.content
    assert set(page.context["job_runs"]) == {
        "decay",
        "expiry",
        "weekly_audit",
        "gdpr_sla",
        "vector_index",
    }
