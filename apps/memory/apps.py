from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "apps.memory"
    label = "memory"

    def ready(self) -> None:
        from apps.audit.targets import TargetKind, register_target
        from apps.memory.selectors import visible_item_ids

        register_target(
            "memory.memoryitem",
            TargetKind(label="Memory", url_name="memory:detail", visible=visible_item_ids),
        )
