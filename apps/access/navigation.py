"""The console's sections, in navigation order. A section is linked once its URL exists.

Apps publish a pending count for their section through settings
MEMORY_CONSOLE_NAV_COUNTS: {url name: dotted path of a callable(user) -> int | None}.
"""

SECTIONS = [
    ("Dashboard", "dashboard"),
    ("Memories", "memory:list"),
    ("Quarantine", "quarantine:queue"),
    ("Conflicts", "conflicts:list"),
    ("Erasure requests", "privacy:requests"),
    ("Denylist", "privacy:denylist"),
    ("Snapshots", "snapshots:list"),
    ("Reports", "reports:list"),
    ("Audit log", "audit:list"),
]
