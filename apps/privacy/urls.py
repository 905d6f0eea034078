from django.urls import path

from apps.privacy import views

app_name = "privacy"
urlpatterns = [
    path("requests/", views.RequestListView.as_view(), name="requests"),
    path("requests/new/", views.RequestCreateView.as_view(), name="create"),
    path("requests/<int:pk>/", views.RequestDetailView.as_view(), name="detail"),
    path("requests/<int:pk>/receipt/", views.ReceiptView.as_view(), name="receipt"),
    path("requests/<int:pk>/receipt.json", views.ReceiptJsonView.as_view(), name="receipt_json"),
    path("requests/<int:pk>/<slug:step>/", views.RequestStepView.as_view(), name="step"),
    path("denylist/", views.DenylistView.as_view(), name="denylist"),
    path("denylist/<int:pk>/lift/", views.LiftEntryView.as_view(), name="lift"),
]
