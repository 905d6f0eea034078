"""The agent and console REST API (/api/v1/); each app contributes its routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("apps.memory.api_urls")),
    path("", include("apps.quarantine.api_urls")),
    path("", include("apps.conflicts.api_urls")),
    path("", include("apps.audit.api_urls")),
    path("", include("apps.privacy.api_urls")),
]
