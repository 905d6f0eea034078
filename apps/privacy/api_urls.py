"""Routes of the privacy API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.privacy.api import DeletionRequestViewSet

app_name = "privacy-api"

router = SimpleRouter()
router.register("deletion-requests", DeletionRequestViewSet, basename="deletion-request")

urlpatterns = [path("", include(router.urls))]
