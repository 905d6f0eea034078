"""The project's own app config: installs the composition root once every app is ready."""

from django.apps import AppConfig


class PipelineConfig(AppConfig):
    name = "memory_console"
    label = "memory_console"
    verbose_name = "Memory Console wiring"

    def ready(self) -> None:
        from memory_console import pipeline

        pipeline.install()
