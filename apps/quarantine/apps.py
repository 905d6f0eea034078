from django.apps import AppConfig


class QuarantineConfig(AppConfig):
    name = "apps.quarantine"
    label = "quarantine"

    def ready(self) -> None:
        from apps.audit.targets import TargetKind, register_target
        from apps.quarantine.selectors import visible_entry_ids

        register_target(
            "quarantine.quarantineentry",
            TargetKind(
                label="Quarantine entry", url_name="quarantine:detail", visible=visible_entry_ids
            ),
        )
