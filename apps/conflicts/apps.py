from django.apps import AppConfig


class ConflictsConfig(AppConfig):
    name = "apps.conflicts"
    label = "conflicts"
