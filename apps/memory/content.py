"""Deriving the searchable text and the dedupe hash from a memory's JSON content."""

import hashlib
import json
import re
import unicodedata
from typing import Any

_WHITESPACE = re.compile(r"\s+")
TEXT_KEYS = ("text", "summary", "value", "note")


def render_text(content: dict[str, Any]) -> str:
    """A plain rendering for search and display: a text-like field, else `key: value` lines."""
    for key in TEXT_KEYS:
        value = content.get(key)
        if isinstance(value, str) and len(content) == 1:
            return value
    lines = []
    # Sorted: PostgreSQL's jsonb does not keep key order, and the hash must not change
    # when an item is read back and re-rendered.
    for key, value in sorted(content.items()):
        rendered = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        lines.append(f"{key}: {rendered}")
    return "\n".join(lines)


def normalise_for_hash(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed: equal after this means the same memory."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def content_hash(content: dict[str, Any]) -> str:
    """sha256 of the normalised rendering; the dedupe key within a scope."""
    return rendering_hash(render_text(content))


def rendering_hash(text: str) -> str:
    """`content_hash` of the content that `text` is the rendering of (`render_text`), for a
    caller that has just rendered it."""
    return hashlib.sha256(normalise_for_hash(text).encode()).hexdigest()
