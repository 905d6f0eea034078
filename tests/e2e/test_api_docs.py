"""/api/docs/ (Swagger UI) and /api/redoc/ render their operations under the CSP.

Scripts stay 'self' everywhere: our template overrides load every script from a URL.
Only the docs pages let the libraries add <style> elements; the console keeps
style-src 'self'.
"""

import pytest
from django.urls import reverse

from tests.conftest import browser_test, logged_in_page


def directive(response, name: str) -> str:
    policy = response["Content-Security-Policy"]
    return next(part.strip() for part in policy.split(";") if part.strip().startswith(name))


@pytest.mark.django_db
def test_docs_pages_relax_styles_only_and_the_console_keeps_its_policy(client, operator_a):
    for name in ("api-docs", "api-redoc"):
        answer = client.get(reverse(name))
        assert answer.status_code == 200
        assert "unsafe-inline" not in directive(answer, "script-src")
        assert "<script>" not in answer.content.decode()  # no inline script to allow
    client.force_login(operator_a)
    console = client.get(reverse("dashboard"))
    assert "unsafe-inline" not in console["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("name", "rendered"),
    [("api-docs", ".opblock-summary"), ("api-redoc", "[data-section-id*='operation']")],
)
@browser_test[0]
@browser_test[1]
@browser_test[2]
def test_docs_render_operations_in_a_real_browser(browser, live_server, admin_user, name, rendered):
    page = logged_in_page(browser, live_server, admin_user)
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    try:
        page.goto(reverse(name))
        page.wait_for_selector(rendered, timeout=20000)
        assert page.locator(rendered).count() >= 5
        assert "Memory Console API" in page.inner_text("body")
        assert [text for text in violations if "script" in text] == []
    finally:
        page.context.close()
