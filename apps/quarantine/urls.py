"""Console pages of the quarantine queue (/quarantine/)."""

from django.urls import path

from apps.quarantine import views

app_name = "quarantine"
urlpatterns = [
    path("", views.QueueView.as_view(), name="queue"),
    path("bulk/", views.BulkDecideView.as_view(), name="bulk"),
    path("<int:pk>/", views.EntryView.as_view(), name="detail"),
    path("<int:pk>/blast-radius/", views.BlastRadiusView.as_view(), name="blast_radius"),
    path("<int:pk>/<str:decision>/", views.DecideView.as_view(), name="decide"),
]
