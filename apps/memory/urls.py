"""Console pages of the memory browser (/memories/)."""

from django.urls import path

from apps.memory import views

app_name = "memory"
urlpatterns = [
    path("", views.MemoryListView.as_view(), name="list"),
    path("<uuid:pk>/", views.MemoryDetailView.as_view(), name="detail"),
    path("<uuid:pk>/rollback/", views.MemoryRollbackView.as_view(), name="rollback"),
    path("<uuid:pk>/restore/", views.MemoryRestoreView.as_view(), name="restore"),
]
