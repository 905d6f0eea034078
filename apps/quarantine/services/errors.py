"""The refusals of quarantine decisions, and the check of a reviewer's edited content."""

import json
from typing import Any

from django.conf import settings


class QuarantineError(Exception):
    """A decision that cannot be applied; the message is safe to show to the reviewer."""


class AlreadyDecided(QuarantineError):
    """Another reviewer decided the entry first."""


class InvalidContent(QuarantineError):
    """Edited content is not a JSON object within the size limit."""


def validate_content(content: Any) -> dict:
    """Edited content must be a JSON object (or its text) within the size limit."""
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError as error:
            raise InvalidContent(f"Content is not valid JSON: {error.msg}.") from None
    if not isinstance(content, dict) or not content:
        raise InvalidContent("Content must be a non-empty JSON object.")
    size = len(json.dumps(content, ensure_ascii=False).encode())
    if size > settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES:
        raise InvalidContent(
            f"Content is {size} bytes; the limit is {settings.MEMORY_CONSOLE_MAX_CONTENT_BYTES}."
        )
    return content
