"""The gate runner: every new memory and every new content enters through here.

`remember(new=…, actor=…)` shows a Draft of the NewMemory to each configured stage, then
performs what the stages decided, in one transaction: the scope (when the write
creates it), the insert or the dedupe merge, the stages' on-persist work, and (after
commit) their on-commit work. `remember_many` is the same door for a batch: one
transaction in which a refused write takes only its own work back, the stages' batch
lookups (`Stage.prepare`) done once for all writes, and the plain new items stored
together, set-based. `screen_content`
is the same door for new content of an existing item (edit, merge): the content-judging
stages over a NewMemory of the item.
Stages are listed in memory_console/pipeline.py (see apps.memory.wiring).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.core.validation import validate_content
from apps.memory import wiring
from apps.memory.embedding_provider import provider_model
from apps.memory.gate import Draft, GateRejected, NewMemory, Stage, Twin
from apps.memory.models import MemoryItem
from apps.memory.scoring import reinforce
from apps.memory.services.items import NewItemRows, new_item_rows, store_items, update_item
from apps.memory.services.scopes import create_scope


@dataclass(frozen=True)
class RememberResult:
    """What a write through the gate produced: the item, its status, and whether the
    write was folded into an existing item (dedupe) instead of adding one."""

    item: MemoryItem
    status: str
    merged: bool


def remember(
    *,
    new: NewMemory,
    actor: Actor,
    action: Action = Action.MEMORY_CREATED,
    stages: tuple[Stage, ...] | None = None,
) -> RememberResult:
    """Run a new memory through every gate stage, then persist what they decided atomically.

    Stages may refuse (GateRejected), hold the item (status quarantined / pending_review),
    or point at an active twin to merge into; their on-persist callbacks run after the
    insert, inside the same transaction, so a queue entry never exists without its item.
    """
    draft = Draft(memory=new, actor=actor)
    stages = stages or wiring.current().gate_stages
    try:
        with transaction.atomic():
            _look_up_ahead(draft, stages=stages)
            _judge(draft, stages=stages)
            return _persist(draft, action=action)
    except GateRejected as refusal:
        _record_refusal(draft, refusal)
        raise


def _look_up_ahead(draft: Draft, *, stages: tuple[Stage, ...]) -> None:
    """The stages' lookups of a single write (`look_up`), made before it is judged: on
    PostgreSQL in one statement, each lookup's row beside the others' (one round trip
    where each stage would make its own)."""
    lookups = []
    for stage in stages:
        look_up = getattr(stage, "look_up", None)
        lookup = look_up(draft) if look_up is not None else None
        if lookup is not None:
            lookups.append(lookup)
    if not lookups:
        return
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(lookups) == 1:
            for lookup in lookups:
                cursor.execute(lookup.sql, lookup.params)
                lookup.keep(cursor.fetchone())
            return
        cursor.execute(
            _side_by_side([lookup.sql for lookup in lookups]),
            [param for lookup in lookups for param in lookup.params],
        )
        row = cursor.fetchone()
    start = 0
    for lookup in lookups:
        found, *values = row[start : start + 1 + lookup.columns]
        lookup.keep(tuple(values) if found else None)
        start += 1 + lookup.columns


def _side_by_side(queries: list[str]) -> str:
    """One row holding the first row of each query, after a column saying whether it had
    one (PostgreSQL: a LEFT JOIN LATERAL of each on a row of no columns)."""
    # Only the stages' own query texts are interpolated; every value is a parameter.
    joins = " ".join(
        f"LEFT JOIN LATERAL (SELECT true, ahead_{n}.* FROM ({sql}) AS ahead_{n} LIMIT 1) "  # noqa: S608
        f"AS found_{n} ON true"
        for n, sql in enumerate(queries)
    )
    return f"SELECT * FROM (SELECT) AS ahead {joins}"  # noqa: S608


class _HeldInserts:
    """A batch's plain new items (no twin, no callbacks), held back and stored together:
    before the next statement of the batch runs, whatever it is (a stage's lookup, a
    merge, a refusal's audit event, a savepoint), and at the end. So every statement sees
    the database as if each write had been stored at once, in order, and the items of a
    run of plain writes go in one statement. Used as a connection.execute_wrapper."""

    def __init__(self) -> None:
        self.rows: list[NewItemRows] = []
        self._storing = False

    def hold(self, rows: NewItemRows) -> None:
        self.rows.append(rows)

    def store(self) -> None:
        if self.rows and not self._storing:
            self._storing = True  # store_items' own statements pass straight through
            try:
                store_items(self.rows)
            finally:
                self._storing = False
            self.rows = []

    def __call__(self, execute, sql, params, many, context):
        self.store()
        return execute(sql, params, many, context)


def remember_many(
    news: Sequence[NewMemory],
    *,
    actor: Actor,
    action: Action = Action.MEMORY_CREATED,
    stages: tuple[Stage, ...] | None = None,
) -> list[RememberResult | ServiceError]:
    """Run a batch of new memories through the gate, in order: one answer per write.

    The same stages and writes as `remember`, in one transaction, so a refused write (its
    ServiceError is its answer) takes back only its own work: a write that creates its
    scope runs in a savepoint, and so does the persisting of a merge or of an item with
    on-persist work; a plain new item writes nothing before it is accepted, and is stored
    with the batch's other plain items (`_HeldInserts`). Stages that can look up for
    many writes at once (`prepare`: the dedupe locks and twins, the denylist) do so once,
    before any write is judged. An unexpected error (the database failing) fails the
    whole batch: nothing of it is kept.
    """
    stages = stages or wiring.current().gate_stages
    drafts = [Draft(memory=new, actor=actor) for new in news]
    answers: list[RememberResult | ServiceError] = []
    created: dict[tuple[int, str, str], Any] = {}  # scopes this batch created, by key
    held = _HeldInserts()
    with transaction.atomic(), connection.execute_wrapper(held):
        for stage in stages:
            prepare = getattr(stage, "prepare", None)
            if prepare is not None:
                prepare(drafts)
        for draft in drafts:
            memory = draft.memory
            if memory.scope is not None and memory.scope.pk is None:
                memory.scope = created.get(_scope_key(memory.scope), memory.scope)
            try:
                answers.append(
                    _judge_and_persist_in_batch(draft, action=action, stages=stages, held=held)
                )
            except GateRejected as refusal:
                _record_refusal(draft, refusal)
                answers.append(refusal)
                continue
            except ServiceError as refusal:  # the last check before a write (content)
                answers.append(refusal)
                continue
            created.setdefault(_scope_key(memory.scope), memory.scope)
        held.store()
    return answers


def _judge_and_persist_in_batch(
    draft: Draft, *, action: Action, stages: tuple[Stage, ...], held: _HeldInserts
) -> RememberResult:
    """One write of a batch, in a savepoint only where it may write before it can fail."""
    if draft.memory.scope is not None and draft.memory.scope.pk is None:
        with transaction.atomic():  # a savepoint: the scope goes if the write is refused
            _judge(draft, stages=stages)
            return _persist(draft, action=action)
    _judge(draft, stages=stages)  # writes nothing
    if draft.twin is not None or draft.callbacks:
        with transaction.atomic():  # a savepoint: this write's work alone
            return _persist(draft, action=action)
    return _persist(draft, action=action, store=held.hold)


def _scope_key(scope: Any) -> tuple[int, str, str]:
    return (scope.tenant_id, scope.kind, scope.external_id)


def _record_refusal(draft: Draft, refusal: GateRejected) -> None:
    """Audit a refusal once the write's own work was rolled back, so the record survives."""
    new, actor = draft.memory, draft.actor
    if refusal.code == "sensitive_data" and new.tenant is not None:
        record(
            actor=actor,
            action=Action.MEMORY_REJECTED_SENSITIVE,
            target_type="memory.memoryitem",
            tenant=new.tenant,
            data={
                "kinds": draft.notes.get("sensitive_kinds", []),
                "api_key": new.api_key_prefix,
            },
        )
    # A stage's own record of its refusal (e.g. a denylisted subject), kept likewise.
    follow_up = getattr(refusal, "after_rollback", None)
    if follow_up is not None:
        follow_up(actor=actor)


def _judge(draft: Draft, *, stages: tuple[Stage, ...]) -> None:
    """Show the draft to each stage in turn (creating its scope first if it is new)."""
    memory, actor = draft.memory, draft.actor
    if memory.scope is not None and memory.scope.pk is None:
        # The write's first use of this scope: created (audited) in the write's transaction,
        # so a refused write leaves no scope behind.
        memory.scope = create_scope(
            tenant=memory.tenant,
            kind=memory.scope.kind,
            external_id=memory.scope.external_id,
            subject=memory.subject,
            actor=actor,
        )
    for stage in stages:
        stage.inspect(draft)
        if draft.twin is not None:
            break


def _store_now(rows: NewItemRows) -> None:
    store_items([rows])


def _persist(
    draft: Draft, *, action: Action, store: Callable[[NewItemRows], None] = _store_now
) -> RememberResult:
    """Perform what the stages decided: the merge into the twin, or the insert (by
    `store`) and the stages' on-persist callbacks; then register their on-commit work."""
    memory, actor = draft.memory, draft.actor
    if draft.twin is not None:
        merged = _merge_into_twin(draft, draft.twin)
        _register_commit_callbacks(draft)
        return RememberResult(item=merged, status=merged.status, merged=True)
    audit_data: dict[str, Any] = {"memory_type": memory.memory_type}
    if memory.api_key_prefix:
        audit_data["api_key"] = memory.api_key_prefix
    if draft.notes:
        audit_data["gate"] = draft.notes
    rows = new_item_rows(
        values=item_values(memory, actor=actor, status=draft.status),
        actor=actor,
        action=action,
        audit_data=audit_data,
    )
    store(rows)
    item = rows.item
    _register_commit_callbacks(draft)
    if not item.embedding and provider_model():
        embed_after_commit(item.pk)
    for callback in draft.callbacks:
        callback(item)
    if draft.callbacks:  # a callback may have moved the item on (e.g. superseded it)
        item.refresh_from_db(fields=["status", "version", "superseded_by"])
    return RememberResult(item=item, status=item.status, merged=False)


def _register_commit_callbacks(draft: Draft) -> None:
    for commit_callback in draft.commit_callbacks:
        transaction.on_commit(commit_callback, robust=True)


def embed_after_commit(item_id: Any) -> None:
    """Have the provider embed a write that came without an embedding: a task after
    commit, so the write path makes no HTTP call (a broker outage leaves it lexical)."""
    from apps.memory.tasks import embed_item_task  # imported here: tasks import services

    transaction.on_commit(lambda: embed_item_task.delay(str(item_id)), robust=True)


def _merge_into_twin(draft: Draft, twin: Twin) -> MemoryItem:
    """Fold the write into its active twin: the use counts, the importance combines."""
    memory = draft.memory
    return update_item(
        item_id=twin.id,
        changes={
            "importance": reinforce(max(twin.importance, memory.importance)),
            "access_count": twin.access_count + 1,
            "last_access_at": timezone.now(),
        },
        actor=draft.actor,
        action=Action.MEMORY_DEDUPLICATED,
        audit_data={"api_key": memory.api_key_prefix} if memory.api_key_prefix else None,
    )


def item_values(memory: NewMemory, *, actor: Actor, status: str) -> dict[str, Any]:
    """The MemoryItem field values of a judged NewMemory."""
    values: dict[str, Any] = {
        "tenant": memory.tenant,
        "scope": memory.scope,
        "memory_type": memory.memory_type,
        "category": memory.category,
        "key": memory.key,
        "content": memory.content,
        "text": memory.text,
        "content_hash": memory.content_hash,
        "source": memory.source,
        "source_kind": memory.source_kind,
        "created_by": actor if getattr(actor, "pk", None) else None,
        "api_key_prefix": memory.api_key_prefix,
        "run_id": memory.run_id,
        "importance": memory.importance,
        "half_life_days": memory.half_life_days,
        "confidence": memory.confidence,
        "expires_at": memory.expires_at,
        "embedding": memory.embedding,
        "embedding_model": memory.embedding_model,
        "last_access_at": memory.last_access_at,
        "sensitive": memory.sensitive,
        "sealed_content": memory.sealed_content,
        "flags": list(memory.flags),
        "metadata": memory.metadata,
        "status": status,
    }
    if memory.created_at is not None:  # an import keeps the original creation time
        values["created_at"] = memory.created_at
    return values


def new_content_of(item: MemoryItem, *, content: dict) -> NewMemory:
    """The item as a NewMemory carrying new content (which starts clean: the old
    content's sensitivity and seal do not carry over)."""
    return NewMemory(
        tenant=item.tenant,
        scope=item.scope,
        memory_type=item.memory_type,
        content=content,
        source=item.source,
        source_kind=item.source_kind,
        category=item.category,
        key=item.key,
        importance=item.importance,
        half_life_days=item.half_life_days,
        confidence=item.confidence,
        expires_at=item.expires_at,
        run_id=item.run_id,
        api_key_prefix=item.api_key_prefix,
        metadata=item.metadata,
    )


def screen_content(*, item: MemoryItem, content: dict, changes: dict, actor: Actor) -> Draft:
    """Judge new content for an existing item with the content stages (sensitive data,
    injection) and fold the verdict (redacted or sealed content, held status) into
    `changes`. The returned draft's callbacks run once the edited item is saved."""
    content = validate_content(content)
    draft = Draft(memory=new_content_of(item, content=content), actor=actor, status=item.status)
    for stage in wiring.current().content_stages:
        stage.inspect(draft)
    memory = draft.memory
    changes["content"] = memory.content
    changes["sensitive"] = memory.sensitive
    changes["sealed_content"] = memory.sealed_content
    changes["flags"] = list(memory.flags)  # new content, judged afresh
    for derived in ("text", "content_hash"):  # else update_item derives them from content
        if getattr(memory, derived):
            changes[derived] = getattr(memory, derived)
    if draft.status != item.status:
        changes["status"] = draft.status
    for callback in draft.commit_callbacks:
        transaction.on_commit(callback, robust=True)
    return draft
