"""The remember gate (ARCHITECTURE §4): every write passes the same ordered stages.

Stages are listed in settings.MEMORY_CONSOLE_GATE_STAGES as dotted paths, so apps that
build on `memory` (quarantine, conflicts) plug theirs in without `memory` importing
them. A stage is a class with `name` and `inspect(draft)`; it may
- raise GateRejected to refuse the write (a clear 400 at the API),
- change the draft (redact content, set `status`, add `notes`),
- set `draft.merged_into` to stop the pipeline (dedupe), or
- register `draft.on_persist(callback)`: called with the saved item inside the same
  transaction (create a queue entry, a conflict record, supersede an old item).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from apps.core.errors import ServiceError

# GateRejected codes that are not plain bad input.
_STATUS_BY_CODE = {"not_found": 404, "too_large": 413}


class GateRejected(ServiceError):
    """The write is refused; `fields` maps input fields to messages for the 400 answer."""

    def __init__(self, message: str, *, code: str = "invalid", fields: dict | None = None):
        super().__init__(message, code=code, fields=fields, status=_STATUS_BY_CODE.get(code, 400))


@dataclass
class Draft:
    """A write on its way through the gate; stages read and amend it."""

    raw: dict[str, Any]
    actor: Any
    api_key_prefix: str = ""
    # Filled by validation: the resolved tenant and scope and the MemoryItem field values.
    tenant: Any = None
    scope: Any = None
    values: dict[str, Any] = field(default_factory=dict)
    status: str = "active"
    # Small, content-free facts for the audit event (detector names, finding kinds).
    notes: dict[str, Any] = field(default_factory=dict)
    merged_into: Any = None
    callbacks: list[Callable[[Any], None]] = field(default_factory=list)

    def on_persist(self, callback: Callable[[Any], None]) -> None:
        """Run `callback(item)` after the item is saved, in the same transaction."""
        self.callbacks.append(callback)


class Stage(Protocol):
    name: str

    def inspect(self, draft: Draft) -> None: ...


@cache
def configured_stages() -> tuple[Stage, ...]:
    """Instantiate the stages named in settings, once per process."""
    return tuple(import_string(path)() for path in settings.MEMORY_CONSOLE_GATE_STAGES)


def run_hooks(setting: str, *, item_id: Any, actor: Any) -> None:
    """Call each function named in the setting with the item and actor, in order.

    Hooks let the apps built on `memory` react to its state changes (conflicts to a
    release, quarantine to a forget) without `memory` importing them.
    """
    for path in getattr(settings, setting):
        import_string(path)(item_id=item_id, actor=actor)


def resume_after_release(*, item_id: Any, actor: Any) -> None:
    """Apply the checks a held write skipped (e.g. conflicts) once a reviewer releases it.

    Quarantined drafts stop before the conflict stage, so the hooks named in
    settings.MEMORY_CONSOLE_AFTER_RELEASE_HOOKS run when the item becomes active.
    """
    run_hooks("MEMORY_CONSOLE_AFTER_RELEASE_HOOKS", item_id=item_id, actor=actor)
