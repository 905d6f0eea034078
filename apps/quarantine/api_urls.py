"""Routes of the quarantine API under /api/v1/quarantine/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.quarantine.api import QuarantineEntryViewSet

app_name = "quarantine-api"

router = SimpleRouter()
router.register("quarantine", QuarantineEntryViewSet, basename="quarantine")

urlpatterns = [path("", include(router.urls))]
