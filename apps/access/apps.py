from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "apps.access"
    label = "access"

    def ready(self) -> None:
        # Audit's viewer filters by grants without importing access (apps.tenancy.grants).
        from apps.access import receivers, selectors
        from apps.tenancy import grants

        grants.install(selectors)
        receivers.connect()
