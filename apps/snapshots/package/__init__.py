"""The MemoryPackage (`.mcpkg`) format: docs/snapshot-format.md is its specification.

    MAGIC | u32 header length | header (JSON) | frames: u32 length | AES-256-GCM(chunk)

Each chunk is zlib-compressed JSONL (scope records, then item records), encrypted under
a random per-package data key; its associated data binds the header's SHA-256, the
chunk's index and whether it is the last one, so truncation, reordering, splicing and a
swapped header all fail authentication. `keys` wraps the data key, `stream` writes and
reads the frames, `records` defines (and upgrades) what the lines hold.
"""

from apps.core.errors import ServiceError

FORMAT_NAME = "mcpkg"
FORMAT_VERSION = 2
# Versions this reader understands (older ones are upgraded on read, see records.py).
READABLE_VERSIONS = frozenset({1, 2})
MAGIC = b"MCPKG\n"


class PackageError(ServiceError):
    """The package cannot be read: the message names the problem (and where it is)."""

    code = "invalid_package"


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "MAGIC", "READABLE_VERSIONS", "PackageError"]
