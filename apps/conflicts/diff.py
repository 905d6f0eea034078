"""Field-level difference between two JSON objects, for the side-by-side review.

Computed in Python and rendered through auto-escaping templates: values are JSON text,
never markup.
"""

import json
from dataclasses import dataclass
from typing import Any

_MISSING = object()


class Change:
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"
    SAME = "same"


@dataclass(frozen=True)
class DiffEntry:
    """One path whose value differs (or not) between the old and the new content."""

    path: str
    change: str
    old: str = ""
    new: str = ""


def _render(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _child_path(parent: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def _walk(old: Any, new: Any, path: str, out: list[DiffEntry], include_same: bool) -> None:
    if old is _MISSING:
        out.append(DiffEntry(path, Change.ADDED, new=_render(new)))
    elif new is _MISSING:
        out.append(DiffEntry(path, Change.REMOVED, old=_render(old)))
    elif isinstance(old, dict) and isinstance(new, dict):
        for key in sorted({*old, *new}, key=str):
            _walk(
                old.get(key, _MISSING), new.get(key, _MISSING), _child_path(path, key), out,
                include_same,
            )  # fmt: skip
    elif isinstance(old, list) and isinstance(new, list):
        for index in range(max(len(old), len(new))):
            _walk(
                old[index] if index < len(old) else _MISSING,
                new[index] if index < len(new) else _MISSING,
                _child_path(path, index),
                out,
                include_same,
            )
    elif old == new and type(old) is type(new):
        if include_same:
            out.append(DiffEntry(path, Change.SAME, old=_render(old), new=_render(new)))
    else:
        out.append(DiffEntry(path, Change.CHANGED, old=_render(old), new=_render(new)))


def json_diff(old: Any, new: Any, *, include_same: bool = False) -> list[DiffEntry]:
    """Added, removed and changed leaf paths (`a.b[2].c`) from `old` to `new`."""
    out: list[DiffEntry] = []
    _walk(old if old is not None else {}, new if new is not None else {}, "", out, include_same)
    return out
