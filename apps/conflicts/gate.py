"""Conflict stage of the remember gate (placeholder until the Conflicts issue)."""

from apps.memory.gate import Draft


class ConflictStage:
    name = "conflict"

    def inspect(self, draft: Draft) -> None:
        """Placeholder: same scope and key with a different value supersedes or opens a
        conflict."""
