"""The remember gate (ARCHITECTURE §4): every write passes the same ordered stages.

The gate's input is a `NewMemory`: resolved values (tenant, scope, content, scoring…),
never an HTTP body. The API serializer builds one; so can an importer, a snapshot
restore or a reviewer's edit. The runner (apps.memory.services.gate) wraps it in a
`Draft` and shows the draft to each stage in turn. A stage JUDGES ONLY; it may
- raise GateRejected to refuse the write (a clear 400 at the API),
- amend the draft (redact `draft.memory.content`, set `draft.status`, add `notes`),
- point at an active twin (`draft.twin`, dedupe): the runner merges instead of inserting,
- register work: `draft.on_persist(callback)` runs with the saved item inside the
  write's transaction (a queue entry, a conflict record); `draft.on_commit(callback)`
  runs after that transaction commits.
It never writes. A stage may also offer `prepare(drafts)`: for a batch
(`remember_many`), the lookups it would make for each draft, made once for all of them
before any is judged, kept in `draft.prepared[stage.name]`; `inspect` uses an answer
only while it still fits the draft, and looks up itself otherwise. For a single write a
stage may offer `look_up(draft) -> Lookup | None` instead: its lookup as a query, which
the runner sends with the other stages' in one statement (one round trip) before the
write is judged, handing each stage its row to keep in `draft.prepared` likewise.
The runner performs every write (scope creation, the insert or the dedupe merge, the
callbacks) in one transaction.

Which stages run, and in which order, is listed by import in the composition root
`memory_console/pipeline.py` (see apps.memory.wiring).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from apps.core.errors import ServiceError

# GateRejected codes that are not plain bad input.
_STATUS_BY_CODE = {"not_found": 404, "too_large": 413}


class GateRejected(ServiceError):
    """The write is refused; `fields` maps input fields to messages for the 400 answer."""

    def __init__(self, message: str, *, code: str = "invalid", fields: dict | None = None):
        super().__init__(message, code=code, fields=fields, status=_STATUS_BY_CODE.get(code, 400))


@dataclass
class NewMemory:
    """A memory to be written, as resolved values (the gate's one input type).

    `scope` is a saved Scope, or an unsaved one (no pk) that the runner creates, audited,
    inside the write's transaction: a refused write leaves no scope behind. `embedding`
    is float32 bytes. `text` and `content_hash` may be left empty: the validate stage
    derives them from `content`.
    """

    tenant: Any
    scope: Any
    memory_type: str
    content: dict[str, Any]
    source: str
    source_kind: str = "explicit_statement"
    category: int = 0
    key: str = ""
    importance: float = 0.5
    half_life_days: float | None = None
    confidence: float = 1.0
    expires_at: datetime | None = None
    subject: str = ""
    run_id: str = ""
    embedding: bytes | None = None
    embedding_model: str = ""
    api_key_prefix: str = ""
    # The agent's free-form metadata object (validated by the builder: ≤ 4 KiB).
    metadata: dict[str, Any] = field(default_factory=dict)
    # Derived from content (and rewritten by the sensitive-data stage when it redacts/seals).
    text: str = ""
    content_hash: str = ""
    sensitive: bool = False
    sealed_content: str = ""
    last_access_at: datetime | None = None
    # When the memory was first written elsewhere (an importer's or a restore's original
    # time, in UTC); None: now.
    created_at: datetime | None = None
    # What the injection stage noticed about a write it let through (instruction_like,
    # unverified_source, …): stored on the item, carried by recall results (issue 17).
    flags: list[str] = field(default_factory=list)


class Twin(NamedTuple):
    """The active item a write duplicates (dedupe): the runner merges into it."""

    id: Any
    importance: float
    access_count: int


@dataclass
class Draft:
    """A write on its way through the gate; stages read and amend it, never write."""

    memory: NewMemory
    actor: Any
    status: str = "active"
    # Small, content-free facts for the audit event (detector names, finding kinds).
    notes: dict[str, Any] = field(default_factory=dict)
    twin: Twin | None = None
    callbacks: list[Callable[[Any], None]] = field(default_factory=list)
    commit_callbacks: list[Callable[[], None]] = field(default_factory=list)
    # What a stage's `prepare` looked up for this draft in a batch, by stage name.
    prepared: dict[str, Any] = field(default_factory=dict)
    # The text as the writer sent it, kept by the sensitive-data stage when it redacts or
    # seals `memory.text`: the injection stage judges these words, since an attacker's
    # address or number is evidence even where the stored text hides it. Never stored.
    written_text: str = ""
    # A restored item that restore's first pass held on the words as written: judged again
    # over its stored (perhaps redacted) copy, it stays held (apps.snapshots apply).
    held_when_written: bool = False

    @property
    def tenant(self) -> Any:
        return self.memory.tenant

    @property
    def scope(self) -> Any:
        return self.memory.scope

    def on_persist(self, callback: Callable[[Any], None]) -> None:
        """Run `callback(item)` after the item is saved, in the same transaction."""
        self.callbacks.append(callback)

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run `callback()` once the write's transaction has committed (merged or not)."""
        self.commit_callbacks.append(callback)


class Lookup(NamedTuple):
    """A stage's lookup for one write (see the module's docstring): a SELECT of at most
    one row of `columns` columns, and what to do with that row (None: no row)."""

    sql: str
    params: list[Any]
    columns: int
    keep: Callable[[tuple | None], None]


class Stage(Protocol):
    """A judge of drafts; it may also define `prepare(drafts: Sequence[Draft]) -> None`
    and `look_up(draft: Draft) -> Lookup | None` (lookups made ahead, see the module's
    docstring): optional, so not declared here."""

    name: str

    def inspect(self, draft: Draft) -> None: ...


# A reaction of another app to a memory state change: hook(item_id=…, actor=…).
Hook = Callable[..., Any]
