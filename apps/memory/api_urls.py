"""Routes of the agent memory API under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from apps.memory.api.batch import BatchRememberView
from apps.memory.api.history import MemoryVersionList
from apps.memory.api.memories import MemoryViewSet
from apps.memory.api.recall import RecallView
from apps.memory.api.scopes import ScopeViewSet

app_name = "memory-api"

router = SimpleRouter()
router.register("memories", MemoryViewSet, basename="memory")
router.register("scopes", ScopeViewSet, basename="scope")

urlpatterns = [
    # Before the router: its `memories/{id}/` would take "batch" for an id.
    path("memories/batch/", BatchRememberView.as_view(), name="memory-batch"),
    path("memories/<str:pk>/versions/", MemoryVersionList.as_view(), name="memory-versions"),
    path("", include(router.urls)),
    path("recall/", RecallView.as_view(), name="recall"),
]
