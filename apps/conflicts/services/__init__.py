"""Every state change around conflicts: detecting, resolving, undoing, reinstating.

Split by concern (detection, resolution, reinstatement); import from here.
"""

from apps.conflicts.services.detection import (
    BULK_SCAN_ACTOR,
    DetectionReport,
    apply_conflict_policy,
    contradicting_items,
    contradiction_groups,
    detect_conflicts,
    hold_for_review,
    open_conflict,
    supersede_items,
)
from apps.conflicts.services.errors import (
    AlreadyResolved,
    ConflictError,
    NotResolved,
    NotSuperseded,
    RevertBlocked,
)
from apps.conflicts.services.reinstatement import reinstate_item
from apps.conflicts.services.resolution import (
    BulkResult,
    bulk_keep_newest,
    newest_resolution,
    resolution_touches,
    resolve_conflict,
    revert_resolution,
)

__all__ = [
    "BULK_SCAN_ACTOR",
    "AlreadyResolved",
    "BulkResult",
    "ConflictError",
    "DetectionReport",
    "NotResolved",
    "NotSuperseded",
    "RevertBlocked",
    "apply_conflict_policy",
    "bulk_keep_newest",
    "contradicting_items",
    "contradiction_groups",
    "detect_conflicts",
    "hold_for_review",
    "newest_resolution",
    "open_conflict",
    "reinstate_item",
    "resolution_touches",
    "resolve_conflict",
    "revert_resolution",
    "supersede_items",
]
