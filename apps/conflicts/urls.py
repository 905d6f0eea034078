from django.urls import path

from apps.conflicts import views

app_name = "conflicts"
urlpatterns = [
    path("", views.QueueView.as_view(), name="list"),
    path("<int:pk>/", views.DetailView.as_view(), name="detail"),
    path("<int:pk>/resolve/", views.ResolveView.as_view(), name="resolve"),
    path("<int:pk>/revert/", views.RevertView.as_view(), name="revert"),
    path("bulk/keep-newest/", views.BulkKeepNewestView.as_view(), name="bulk_keep_newest"),
    path("reinstate/<uuid:item_id>/", views.ReinstateView.as_view(), name="reinstate"),
]
