"""The review screen in a real browser: hostile content stays inert, htmx moves on.

Headless Debian chromium against the live server (strict CSP as in production).
"""

import pytest
from django.urls import reverse

from apps.conflicts.models import Resolution
from apps.memory.models import MemoryItem, MemoryStatus
from tests.conflicts.factories import ConflictFactory, fact
from tests.conftest import browser_test
from tests.factories import ScopeFactory

PAYLOAD = '<img src=x onerror="window.__xss = 1; alert(1)"><script>window.__xss = 2</script>'

pytestmark = browser_test


@pytest.fixture
def hostile_conflicts(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    first = ConflictFactory(
        scope=scope,
        key="profile.bio",
        existing_item=fact(scope, "profile.bio", {"bio": "calm"}),
        incoming_item=fact(scope, "profile.bio", {"bio": PAYLOAD}, status="pending_review"),
    )
    second = ConflictFactory(scope=scope)
    return first, second


def assert_inert(page):
    page.wait_for_load_state("networkidle")
    assert page.dialogs == []
    assert page.evaluate("window.__xss === undefined")


def test_hostile_content_is_shown_as_text_in_queue_and_review(page, hostile_conflicts):
    first, _ = hostile_conflicts
    page.goto(reverse("conflicts:list"))
    assert_inert(page)
    page.goto(reverse("conflicts:detail", args=[first.pk]))
    assert_inert(page)
    assert PAYLOAD.replace('"', '\\"') in page.inner_text("[data-side=incoming] pre")
    assert page.locator("#conflict-panel img, #conflict-panel script").count() == 0


def test_merge_by_keyboard_through_htmx_then_the_next_conflict(page, hostile_conflicts):
    first, second = hostile_conflicts
    page.goto(reverse("conflicts:detail", args=[first.pk]))
    assert page.locator("#merge-editor").is_hidden()
    page.keyboard.press("4")  # merge: the editor appears, the reason gets focus
    assert page.locator("#merge-editor").is_visible()
    page.fill("#id_content", '{"bio": "calm, mostly"}')
    page.fill("#id_reason", "both partly true")
    page.click("#resolve-form button[type=submit]")
    page.wait_for_selector(f'#conflict-panel[data-conflict-id="{second.pk}"]')
    assert "resolved: Merge into one" in page.inner_text("#conflict-panel")
    assert page.url.endswith(reverse("conflicts:detail", args=[second.pk]))
    # URL, heading, breadcrumb and title all name the conflict now on screen.
    assert page.inner_text("#conflict-panel h1") == f"Conflict {second.pk}"
    assert page.inner_text("#conflict-breadcrumb .active") == f"Conflict {second.pk}"
    assert page.title().startswith(f"Conflict {second.pk} ")
    assert_inert(page)
    first.refresh_from_db()
    assert first.resolution == Resolution.MERGE
    merged = MemoryItem.objects.get(pk=first.incoming_item_id)
    assert (merged.status, merged.content) == (MemoryStatus.ACTIVE, {"bio": "calm, mostly"})


def test_bad_merge_json_shows_the_error_in_place(page, hostile_conflicts):
    first, _ = hostile_conflicts
    page.goto(reverse("conflicts:detail", args=[first.pk]))
    page.check("#resolution-merge")
    page.fill("#id_content", "{oops")
    page.fill("#id_reason", "try")
    page.click("#resolve-form button[type=submit]")
    page.wait_for_selector("#content-error")
    assert "not valid JSON" in page.inner_text("#content-error")
    assert page.locator("#merge-editor").is_visible()
    first.refresh_from_db()
    assert first.is_open


def test_row_keep_newest_swaps_the_row(page, hostile_conflicts):
    first, _ = hostile_conflicts
    page.goto(reverse("conflicts:list"))
    page.fill("#bulk-reason", "triage")
    page.click(f"#conflict-{first.pk} button")
    page.wait_for_selector(f"#conflict-{first.pk}.table-success")
    assert "Keep the new value" in page.inner_text(f"#conflict-{first.pk}")
    assert_inert(page)
