from django.apps import AppConfig


class ConflictsConfig(AppConfig):
    name = "apps.conflicts"
    label = "conflicts"

    def ready(self) -> None:
        from apps.audit.targets import TargetKind, register_target
        from apps.conflicts.selectors import visible_conflict_ids

        register_target(
            "conflicts.conflict",
            TargetKind(label="Conflict", url_name="conflicts:detail", visible=visible_conflict_ids),
        )
