"""Cleaning shared by every importer: what a foreign record becomes before the gate.

A reader turns each record of a foreign file into a `Record` — a remember body in our
item schema (the API's field names) plus `created_at` — or a `Refusal` naming where and
why. Cleaning fills what foreign exports leave out or spell their own way:
- a missing or blank `source` becomes "unknown", a missing `source_kind` "import";
- timestamps become UTC datetimes, from epoch seconds or milliseconds (numbers or
  digit strings) or ISO 8601 strings (a time without an offset is taken as UTC).
"""

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import IO, Any

from apps.memory.models import SourceKind

UNKNOWN_SOURCE = "unknown"
# Epoch values above this are milliseconds: 10^11 seconds is the year 5138.
_MILLISECONDS_FROM = 100_000_000_000
_DIGITS = re.compile(r"-?\d+(\.\d+)?")
# A JSON Lines line longer than this is refused, not held in memory (content is ≤ 64 KiB).
MAX_LINE_BYTES = 1024 * 1024


class BadRecord(ValueError):
    """A foreign record that cannot become a memory item; the message says why."""


class Unreadable(Exception):
    """The file as a whole cannot be read (not the format, not valid JSON): the import
    stops there, and the command exits non-zero."""


@dataclass(frozen=True)
class Record:
    """One foreign record, mapped onto our item schema: `body` is a remember body
    without `tenant` (the import names it), `created_at` the original time or None."""

    position: str
    body: dict[str, Any]
    created_at: datetime | None = None


@dataclass(frozen=True)
class Refusal:
    """A record refused before the gate: where it was (line or item) and why."""

    position: str
    reason: str


def to_utc(value: Any, *, field: str) -> datetime | None:
    """A timestamp as an aware UTC datetime: epoch s/ms (number or digits) or ISO 8601."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, bool):
        raise BadRecord(f"{field}: not a timestamp.")
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = float(value)
    if isinstance(value, int | float):
        seconds = value / 1000 if abs(value) >= _MILLISECONDS_FROM else value
        try:
            return datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise BadRecord(f"{field}: epoch value out of range.") from None
    if not isinstance(value, str):
        raise BadRecord(f"{field}: not a timestamp.")
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadRecord(f"{field}: not an ISO 8601 time or epoch value.") from None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def to_utc_date_end(value: Any, *, field: str) -> datetime | None:
    """Like to_utc, but a bare date (`2026-05-01`) means the end of that day, UTC."""
    if isinstance(value, str) and len(value.strip()) == 10:
        try:
            day = date.fromisoformat(value.strip())
        except ValueError:
            raise BadRecord(f"{field}: not an ISO 8601 date.") from None
        return datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=UTC)
    return to_utc(value, field=field)


def clean_body(body: dict[str, Any]) -> dict[str, Any]:
    """Fill the defaults foreign exports leave out; normalise `expires_at` to UTC."""
    cleaned = dict(body)
    source = cleaned.get("source")
    if source is None or (isinstance(source, str) and not source.strip()):
        cleaned["source"] = UNKNOWN_SOURCE
    if not cleaned.get("source_kind"):
        cleaned["source_kind"] = SourceKind.IMPORT.value
    for optional in ("key", "subject", "run_id"):
        if cleaned.get(optional) is None:
            cleaned.pop(optional, None)
    expires_at = to_utc(cleaned.get("expires_at"), field="expires_at")
    cleaned["expires_at"] = expires_at.isoformat() if expires_at else None
    return cleaned


def json_lines(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON or BadRecord) for each non-blank line, read one at a time."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the long line
                line = stream.readline(MAX_LINE_BYTES)
            yield number, BadRecord(f"longer than {MAX_LINE_BYTES // 1024} KiB.")
            continue
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            yield number, BadRecord(f"not JSON ({_short(error)}).")


def _short(error: Exception) -> str:
    return str(error).split(":", 1)[0][:80]
