"""Restore, pass 1's judging: every item through the gate's validate, sensitive-data and
injection stages (the stage objects the composition root installs), then turned into
its staging row.

The stages cost far more per item than reading the package does (the injection
detectors above all), so a large restore judges batches of items in a pool of worker
processes, one per core, while this process reads, checks and stages: batches go out
in order, at most a few per worker at a time (memory stays flat), and their rows come
back in the same order. What crosses between the processes is kept small, since
pickling it costs both sides: a batch names each item's target scope by number and
carries each target once (a `Landing`, not the Scope), and the rows come back as one
block of COPY text (staging.row_block) that this process writes as it is.

The workers are forked from this process (the detectors are loaded already, the
settings and wiring are this process's) and each opens a database connection of its
own, which sees what this process sees: pass 1 writes nothing outside its temporary
tables. Small packages, one core, a restore inside a transaction (whose uncommitted
rows a worker could not see), a daemonic process (which may not have children) or one
running other threads (a fork would copy their held locks) judge here instead; the
verdicts are the same.
"""

import multiprocessing
import multiprocessing.util
import os
import threading
import uuid
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db import connection, connections

from apps.core.types import Actor
from apps.memory import wiring
from apps.memory.gate import Draft, GateRejected, NewMemory
from apps.memory.gate.stages import ValidateStage
from apps.memory.recall.lexemes import stored_lexemes, stored_lexemes_agree
from apps.memory.scoring import compute_archive_due_at
from apps.snapshots.package.records import ItemRecord
from apps.snapshots.services import staging
from apps.tenancy.models import Scope, Tenant

if TYPE_CHECKING:
    from apps.snapshots.services.restore import TargetScope

# Items per batch sent to a worker, and batches in flight per worker.
BATCH_ITEMS = 500
BATCHES_PER_WORKER = 2
# Below this many items a pool costs more than it saves.
POOL_MIN_ITEMS = 5_000


class Landing(NamedTuple):
    """What judging needs of an item's target scope (the scope's id: None until the
    apply creates it)."""

    number: int
    scope_id: int | None
    kind: str
    external_id: str
    subject: str


@dataclass
class Batch:
    """Items to judge, in package order: (sequence number, record, target number), and
    the targets they name."""

    tenant: Tenant
    actor: Actor
    restore: str  # which restore the batch belongs to
    items: list[tuple[int, ItemRecord, int]] = field(default_factory=list)
    landings: dict[int, Landing] = field(default_factory=dict)

    def add(self, seq: int, record: ItemRecord, target: "TargetScope") -> None:
        self.items.append((seq, record, target.number))
        if target.number not in self.landings:
            self.landings[target.number] = target.landing()


@dataclass
class Judged:
    """A judged batch: the staging rows of the items that pass, and the codes the gate
    refused the others with."""

    rows: staging.RowBlock
    refused: list[str]


def judging_stages() -> tuple:
    """The gate's stages a restored item passes: validate, then the content stages
    (sensitive data, injection) as installed by the composition root."""
    return (ValidateStage(), *wiring.current().content_stages)


def _judge(
    item: ItemRecord, target: Landing, *, scope: Scope, tenant: Tenant, actor: Actor, stages
) -> Draft:
    memory = NewMemory(
        tenant=tenant,
        scope=scope,
        memory_type=item.memory_type,
        content=item.content,
        source=item.source,
        source_kind=item.source_kind,
        category=item.category,
        key=item.key,
        importance=item.importance,
        half_life_days=item.half_life_days,
        confidence=item.confidence,
        expires_at=item.expires_at,
        subject=target.subject,
        run_id=item.run_id,
        last_access_at=item.last_access_at,
        metadata=item.metadata,
    )
    draft = Draft(memory=memory, actor=actor, status=item.status)
    for stage in stages:
        stage.inspect(draft)
    return draft


