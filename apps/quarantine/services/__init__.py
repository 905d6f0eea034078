"""Every state change of the quarantine queue: flag, decide, bulk-decide, corroborate,
contain a blast radius.

Split by concern (decisions, corroboration, blast radius; claims and errors shared);
import from here. Item changes go through apps.memory.services so versions and audit
stay whole.
"""

from apps.quarantine.services.blast_radius import (
    BLAST_DIMENSIONS,
    BLAST_MAX_ITEMS,
    blast_radius_items,
    blast_radius_summary,
    contain_blast_radius,
)
from apps.quarantine.services.claims import MAX_REASON_LENGTH, OPEN_STATUSES
from apps.quarantine.services.corroboration import (
    CORROBORATION_ACTOR,
    TRUSTED_CORROBORATION_KINDS,
    corroborate,
    writer_identity,
)
from apps.quarantine.services.decisions import (
    DECISIONS,
    BulkOutcome,
    bulk_decide,
    edit_and_release,
    escalate_entry,
    flag_item,
    reject_entry,
    release_entry,
    withdraw_forgotten,
)
from apps.quarantine.services.errors import AlreadyDecided, QuarantineError

__all__ = [
    "BLAST_DIMENSIONS",
    "BLAST_MAX_ITEMS",
    "CORROBORATION_ACTOR",
    "DECISIONS",
    "MAX_REASON_LENGTH",
    "OPEN_STATUSES",
    "TRUSTED_CORROBORATION_KINDS",
    "AlreadyDecided",
    "BulkOutcome",
    "QuarantineError",
    "blast_radius_items",
    "blast_radius_summary",
    "bulk_decide",
    "contain_blast_radius",
    "corroborate",
    "edit_and_release",
    "escalate_entry",
    "flag_item",
    "reject_entry",
    "release_entry",
    "withdraw_forgotten",
    "writer_identity",
]
