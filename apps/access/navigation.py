"""The console's sections, in navigation order.

A section is linked once its URL exists and only to users who hold, somewhere, one of
the permissions it needs (None: every signed-in user). Apps publish a pending count
for their section through the composition root (memory_console/pipeline.py), which
installs {url name: callable(user) -> int | None} here.
"""

from collections.abc import Callable, Mapping

from apps.tenancy.permissions import Perm

SECTIONS: list[tuple[str, str, frozenset[Perm] | None]] = [
    ("Dashboard", "dashboard", None),
    ("Memories", "memory:list", frozenset({Perm.VIEW_MEMORIES})),
    ("Quarantine", "quarantine:queue", frozenset({Perm.REVIEW_MEMORIES, Perm.MANAGE_PRIVACY})),
    ("Conflicts", "conflicts:list", frozenset({Perm.REVIEW_MEMORIES})),
    ("Erasure requests", "privacy:requests", frozenset({Perm.MANAGE_PRIVACY})),
    ("Denylist", "privacy:denylist", frozenset({Perm.MANAGE_PRIVACY})),
    ("Snapshots", "snapshots:list", frozenset({Perm.EXPORT_SNAPSHOTS})),
    ("Reports", "reports:list", frozenset({Perm.VIEW_REPORTS})),
    ("Audit log", "audit:list", frozenset({Perm.VIEW_AUDIT})),
]

# Filled once per process by memory_console.pipeline.install().
COUNTS: dict[str, Callable[..., int | None]] = {}


def install_counts(counts: Mapping[str, Callable[..., int | None]]) -> None:
    """Register the pending-count callables shown beside the sections."""
    COUNTS.clear()
    COUNTS.update(counts)
