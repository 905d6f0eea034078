"""The dashboard at / and the reports pages under /reports/ (namespace "reports")."""

from django.urls import include, path

from apps.reports import views

report_patterns = [
    path("", views.ReportListView.as_view(), name="list"),
    path("<int:pk>/", views.ReportDetailView.as_view(), name="detail"),
    path("<int:pk>/report.csv", views.ReportDownloadView.as_view(), {"fmt": "csv"}, name="csv"),
    path("<int:pk>/report.json", views.ReportDownloadView.as_view(), {"fmt": "json"}, name="json"),
    path("jobs/", views.JobRunListView.as_view(), name="jobs"),
    path("jobs/<str:job>/run/", views.RunJobView.as_view(), name="run-job"),
]

urlpatterns = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("reports/", include((report_patterns, "reports"))),
]
