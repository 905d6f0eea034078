"""Routes of the reports API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.reports.api import HealthReportViewSet

app_name = "reports-api"

router = SimpleRouter()
router.register("reports", HealthReportViewSet, basename="report")

urlpatterns = [path("", include(router.urls))]
