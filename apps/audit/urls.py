"""Console pages of the audit log under /audit/."""

from django.urls import path

from apps.audit import views

app_name = "audit"
urlpatterns = [
    path("", views.AuditListView.as_view(), name="list"),
    path("export.csv", views.AuditExportView.as_view(), name="export"),
    path("verify/", views.AuditVerifyView.as_view(), name="verify"),
    path("checkpoint.json", views.AuditCheckpointView.as_view(), name="checkpoint"),
]
