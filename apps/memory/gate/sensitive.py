"""Sensitive-data stage (placeholder until issue 4): detect, then redact, encrypt or reject."""

from apps.memory.gate import Draft


class SensitiveDataStage:
    name = "sensitive_data"

    def inspect(self, draft: Draft) -> None:
        """Placeholder."""
