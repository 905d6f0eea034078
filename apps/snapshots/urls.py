from django.urls import path

from apps.snapshots import views

app_name = "snapshots"
urlpatterns = [
    path("", views.JobListView.as_view(), name="list"),
    path("export/", views.ExportView.as_view(), name="export"),
    path("restore/", views.UploadView.as_view(), name="upload"),
    path("<int:pk>/", views.JobDetailView.as_view(), name="detail"),
    path("<int:pk>/decide/", views.DecideView.as_view(), name="decide"),
    path("<int:pk>/download/", views.DownloadView.as_view(), name="download"),
]
