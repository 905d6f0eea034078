"""What conflict operations refuse, with a message meant for the person who asked."""

import json
from typing import Any

from django.conf import settings


class ConflictError(Exception):
    """A conflict operation that cannot be done; `message` is shown to the person."""

    code = "invalid"

    def __init__(self, message: str, *, fields: dict | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}


class AlreadyResolved(ConflictError):
    code = "already_resolved"


class NotResolved(ConflictError):
    code = "not_resolved"


class RevertBlocked(ConflictError):
    code = "changed_since"


class InvalidContent(ConflictError):
    code = "invalid_content"


class NotSuperseded(ConflictError):
    code = "not_superseded"


def _too_large(limit: int) -> InvalidContent:
    return InvalidContent(
        f"Merged content is limited to {limit // 1024} KiB.", fields={"content": "too large"}
    )


def parse_merged_content(raw: Any) -> dict:
    """Accept merged content as a JSON object (or its text) of at most the content limit."""
    limit = settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES
    if isinstance(raw, str):
        if len(raw.encode()) > limit:
            raise InvalidContent(
                f"Merged content is limited to {limit // 1024} KiB.",
                fields={"content": "too large"},
            )
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidContent(
                f"Merged content is not valid JSON: {exc.msg} (line {exc.lineno}, column "
                f"{exc.colno}).",
                fields={"content": "invalid JSON"},
            ) from None
    if not isinstance(raw, dict) or not raw:
        raise InvalidContent(
            'Merged content must be a non-empty JSON object, e.g. {"city": "Haidian"}.',
            fields={"content": "must be a JSON object"},
        )
    if len(json.dumps(raw, ensure_ascii=False).encode()) > limit:
        raise _too_large(limit)
    return raw
