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


def validate_content(value: Any) -> dict:
    """Check content is a non-empty JSON object within the size limit, storable as jsonb."""
    if not isinstance(value, dict):
        raise InvalidContent("Content must be a JSON object.")
    if not value:
        raise InvalidContent("Content must not be empty.")
    problem = _find_unstorable(value, "content")
    if problem:
        raise InvalidContent(problem)
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False).encode()
    except (TypeError, ValueError) as exc:
        raise InvalidContent("Content must be plain JSON with finite numbers.") from exc
    limit = settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES
    if len(encoded) > limit:
        raise InvalidContent(
            f"Content is {len(encoded)} bytes; the limit is {limit}.", code="too_large", status=413
        )
    return value
