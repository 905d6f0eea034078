"""Routes of the conflicts API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.conflicts.api import ConflictViewSet

app_name = "conflicts-api"

router = SimpleRouter()
router.register("conflicts", ConflictViewSet, basename="conflict")

urlpatterns = [path("", include(router.urls))]