def _row(item: ItemRecord, draft: Draft, *, seq: int, target: Landing, tenant) -> dict:
    memory = draft.memory
    assert memory.half_life_days is not None and memory.last_access_at is not None
    return {
        "seq": seq,
        "scope_no": target.number,
        "old_id": item.id,
        "superseded_old": item.superseded_by or None,
        "outcome": "new",
        # Computed here, in the judging workers, not per row by the apply's trigger.
        "recall_lexemes": stored_lexemes(None, memory.text) if stored_lexemes_agree() else None,
        "id": uuid.uuid4(),
        "memory_type": memory.memory_type,
        "category": memory.category,
        "key": memory.key,
        "content": memory.content,
        "text": memory.text,
        "content_hash": memory.content_hash,
        "source": memory.source,
        "source_kind": memory.source_kind,
        "run_id": memory.run_id,
        "importance": memory.importance,
        "half_life_days": memory.half_life_days,
        "confidence": memory.confidence,
        "last_access_at": memory.last_access_at,
        "access_count": item.access_count,
        "archive_due_at": compute_archive_due_at(
            importance=memory.importance,
            half_life_days=memory.half_life_days,
            last_access_at=memory.last_access_at,
            threshold=tenant.archive_threshold,
        ),
        "expires_at": memory.expires_at,
        "status": draft.status,
        "created_at": item.created_at,
        "sensitive": item.sensitive or memory.sensitive,
        "sealed_content": memory.sealed_content,
        "flags": list(memory.flags),
        "metadata": memory.metadata,
    }


class _ScopeCache:
    """The Scope objects of one restore's landings, built once per process (a worker
    judges many batches of the same restore); a batch of another restore starts afresh."""

    def __init__(self) -> None:
        self.restore = ""
        self.scopes: dict[Landing, Scope] = {}

    def scope_of(self, landing: Landing, batch: "Batch") -> Scope:
        if batch.restore != self.restore:
            self.restore, self.scopes = batch.restore, {}
        scope = self.scopes.get(landing)
        if scope is None:
            scope = self.scopes[landing] = Scope(
                pk=landing.scope_id,
                tenant=batch.tenant,
                kind=landing.kind,
                external_id=landing.external_id,
                subject=landing.subject,
            )
        return scope


_scope_cache = _ScopeCache()


def judge_batch(batch: Batch) -> Judged:
    """Judge each item of the batch with the gate's stages: the staging rows of those
    that pass, and the codes of the gate's refusals."""
    stages = judging_stages()
    rows: list[dict] = []
    refused: list[str] = []
    for seq, item, number in batch.items:
        target = batch.landings[number]
        scope = _scope_cache.scope_of(target, batch)
        try:
            draft = _judge(
                item, target, scope=scope, tenant=batch.tenant, actor=batch.actor, stages=stages
            )
        except GateRejected as refusal:
            refused.append(refusal.code)
        else:
            rows.append(_row(item, draft, seq=seq, target=target, tenant=batch.tenant))
    return Judged(rows=staging.row_block(rows), refused=refused)


# The database wrappers a worker inherited: kept, never used nor closed, since their
# sockets are the restoring process's (closing one would end that process's session).
_inherited_connections: list[Any] = []


def _start_worker() -> None:
    """In a forked worker: leave the parent's database connections alone and open our own
    on first use."""
    for inherited in connections.all(initialized_only=True):
        _inherited_connections.append(inherited)
        del connections[inherited.alias]
    # The worker's own connections end with it (a forked worker skips atexit).
    multiprocessing.util.Finalize(None, connections.close_all, exitpriority=10)


def pool_size(expected_items: int) -> int:
    """Worker processes for a restore of this many items (0: judge in this process)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (
        (cores or 1) < 2
        or expected_items < POOL_MIN_ITEMS
        or connection.vendor != "postgresql"
        # A worker's connection would not see what this transaction has not committed.
        or connection.in_atomic_block
        or multiprocessing.current_process().daemon  # may not have children
        # Forking copies only this thread: a lock another thread holds would stay held.
        or threading.active_count() > 1
    ):
        return 0
    return cores or 1


class Judge:
    """Judges batches in order, here or in a pool; `submit` and `finish` yield the
    verdicts of the batches that are done, oldest first.

    The first batch is always judged here: that loads the detectors (patterns, model)
    once, before the workers are forked and share them."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.pending: deque[Future] = deque()
        self.judged_here = False

    def submit(self, batch: Batch) -> Iterator[Judged]:
        if not self.workers or not self.judged_here:
            self.judged_here = True
            yield judge_batch(batch)
            return
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_start_worker,
            )
        self.pending.append(self.pool.submit(judge_batch, batch))
        while len(self.pending) > self.workers * BATCHES_PER_WORKER:
            yield self.pending.popleft().result()

    def finish(self) -> Iterator[Judged]:
        while self.pending:
            yield self.pending.popleft().result()

    def close(self) -> None:
        """Stop the workers (waiting for them, so their CPU time is counted as ours)."""
        for future in self.pending:
            future.cancel()
        self.pending.clear()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
