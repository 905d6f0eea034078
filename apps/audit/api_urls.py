"""Routes of the audit API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.audit.api import AuditEventViewSet

app_name = "audit-api"

router = SimpleRouter()
router.register("audit-events", AuditEventViewSet, basename="audit-event")

urlpatterns = [path("", include(router.urls))]
