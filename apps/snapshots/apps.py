from django.apps import AppConfig


class SnapshotsConfig(AppConfig):
    name = "apps.snapshots"
    label = "snapshots"
    verbose_name = "Snapshots and imports"
