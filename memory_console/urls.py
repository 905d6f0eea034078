"""URL map: console pages per app, the agent API under /api/v1/, schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from memory_console.health import healthz
from memory_console.metrics import metrics_view

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("", include("apps.access.urls")),
    path("", include("apps.reports.urls")),
    path("memories/", include("apps.memory.urls")),
    path("quarantine/", include("apps.quarantine.urls")),
    path("conflicts/", include("apps.conflicts.urls")),
    path("audit/", include("apps.audit.urls")),
    path("api/v1/", include("memory_console.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]
