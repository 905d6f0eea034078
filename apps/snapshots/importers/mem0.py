"""`--format mem0`: the JSON of Mem0's `get_all` (open-source `Memory` or the platform's
`MemoryClient`), as saved to a file.

Shapes read (mem0ai 2.x): `{"results": [item, …]}` (the open-source `get_all`, and the
platform's paginated `{"count", "next", "previous", "results"}`), or a bare list of items
(the platform's v1 answer). An item:

    {"id": "…", "memory": "Is vegetarian", "hash": "…", "metadata": {…},
     "categories": ["food"], "user_id": "alice", "agent_id": "…", "run_id": "…",
     "actor_id": "…", "role": "user", "created_at": "2026-01-10T08:12:00-08:00",
     "updated_at": "…", "expiration_date": "2026-06-30"}

Mapping: `user_id` → scope `user:<id>` (and the subject), else `agent_id` → `agent:<id>`,
else `run_id` → `session:<id>`; `run_id` is kept as the item's run id. Content is
`{"text": memory}` plus the item's `categories`, `metadata` and who said it (`agent_id`,
`actor_id`, `role`, `app_id` when not the scope) — Mem0's own id and hash are left out,
so the same fact exported twice is one memory. Type semantic (procedural when Mem0's
metadata says `procedural_memory`); category from Mem0's first category (see
CATEGORY_BY_MEM0); source `mem0`. The file is streamed (ijson): its size is not limited
by memory.
"""

from collections.abc import Iterator
from typing import IO, Any

import ijson

from apps.snapshots.importers.cleaning import (
    BadRecord,
    Record,
    Refusal,
    Unreadable,
    to_utc,
    to_utc_date_end,
)

SOURCE = "mem0"
# Where Mem0's default categories fall in our 0–99 bands (ARCHITECTURE §2).
PROFILE, TASK_PROGRESS, PREFERENCE = 0, 40, 60
CATEGORY_BY_MEM0 = {
    "personal_details": PROFILE,
    "family": PROFILE,
    "professional_details": PROFILE,
    "health": PROFILE,
    "milestones": TASK_PROGRESS,
    "user_preferences": PREFERENCE,
    "food": PREFERENCE,
    "music": PREFERENCE,
    "travel": PREFERENCE,
    "sports": PREFERENCE,
    "hobbies": PREFERENCE,
    "fashion": PREFERENCE,
    "entertainment": PREFERENCE,
    "technology": PREFERENCE,
}
# Item arrays: a bare list's, or the `results` of a get_all answer.
_ITEM_PREFIXES = frozenset({"item", "results.item"})
_ATTRIBUTION = ("agent_id", "actor_id", "role", "app_id")


def read(stream: IO[bytes], *, tenant_slug: str) -> Iterator[Record | Refusal]:
    """Each memory of a Mem0 export as a Record, or a Refusal naming the item."""
    count = 0
    for count, item in enumerate(_items(stream), start=1):
        position = f"item {count}"
        try:
            yield _record(item, position=position)
        except BadRecord as bad:
            yield Refusal(position, str(bad))
    if count == 0:
        raise Unreadable('no Mem0 memories found: expected {"results": [...]} or a list.')


def _items(stream: IO[bytes]) -> Iterator[Any]:
    """The values of the item array, built one at a time from the parser's events."""
    builder: ijson.ObjectBuilder | None = None
    depth = 0
    try:
        for prefix, event, value in ijson.parse(stream, use_float=True):
            if builder is None:
                if prefix not in _ITEM_PREFIXES or event in ("end_array", "map_key"):
                    continue
                if event not in ("start_map", "start_array"):
                    yield value  # a scalar where an item belongs: refused by _record
                    continue
                builder, depth = ijson.ObjectBuilder(), 0
            builder.event(event, value)
            depth += event in ("start_map", "start_array")
            depth -= event in ("end_map", "end_array")
            if depth == 0:
                yield builder.value
                builder = None
    except ijson.JSONError as error:
        raise Unreadable(f"not valid JSON ({str(error)[:120]}).") from None


def _record(item: Any, *, position: str) -> Record:
    if not isinstance(item, dict):
        raise BadRecord("not a JSON object.")
    text = item.get("memory")
    if not isinstance(text, str) or not text.strip():
        raise BadRecord("no memory text.")
    user_id, agent_id, run_id = (_id(item, name) for name in ("user_id", "agent_id", "run_id"))
    if user_id:
        scope, used = f"user:{user_id}", "user_id"
    elif agent_id:
        scope, used = f"agent:{agent_id}", "agent_id"
    elif run_id:
        scope, used = f"session:{run_id}", "run_id"
    else:
        raise BadRecord("no user_id, agent_id or run_id to place it in a scope.")
    metadata = item.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise BadRecord("metadata: not a JSON object.")
    categories = item.get("categories") or []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise BadRecord("categories: not a list of names.")
    content: dict[str, Any] = {"text": text}
    if categories:
        content["categories"] = categories
    if metadata:
        content["metadata"] = metadata
    said_by = {name: item[name] for name in _ATTRIBUTION if item.get(name) and name != used}
    if said_by:
        content["attribution"] = said_by
    procedural = metadata.get("memory_type") == "procedural_memory"
    body = {
        "scope": scope,
        "subject": user_id,
        "run_id": run_id,
        "memory_type": "procedural" if procedural else "semantic",
        "category": CATEGORY_BY_MEM0.get(categories[0], PROFILE) if categories else PROFILE,
        "content": content,
        "source": SOURCE,
        "expires_at": to_utc_date_end(item.get("expiration_date"), field="expiration_date"),
    }
    created_at = to_utc(item.get("created_at") or item.get("updated_at"), field="created_at")
    return Record(position, body, created_at)


def _id(item: dict, name: str) -> str:
    value = item.get(name)
    if value is None:
        return ""
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise BadRecord(f"{name}: not an identifier.")
    return str(value)
