"""An officer, in a real browser: export a tenant with a passphrase, download the package,
upload it into another tenant with a mapping, read the dry run, apply, see the outcome."""

import pytest
from django.test import Client

from apps.memory.models import MemoryItem
from tests.conftest import browser_test
from tests.snapshots.conftest import PASSPHRASE
from tests.snapshots.conftest import populated as populated

pytestmark = [*browser_test, pytest.mark.slow]


@pytest.fixture(autouse=True)
def snapshot_dir(settings, tmp_path):
    settings.MEMORY_CONSOLE_SNAPSHOT_DIR = tmp_path / "packages"


@pytest.fixture
def officer_page(browser, live_server, officer):
    client = Client()
    client.force_login(officer)
    context = browser.new_context(base_url=live_server.url, accept_downloads=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()


def test_export_download_upload_dry_run_and_apply_through_the_console(
    officer_page,
    populated,
    tenant_b,
    tmp_path,
):
    page = officer_page
    page.goto("/snapshots/")
    export = page.locator("#export-form")
    export.locator("select[name=tenant]").select_option("tenant-a")
    export.locator("input[name=passphrase]").fill(PASSPHRASE)
    export.locator("button[type=submit]").click()
    page.wait_for_selector("#download-link", timeout=30_000)
    assert "7 items in 4 scopes" in page.inner_text("#export-outcome")
    with page.expect_download() as download_info:
        page.click("#download-link")
    package = tmp_path / "downloaded.mcpkg"
    download_info.value.save_as(package)
    assert package.read_bytes().startswith(b"MCPKG\n")

    page.goto("/snapshots/")
    upload = page.locator("#upload-form")
    upload.locator("select[name=tenant]").select_option("tenant-b")
    upload.locator("input[name=package]").set_input_files(str(package))
    upload.locator("input[name=passphrase]").fill(PASSPHRASE)
    upload.locator("textarea[name=mapping]").fill("user:u_1=user:v_1")
    upload.locator("button[type=submit]").click()
    page.wait_for_selector("#decision-form", timeout=30_000)
    assert page.inner_text("[data-total=new]") == "7"
    assert "user:v_1" in page.inner_text("#dry-run-scopes")
    assert not MemoryItem.objects.filter(tenant=tenant_b).exists()

    page.click("#apply-button")
    page.wait_for_selector("#restore-outcome", timeout=30_000)
    assert page.inner_text("[data-outcome=inserted]") == "7"
    assert MemoryItem.objects.filter(tenant=tenant_b, scope__external_id="v_1").count() == 3
    assert page.dialogs == []
