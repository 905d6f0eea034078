"""Every console page needs a login; a grant on tenant A never shows tenant B."""

import re
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from apps.memory.models import MemoryStatus
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db

# Not console pages: the login page itself, the API (401/403 JSON), schema and docs,
# Django admin (its own login), static files, the favicon (a redirect to one), and the
# operator endpoints /healthz (no login by CONTRACT) and /metrics (restricted by address:
# tests/test_observability.py).
EXCLUDED_PREFIXES = ("login", "api/", "admin/", "static/", "favicon.ico", "healthz", "metrics")


def _console_patterns(resolver: URLResolver | None = None, prefix: str = ""):
    """(route, url name) of every console URL pattern, however deep its include."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(EXCLUDED_PREFIXES):
            continue
        if isinstance(entry, URLResolver):
            namespace = entry.namespace
            for sub_route, name in _console_patterns(entry, route):
                yield sub_route, f"{namespace}:{name}" if namespace and name else name
        elif isinstance(entry, URLPattern) and entry.name:
            yield route, entry.name


_SAMPLE_ARGS = {"int": 1, "uuid": uuid.uuid4(), "str": "release", "slug": "x", "path": "x"}


def _sample_url(route: str, name: str) -> str:
    """The URL with a made-up value for each parameter (pages must redirect before lookup)."""
    params = re.findall(r"<(?:(\w+):)?(\w+)>", route)
    kwargs = {param: _SAMPLE_ARGS.get(converter or "str", "x") for converter, param in params}
    return reverse(name, kwargs=kwargs)


CONSOLE_URLS = sorted({(name, _sample_url(route, name)) for route, name in _console_patterns()})


def test_the_console_has_pages_to_check():
    names = {name for name, _ in CONSOLE_URLS}
    assert {"dashboard", "memory:list", "memory:detail", "logout"} <= names


@pytest.mark.parametrize(("name", "url"), CONSOLE_URLS, ids=[n for n, _ in CONSOLE_URLS])
def test_anonymous_request_to_console_page_redirects_to_login(client, name, url):
    if name == "logout":
        pytest.skip("logging out needs no login")
    login = reverse("login")
    for method in (client.get, client.post):
        response = method(url)
        assert response.status_code == 302, (name, method.__name__, response.status_code)
        assert response["Location"].startswith(login), (name, response["Location"])


def test_anonymous_request_to_a_real_item_redirects_to_login(client, tenant_a):
    item = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
    response = client.get(reverse("memory:detail", args=[item.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_grant_on_tenant_a_shows_a_figures_and_items_and_hides_b(
    client, operator_a, tenant_a, tenant_b
):
    mine = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a), status=MemoryStatus.ACTIVE)
    theirs = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_b))
    client.force_login(operator_a)

    dashboard = client.get(reverse("dashboard"))
    assert [row.tenant.slug for row in dashboard.context["dashboard"].rows] == ["tenant-a"]
    assert dashboard.context["dashboard"].rows[0].counts["active"] == 1

    listing = client.get(reverse("memory:list")).content.decode()
    assert str(mine.pk) in listing and str(theirs.pk) not in listing
    assert client.get(reverse("memory:detail", args=[mine.pk])).status_code == 200
    assert client.get(reverse("memory:detail", args=[theirs.pk])).status_code == 404
