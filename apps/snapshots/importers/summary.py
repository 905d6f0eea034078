"""What an import did, counted: printed by the command and audited (counts only)."""

from dataclasses import asdict, dataclass

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor

# The outcomes of one record, in the order the summary lists them.
OUTCOMES = {
    "imported": "imported",
    "pending_review": "held for conflict review",
    "merged": "merged as duplicate",
    "quarantined": "quarantined",
    "refused": "refused",
    "skipped_erased": "skipped as erased",
}


@dataclass
class ImportSummary:
    """Counts of one import, per outcome; `unreadable` says why it stopped early."""

    format: str
    imported: int = 0
    pending_review: int = 0
    merged: int = 0
    quarantined: int = 0
    refused: int = 0
    skipped_erased: int = 0
    unreadable: str = ""

    @property
    def records(self) -> int:
        return sum(getattr(self, name) for name in OUTCOMES)

    def count(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def lines(self) -> list[str]:
        """The summary as the command prints it."""
        done = "stopped early" if self.unreadable else "done"
        lines = [f"Import ({self.format}) {done}: {self.records:,} record(s)."]
        lines += [f"  {label}: {getattr(self, name):,}" for name, label in OUTCOMES.items()]
        if self.unreadable:
            lines.append(f"  stopped: {self.unreadable}")
        return lines


def record_import_summary(*, summary: ImportSummary, tenant_id: int, actor: Actor) -> None:
    """Audit an import's outcome: format and counts, never content or positions."""
    data = {name: value for name, value in asdict(summary).items() if name != "unreadable"}
    data["complete"] = not summary.unreadable
    record(
        actor=actor,
        action=Action.IMPORT_FINISHED,
        target_type="memory.memoryitem",
        tenant=tenant_id,
        data=data,
    )
