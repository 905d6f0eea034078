from django.apps import AppConfig


class QuarantineConfig(AppConfig):
    name = "apps.quarantine"
    label = "quarantine"
