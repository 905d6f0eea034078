"""The records a package's lines hold, checked one by one, and the upgrade of older versions.

Version 2 (current): scope records `{"t": "scope", "n", "kind", "external_id", "subject",
"items"}` come before the items that name them by `n`; item records are
`{"t": "item", "s": n, "id", "memory_type", "category", "key", "content", "source",
"source_kind", "run_id", "importance", "half_life_days", "confidence", "last_access_at",
"access_count", "expires_at", "status", "superseded_by", "created_at", "sensitive",
"metadata"}`; `metadata` was added within version 2 and is optional (absent: `{}`).
Version 1 had items only, each naming its scope inline (`"scope": "kind:id"`,
`"subject"`), `"type"` for the memory type and epoch seconds for times; `upgrade_v1`
turns each into the version 2 records. Nothing here logs or echoes content.
"""

import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from apps.core.validation import InvalidContent, validate_content, validate_metadata
from apps.memory.models import MemoryStatus, MemoryType, SourceKind
from apps.snapshots.package import PackageError
from apps.tenancy.models import ScopeKind

# Statuses an export carries (held items are not exported: they wait for review here).
EXPORTED_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED, MemoryStatus.SUPERSEDED)
_STATUSES = frozenset(str(s) for s in EXPORTED_STATUSES)
_TYPES = frozenset(MemoryType.values)
_SOURCE_KINDS = frozenset(SourceKind.values)
_SCOPE_KINDS = frozenset(ScopeKind.values)
MAX_ID = 200


@dataclass(frozen=True)
class ScopeRecord:
    number: int
    kind: str
    external_id: str
    subject: str
    items: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.external_id}"


@dataclass
class ItemRecord:
    scope: int
    id: str
    memory_type: str
    category: int
    key: str
    content: dict[str, Any]
    source: str
    source_kind: str
    run_id: str
    importance: float
    half_life_days: float | None
    confidence: float
    last_access_at: datetime
    access_count: int
    expires_at: datetime | None
    status: str
    superseded_by: str
    created_at: datetime
    sensitive: bool
    metadata: dict[str, Any]


class Malformed(Exception):
    """One field of one record is wrong; the reader adds where the record is."""


