"""The console's sections, in navigation order.

A section is linked once its URL exists and only to users who hold, somewhere, one of
the permissions it needs (None: every signed-in user). Apps publish a pending count
for their section through the composition root (memory_console/pipeline.py), which
installs {url name: callable(user) -> int | None} here.
"""

from collections.abc import Callable, Mapping

SECTIONS: list[tuple[str, str, frozenset[str] | None]] = [
    ("Dashboard", "dashboard", None),
    ("Memories", "memory:list", frozenset({"view_memories"})),
    ("Quarantine", "quarantine:queue", frozenset({"review_memories", "manage_privacy"})),
    ("Conflicts", "conflicts:list", frozenset({"review_memories"})),
    ("Erasure requests", "privacy:requests", frozenset({"manage_privacy"})),
    ("Denylist", "privacy:denylist", frozenset({"manage_privacy"})),
    ("Snapshots", "snapshots:list", frozenset({"export_snapshots"})),
    ("Reports", "reports:list", frozenset({"view_reports"})),
    ("Audit log", "audit:list", frozenset({"view_audit"})),
]

# Filled once per process by memory_console.pipeline.install().
COUNTS: dict[str, Callable[..., int | None]] = {}


def install_counts(counts: Mapping[str, Callable[..., int | None]]) -> None:
    """Register the pending-count callables shown beside the sections."""
    COUNTS.clear()
    COUNTS.update(counts)
