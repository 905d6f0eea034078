"""Injection stage of the remember gate (placeholder until the Quarantine issue)."""

from apps.memory.gate import Draft


class InjectionStage:
    name = "injection"

    def inspect(self, draft: Draft) -> None:
        """Placeholder: score the text with the configured detectors; quarantine above
        the threshold."""
