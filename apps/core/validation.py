"""The one content check: every way content enters (API, console, merge, restore) uses it.

PostgreSQL cannot store NUL in text or jsonb, and NaN/Infinity are not JSON and poison
scores, so both are refused wherever they sit in the decoded structure (keys included).
"""

import json
import math
from typing import Any

from django.conf import settings

from apps.core.errors import ServiceError


class InvalidContent(ServiceError):
    code = "invalid_content"


# The deepest nesting of arrays and objects a JSON value may have (the value itself is
# level 1). Real memories nest a few levels; a thousand levels only exhaust the stack.
MAX_JSON_DEPTH = 32


# A tuple, not `dict | list`: isinstance checks a union several times slower, and every
# API body's embedding sends hundreds of numbers through this check.
_CONTAINERS = (dict, list)


def nests_deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays/objects in `value` nest more than `limit` levels (no recursion)."""
    pending = [(value, 1)] if isinstance(value, _CONTAINERS) else []
    while pending:
        node, depth = pending.pop()
        children = node.values() if isinstance(node, dict) else node
        if depth > limit:
            return True
        pending.extend([(child, depth + 1) for child in children if isinstance(child, _CONTAINERS)])
    return False


def _find_unstorable(value: Any, path: str) -> str | None:
    """Name the first place holding a NUL character or a non-finite number, else None."""
    if isinstance(value, str):
        return f"{path}: NUL characters are not allowed." if "\x00" in value else None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path}: numbers must be finite."
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(key, str) and "\x00" in key:
                return f"{path}: NUL characters are not allowed in keys."
            found = _find_unstorable(child, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list | tuple):
        for index, child in enumerate(value):
            found = _find_unstorable(child, f"{path}[{index}]")
            if found:
                return found
    return None


def ensure_storable(value: Any, *, field: str = "content") -> None:
    """The last line before a write: refuse deep nesting, NUL and non-finite numbers anywhere."""
    if nests_deeper_than(value, MAX_JSON_DEPTH):
        message = f"{field.capitalize()} nests deeper than {MAX_JSON_DEPTH} levels."
        raise InvalidContent(message, code="too_deep", fields={field: [message]})
    problem = _find_unstorable(value, field)
    if problem:
        raise InvalidContent(problem, fields={field: [problem]})


def _encoded_size(value: Any, *, field: str) -> int:
    """Bytes of the value as compact UTF-8 JSON (what jsonb will hold, roughly)."""
    try:
        return len(json.dumps(value, ensure_ascii=False, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        message = f"{field.capitalize()} must be plain JSON with finite numbers."
        raise InvalidContent(message, fields={field: [message]}) from exc


def validate_content(value: Any) -> dict:
    """Check content is a non-empty JSON object within the size limit, storable as jsonb."""
    if not isinstance(value, dict) or not value:
        raise InvalidContent(
            'Content must be a non-empty JSON object, e.g. {"city": "Haidian"}.',
            fields={"content": ["must be a non-empty JSON object"]},
        )
    ensure_storable(value)
    size = _encoded_size(value, field="content")
    limit = settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES
    if size > limit:
        # A field error (400), not 413: the request was accepted, its content is too big.
        message = f"Content is {size} bytes; the limit is {limit // 1024} KiB."
        raise InvalidContent(message, fields={"content": [message]})
    return value


# Free-form metadata an agent attaches to a memory (filterable by its top-level keys).
MAX_METADATA_BYTES = 4096


def validate_metadata(value: Any) -> dict:
    """Check metadata is a JSON object (possibly empty) of at most MAX_METADATA_BYTES,
    storable as jsonb; the same rules as content otherwise."""
    if value is None or value == {}:  # most writes carry none
        return {}
    if not isinstance(value, dict):
        message = 'Metadata must be a JSON object, e.g. {"thread": "t_42"}.'
        raise InvalidContent(message, fields={"metadata": [message]})
    ensure_storable(value, field="metadata")
    size = _encoded_size(value, field="metadata")
    if size > MAX_METADATA_BYTES:
        message = f"Metadata is {size} bytes; the limit is {MAX_METADATA_BYTES // 1024} KiB."
        raise InvalidContent(message, fields={"metadata": [message]})
    return value


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_content(raw: Any) -> dict:
    """Content typed by a person (the JSON text of an object) or already decoded, validated."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw, parse_constant=_refuse_constant)
        except RecursionError:
            message = f"Content nests deeper than {MAX_JSON_DEPTH} levels."
            raise InvalidContent(message, code="too_deep", fields={"content": [message]}) from None
        except ValueError as exc:
            detail = (
                f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
                if isinstance(exc, json.JSONDecodeError)
                else str(exc)
            )
            message = f"Content is not valid JSON: {detail}."
            raise InvalidContent(message, fields={"content": [message]}) from None
    return validate_content(raw)
