from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"

    def ready(self) -> None:
        from apps.core.jobs import sync_beat_schedule

        post_migrate.connect(sync_beat_schedule, sender=self, dispatch_uid="sync_beat_schedule")
