"""The memory app's own gate stages: validation and dedupe (placeholders until issue 4)."""

from apps.memory.gate import Draft


class ValidateStage:
    name = "validate"

    def inspect(self, draft: Draft) -> None:
        """Placeholder: the Memory API issue implements schema, size and scope checks."""


class DedupeStage:
    name = "dedupe"

    def inspect(self, draft: Draft) -> None:
        """Placeholder: merge into an existing item with the same normalised content."""
