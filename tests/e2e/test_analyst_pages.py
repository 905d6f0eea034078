"""An analyst, in a real browser, walks every page reachable from the console on the seeded
demo: the report pages draw their charts (Chart.js under the CSP, no inline script) and no
page, download or API answer they reach shows any memory content."""

import os
from collections import deque
from urllib.parse import urljoin, urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from apps.memory.models import MemoryItem, MemoryVersion
from apps.reports.models import HealthReport
from tests.conftest import browser_test

pytestmark = [*browser_test, pytest.mark.slow]
NOT_FOLLOWED = ("/logout", "/admin/", "/api/docs", "/api/schema", "/static/")


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    texts = set(MemoryItem.objects.values_list("text", flat=True))
    texts |= set(MemoryVersion.objects.values_list("text", flat=True))
    # Whole texts, long enough not to be an ordinary label by chance.
    return sorted(text for text in texts if len(text) >= 16)


@pytest.fixture
def analyst_page(browser, live_server, seeded):
    client = Client()
    client.force_login(get_user_model().objects.get(username="analyst"))
    context = browser.new_context(base_url=live_server.url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.dialogs = []
    page.console_errors = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on(
        "console",
        lambda message: (
            page.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    yield page
    context.close()


def _leaks(body: str, texts: list[str]) -> list[str]:
    return [text for text in texts if text in body]


def test_every_page_an_analyst_reaches_shows_aggregates_and_never_content(
    analyst_page, live_server, seeded
):
    page = analyst_page
    origin = urlparse(live_server.url).netloc
    queue, seen, visited = deque(["/"]), {"/"}, []
    while queue and len(visited) < 60:
        path = queue.popleft()
        response = page.goto(path)
        page.wait_for_load_state("networkidle")
        visited.append((path, response.status))
        body = page.content()
        assert _leaks(body, seeded) == [], path
        hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        for href in hrefs:
            url = urlparse(urljoin(live_server.url, href))
            if url.netloc != origin or url.path.startswith(NOT_FOLLOWED):
                continue
            target = url.path + (f"?{url.query}" if url.query else "")
            if target not in seen:
                seen.add(target)
                if url.path.endswith((".csv", ".json")):
                    download = page.request.get(target)
                    assert download.ok, target
                    assert _leaks(download.text(), seeded) == [], target
                    visited.append((target, download.status))
                else:
                    queue.append(target)
    paths = [path for path, _ in visited]
    print("analyst visited:", visited)
    reports = HealthReport.objects.exclude(tenant=None)
    assert any(path == f"/reports/{reports.first().pk}/" for path in paths)
    assert "/reports/" in paths and any(path.endswith("report.csv") for path in paths)
    # The API the analyst may call answers aggregates only, too.
    api = page.request.get("/api/v1/reports/")
    assert api.ok and _leaks(api.text(), seeded) == []
    first = api.json()["results"][0]["id"]
    assert _leaks(page.request.get(f"/api/v1/reports/{first}/").text(), seeded) == []
    # Content pages stay shut to an analyst.
    item = MemoryItem.objects.first()
    assert page.goto(f"/memories/{item.pk}/").status == 404
    assert page.dialogs == []


def test_the_report_page_draws_every_chart_under_the_csp(analyst_page):
    page = analyst_page
    report = HealthReport.objects.filter(tenant__slug="support-bot-prod").order_by("-week_start")[0]
    page.goto(f"/reports/{report.pk}/")
    page.wait_for_function("document.body.dataset.chartsReady !== undefined")
    canvases = page.locator("canvas[data-chart]")
    assert canvases.count() == int(page.evaluate("document.body.dataset.chartsReady")) >= 11
    drawn = page.evaluate(
        "Array.from(document.querySelectorAll('canvas[data-chart]')).every(c => !!c.chart)"
    )
    assert drawn
    assert page.locator("#week-over-week tbody tr").count() >= 10
    assert [error for error in page.console_errors if "Content Security Policy" in error] == []
    if shots := os.environ.get("E2E_SCREENSHOTS"):
        page.screenshot(path=f"{shots}/analyst-report-page.png", full_page=True)
