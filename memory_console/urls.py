"""URL map: console pages per app, the agent API under /api/v1/, schema and docs."""

from csp.decorators import csp_update
from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from memory_console.health import healthz
from memory_console.metrics import metrics_view


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on every page; point them at the static file."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))


# The API docs pages only: Swagger UI and Redoc (React, styled-components) add <style>
# elements at run time. Scripts stay 'self' (no inline script anywhere: our template
# overrides load the init script from a URL); Redoc's search runs in a blob: worker.
# The console's own pages keep style-src 'self'.
_docs_policy = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("", include("apps.access.urls")),
    path("", include("apps.reports.urls")),
    path("memories/", include("apps.memory.urls")),
    path("quarantine/", include("apps.quarantine.urls")),
    path("conflicts/", include("apps.conflicts.urls")),
    path("audit/", include("apps.audit.urls")),
    path("privacy/", include("apps.privacy.urls")),
    path("snapshots/", include("apps.snapshots.urls")),
    path("api/v1/", include("memory_console.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        _docs_policy(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        _docs_policy(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    path("admin/", admin.site.urls),
]
