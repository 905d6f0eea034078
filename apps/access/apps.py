from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "apps.access"
    label = "access"

    def ready(self) -> None:
        from apps.access import receivers

        receivers.connect()