def _str(data: dict, name: str, *, limit: int = MAX_ID, required: bool = False) -> str:
    value = data.get(name, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Malformed(f"{name} must be a string")
    if len(value) > limit:
        raise Malformed(f"{name} is longer than {limit} characters")
    if required and not value:
        raise Malformed(f"{name} is missing")
    return value


def _int(data: dict, name: str, *, low: int, high: int) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Malformed(f"{name} must be an integer from {low} to {high}")
    return value


def _float(data: dict, name: str, *, low: float, high: float, optional: bool = False):
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Malformed(f"{name} must be a number from {low} to {high}")
    return float(value)


def _time(data: dict, name: str, *, optional: bool = False) -> datetime | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise Malformed(f"{name} is not a valid time") from None
    if not isinstance(value, str):
        raise Malformed(f"{name} must be an ISO 8601 time")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise Malformed(f"{name} is not a valid ISO 8601 time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


# A memory id as exports write it (lower-case, hyphenated): taken as it is.
_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _uuid(value: Any, name: str, *, optional: bool = False) -> str:
    if value in (None, "") and optional:
        return ""
    if type(value) is str and _CANONICAL_UUID.fullmatch(value):
        return value
    text = str(value)
    text = text.removeprefix("mem_")
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise Malformed(f"{name} is not a memory id") from None


def parse_scope(data: dict) -> ScopeRecord:
    kind = _str(data, "kind", required=True)
    if kind not in _SCOPE_KINDS:
        raise Malformed(f"scope kind {kind!r} is not one of {sorted(_SCOPE_KINDS)}")
    return ScopeRecord(
        number=_int(data, "n", low=0, high=2**31),
        kind=kind,
        external_id=_str(data, "external_id", required=True),
        subject=_str(data, "subject"),
        items=_int(data, "items", low=-1, high=2**62),  # -1: not counted (version 1)
    )


def parse_item(data: dict) -> ItemRecord:
    memory_type = _str(data, "memory_type", required=True)
    if memory_type not in _TYPES:
        raise Malformed(f"memory_type {memory_type!r} is not one of {sorted(_TYPES)}")
    source_kind = _str(data, "source_kind") or SourceKind.IMPORT
    if source_kind not in _SOURCE_KINDS:
        raise Malformed(f"source_kind {source_kind!r} is not one of {sorted(_SOURCE_KINDS)}")
    status = _str(data, "status") or MemoryStatus.ACTIVE
    if status not in _STATUSES:
        raise Malformed(f"status {status!r} is not one of {sorted(_STATUSES)}")
    try:
        content = validate_content(data.get("content"))
    except InvalidContent as error:
        raise Malformed(f"content: {error.message}") from None
    try:
        # Packages written before items had metadata (version 1, early version 2) lack it.
        metadata = validate_metadata(data.get("metadata"))
    except InvalidContent as error:
        raise Malformed(f"metadata: {error.message}") from None
    created_at = _time(data, "created_at")
    last_access_at = _time(data, "last_access_at", optional=True) or created_at
    assert created_at is not None and last_access_at is not None
    return ItemRecord(
        scope=_int(data, "s", low=0, high=2**31),
        id=_uuid(data.get("id"), "id"),
        memory_type=memory_type,
        category=_int(data, "category", low=0, high=99) if "category" in data else 0,
        key=_str(data, "key"),
        content=content,
        source=_str(data, "source") or "unknown",
        source_kind=source_kind,
        run_id=_str(data, "run_id"),
        importance=_float(data, "importance", low=0.0, high=1.0),
        half_life_days=_float(data, "half_life_days", low=1e-6, high=1e6, optional=True),
        confidence=_float(data, "confidence", low=0.0, high=1.0, optional=True) or 1.0,
        last_access_at=last_access_at,
        access_count=_int(data, "access_count", low=0, high=2**31) if "access_count" in data else 0,
        expires_at=_time(data, "expires_at", optional=True),
        status=status,
        superseded_by=_uuid(data.get("superseded_by"), "superseded_by", optional=True),
        created_at=created_at,
        sensitive=bool(data.get("sensitive", False)),
        metadata=metadata,
    )


class V1Upgrader:
    """Turns version 1 lines (items naming their scope inline) into version 2 records."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[str, str], int] = {}

    def upgrade(self, data: dict) -> list[dict]:
        scope_key = data.get("scope")
        if not isinstance(scope_key, str) or ":" not in scope_key:
            raise Malformed('scope must be a "kind:id" string')
        kind, external_id = scope_key.split(":", 1)
        subject = data.get("subject") or ""
        records: list[dict] = []
        number = self.numbers.get((scope_key, subject))
        if number is None:
            number = self.numbers[(scope_key, subject)] = len(self.numbers)
            # A version 1 package counted items per package only, not per scope.
            records.append(
                {
                    "t": "scope",
                    "n": number,
                    "kind": kind,
                    "external_id": external_id,
                    "subject": subject,
                    "items": -1,
                }
            )
        item = {k: v for k, v in data.items() if k not in {"scope", "subject", "type"}}
        item.update({"t": "item", "s": number, "memory_type": data.get("type")})
        records.append(item)
        return records


def decode_line(line: bytes) -> dict:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise Malformed("the line is not valid JSON") from None
    if not isinstance(data, dict):
        raise Malformed("the line is not a JSON object")
    return data


def where(chunk: int, line: int) -> str:
    return f"chunk {chunk}, line {line}"


def malformed(error: Malformed, *, chunk: int, line: int) -> PackageError:
    return PackageError(
        f"Malformed record at {where(chunk, line)}: {error}.", code="malformed_item"
    )
