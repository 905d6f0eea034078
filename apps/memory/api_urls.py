"""Routes of the agent memory API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.memory.api.memories import MemoryViewSet
from apps.memory.api.recall import RecallView

app_name = "memory-api"

router = SimpleRouter()
router.register("memories", MemoryViewSet, basename="memory")

urlpatterns = [
    path("", include(router.urls)),
    path("recall/", RecallView.as_view(), name="recall"),
]
