"""A person at the real login page is locked out after the configured failures, and the
right password no longer helps (issue 12 point 2), in headless Debian chromium."""

from django.test import override_settings

from apps.audit.models import Action, AuditEvent
from tests.conftest import browser_test
from tests.factories import UserFactory

pytestmark = browser_test

PASSWORD = "correct-horse-battery"
LIMIT = 3


def submit(page, username: str, password: str) -> int:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation() as navigation:
        page.click("button[type=submit]")
    return navigation.value.status


@override_settings(AXES_FAILURE_LIMIT=LIMIT)
def test_login_page_locks_out_after_the_configured_failures(browser, live_server):
    UserFactory(username="officer2")
    page = browser.new_context(base_url=live_server.url).new_page()
    statuses = [submit(page, "officer2", "wrong") for _ in range(LIMIT - 1)]
    assert statuses == [200] * (LIMIT - 1)
    assert page.locator(".alert-danger").is_visible()  # "did not match"
    assert submit(page, "officer2", "wrong") == 429
    assert page.locator("#locked-out").is_visible()
    assert submit(page, "officer2", PASSWORD) == 429  # the right password is refused too
    assert page.locator("#locked-out").is_visible()
    assert "sessionid" not in {cookie["name"] for cookie in page.context.cookies()}
    assert AuditEvent.objects.filter(action=Action.AUTH_LOCKED_OUT).count() == 1
