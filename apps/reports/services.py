"""Integrity checks across apps: reports reads every app, so a check spanning conflicts
and quarantine lives here and calls their services to repair what it finds."""

import time
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.conflicts.services import apply_conflict_policy
from apps.memory.content import render_text
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.services import update_item
from apps.quarantine.detectors import assess
from apps.quarantine.services import flag_item
from apps.reports.selectors import pending_items_without_open_review

REVIEW_CHECK_ACTOR = "review-queue-check"
REOPENED_REASON = "Held without an open review; reopened by the review-queue check."


@dataclass
class ReviewQueueReport:
    """What the check found (item ids, no content) and, when repairing, what it did."""

    stranded: list[str] = field(default_factory=list)
    reopened_conflicts: int = 0
    reopened_entries: int = 0
    activated: int = 0

    @property
    def ok(self) -> bool:
        return not self.stranded

    def as_dict(self) -> dict:
        return {
            "stranded": len(self.stranded),
            "reopened_conflicts": self.reopened_conflicts,
            "reopened_entries": self.reopened_entries,
            "activated": self.activated,
        }


def _requeue(item_id: Any, *, actor: Any, report: ReviewQueueReport) -> None:
    """Put one stranded item back in front of a reviewer (one transaction per item)."""
    with audited_change():
        item = MemoryItem.objects.select_for_update(no_key=True).filter(pk=item_id).first()
        if item is None or not pending_items_without_open_review().filter(pk=item_id).exists():
            return  # deleted or requeued by someone else since the scan
        if item.status == MemoryStatus.QUARANTINED:
            assessment = assess(
                item.text or render_text(item.content), source_kind=item.source_kind
            )
            flag_item(
                item=item,
                assessment=assessment,
                actor=actor,
                reasons=[*assessment.reasons(), REOPENED_REASON],
            )
            report.reopened_entries += 1
            return
        # pending_review: the value meets the conflict policy again, like a new write. A
        # value still contradicted waits in a new conflict; an uncontested one is active.
        update_item(
            item_id=item.pk,
            changes={"status": MemoryStatus.ACTIVE},
            actor=actor,
            action=Action.MEMORY_REQUEUED,
            audit_data={"job": "review_queue_check"},
        )
        if apply_conflict_policy(item_id=item.pk, actor=actor) == "conflict":
            report.reopened_conflicts += 1
        else:
            report.activated += 1


def check_review_queues(
    *, actor: Any = REVIEW_CHECK_ACTOR, repair: bool = False
) -> ReviewQueueReport:
    """Report (and with `repair`, requeue) items waiting for a review no queue shows.

    Invariant: every pending item has an open review (a conflict or a quarantine entry).
    Run weekly (beat: `weekly-review-queue-check`), or `manage.py check_review_queues`.
    """
    started = time.monotonic()
    report = ReviewQueueReport()
    report.stranded = [
        str(pk)
        for pk in pending_items_without_open_review().order_by("pk").values_list("pk", flat=True)
    ]
    if repair:
        for item_id in report.stranded:
            _requeue(item_id, actor=actor, report=report)
    with transaction.atomic():
        record(
            actor=actor,
            action=Action.JOB_RUN,
            target_type="job",
            target_id="review_queue_check",
            data={
                "job": "review_queue_check",
                "repair": repair,
                **report.as_dict(),
                "duration_ms": round((time.monotonic() - started) * 1000),
            },
        )
    return report
