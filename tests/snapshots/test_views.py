"""The /snapshots/ screens: who may use them, export → download, upload → dry run → apply,
the polled progress, and that package files are served only after the permission check."""

import io

import pytest
from django.test import Client

from apps.access.roles import Role
from apps.memory.models import MemoryItem
from apps.snapshots.models import JobStatus, SnapshotJob
from tests.conftest import _persona
from tests.snapshots.conftest import PASSPHRASE, package_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def snapshot_dir(settings, tmp_path):
    settings.MEMORY_CONSOLE_SNAPSHOT_DIR = tmp_path / "packages"
    return settings.MEMORY_CONSOLE_SNAPSHOT_DIR


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_officers_see_the_section_and_operators_are_told_whose_it_is(officer, operator_a):
    assert _client(officer).get("/snapshots/").status_code == 200
    answer = _client(operator_a).get("/snapshots/")
    assert answer.status_code == 403 and b"Snapshots" in answer.content


def test_export_then_download_and_no_one_else_gets_the_file(
    populated, officer, tenant_b, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    client = _client(officer)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/snapshots/export/", {"tenant": "tenant-a", "scopes": "", "passphrase": PASSPHRASE}
        )
    job = SnapshotJob.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/snapshots/{job.pk}/"
    assert (
        job.status == JobStatus.SUCCEEDED
        and job.outcome["items"] == 7
        and not job.passphrase_sealed
    )
    page = client.get(f"/snapshots/{job.pk}/")
    assert b"download-link" in page.content and b"hx-trigger" not in page.content
    download = client.get(f"/snapshots/{job.pk}/download/")
    body = b"".join(download.streaming_content)
    assert (
        download.status_code == 200 and body.startswith(b"MCPKG\n") and len(body) == job.file_size
    )
    officer_b = _persona("officer_b_only", Role.COMPLIANCE_OFFICER, tenant_b)
    assert _client(officer_b).get(f"/snapshots/{job.pk}/download/").status_code == 404
    assert _client(officer_b).get(f"/snapshots/{job.pk}/").status_code == 404
    with django_assert_max_num_queries(12):
        assert client.get("/snapshots/").status_code == 200


def test_upload_dry_run_then_apply_with_a_csv_mapping(
    populated, officer, tenant_b, django_capture_on_commit_callbacks
):
    client = _client(officer)
    package = io.BytesIO(package_bytes(populated))
    package.name = "tenant-a.mcpkg"
    csv = io.BytesIO(b"old,new\nuser:u_1,user:v_1\n")
    csv.name = "map.csv"
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/snapshots/restore/",
            {"tenant": "tenant-b", "package": package, "passphrase": PASSPHRASE,
             "mapping": "", "mapping_csv": csv, "on_conflict": "skip"},
        )  # fmt: skip
    assert answer.status_code == 302, answer.content
    job = SnapshotJob.objects.get()
    assert job.status == JobStatus.VALIDATED, job.error
    assert job.report["totals"]["new"] == 7
    assert "user:v_1" in {row["scope"] for row in job.report["scopes"]}
    assert not MemoryItem.objects.filter(tenant=tenant_b).exists()
    page = client.get(f"/snapshots/{job.pk}/")
    assert b"decision-form" in page.content and b"user:u_1=user:v_1" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/snapshots/{job.pk}/decide/",
            {"mapping": "user:u_1=user:v_1", "on_conflict": "skip", "action": "apply"},
        )
    job.refresh_from_db()
    assert job.status == JobStatus.SUCCEEDED and job.outcome["inserted"] == 7
    assert MemoryItem.objects.filter(tenant=tenant_b, scope__external_id="v_1").count() == 3
    assert not job.passphrase_sealed
    again = client.post(f"/snapshots/{job.pk}/decide/", {"on_conflict": "skip", "action": "apply"})
    assert again.status_code == 302  # told it is no longer waiting; nothing applied twice
    assert MemoryItem.objects.filter(tenant=tenant_b).count() == 7


def test_a_broken_upload_fails_with_the_reason_and_writes_nothing(
    officer, tenant_b, django_capture_on_commit_callbacks
):
    package = io.BytesIO(b"MCPKG\nnot really")
    package.name = "x.mcpkg"
    with django_capture_on_commit_callbacks(execute=True):
        _client(officer).post(
            "/snapshots/restore/", {"tenant": "tenant-b", "package": package, "on_conflict": "skip"}
        )
    job = SnapshotJob.objects.get()
    assert job.status == JobStatus.FAILED and "not a valid package" in job.error
    assert not MemoryItem.objects.filter(tenant=tenant_b).exists()


def test_a_running_job_is_polled_by_htmx_until_it_ends(officer, tenant_a):
    job = SnapshotJob.objects.create(
        kind="export", tenant=tenant_a, status=JobStatus.RUNNING, processed=5, total=10
    )
    client = _client(officer)
    page = client.get(f"/snapshots/{job.pk}/")
    assert b'hx-trigger="every 1s"' in page.content and b'value="50"' in page.content
    partial = client.get(
        f"/snapshots/{job.pk}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="job-status"
    )
    assert partial.content.lstrip().startswith(b'<div id="job-status"')
    SnapshotJob.objects.filter(pk=job.pk).update(status=JobStatus.FAILED, error="boom")
    done = client.get(f"/snapshots/{job.pk}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="job-status")
    assert b"hx-trigger" not in done.content and b"boom" in done.content
