"""Every state change of memory items and scopes; import from here.

Split by concern: `items` (the primitives: create, update, activate, delete, roll back),
`gate` (the remember runner and the door for new content), `agent_ops` (edit, forget,
feedback, merge), `scopes` (creation on first write, forgetting a whole scope),
`accesses` (recall reinforcement), `lifecycle` (the scheduled archival and expiry, and
an operator's restore), `embeddings` (the provider's embedding of a write that came
without one).
"""

from apps.memory.services.accesses import record_recall_accesses
from apps.memory.services.agent_ops import (
    FeedbackSignal,
    MergeRefused,
    forget_item,
    give_feedback,
    merge_items,
    patch_item,
)
from apps.memory.services.embeddings import embed_item
from apps.memory.services.gate import RememberResult, remember, remember_many, screen_content
from apps.memory.services.items import (
    RollbackRefused,
    StaleVersion,
    activate_item,
    create_item,
    delete_items,
    refresh_archive_due_at,
    rollback_to_version,
    snapshot_version,
    update_item,
    version_of,
)
from apps.memory.services.lifecycle import (
    NotArchived,
    archive_due_items,
    expire_items,
    restore_item,
)
from apps.memory.services.scopes import ScopeForgotten, create_scope, forget_scope

__all__ = [
    "FeedbackSignal",
    "MergeRefused",
    "NotArchived",
    "RememberResult",
    "RollbackRefused",
    "ScopeForgotten",
    "StaleVersion",
    "activate_item",
    "archive_due_items",
    "create_item",
    "create_scope",
    "delete_items",
    "embed_item",
    "expire_items",
    "forget_item",
    "forget_scope",
    "give_feedback",
    "merge_items",
    "patch_item",
    "record_recall_accesses",
    "refresh_archive_due_at",
    "remember",
    "remember_many",
    "restore_item",
    "rollback_to_version",
    "screen_content",
    "snapshot_version",
    "update_item",
    "version_of",
]
