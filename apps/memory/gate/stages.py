"""The memory app's own gate stages: validation (first) and dedupe (after screening).

ValidateStage checks the NewMemory's invariants that no builder may skip and derives
what follows from its values (text, hash, default half-life); DedupeStage points at an
active twin of the write, which the runner then merges into instead of inserting a row.
Neither writes.
"""

import hashlib
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.utils import timezone

from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft, GateRejected, Twin
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.memory.scoring import default_half_life

NOT_FOUND_MESSAGE = "No such tenant or scope, or you may not write there."
_MEMORY_TYPES = frozenset(MemoryType.values)


class ValidateStage:
    """Invariants of every write, whoever built it; derives text, hash and half-life."""

    name = "validate"

    def inspect(self, draft: Draft) -> None:
        memory = draft.memory
        scope, tenant = memory.scope, memory.tenant
        if scope is None or tenant is None or scope.tenant_id != tenant.pk:
            raise GateRejected(NOT_FOUND_MESSAGE, code="not_found")
        if not isinstance(memory.content, dict) or not memory.content:
            message = "Content must be a non-empty JSON object."
            raise GateRejected(f"content: {message}", fields={"content": [message]})
        if memory.memory_type not in _MEMORY_TYPES:
            message = f'"{memory.memory_type}" is not a valid choice.'
            raise GateRejected(f"memory_type: {message}", fields={"memory_type": [message]})
        if memory.half_life_days is None:
            memory.half_life_days = default_half_life(
                memory_type=memory.memory_type,
                category=memory.category,
                overrides=tenant.half_life_overrides,
            )
        # Derived once here; a stage that rewrites the content (sensitive data) rewrites
        # these too.
        if not memory.text:
            memory.text = render_text(memory.content)
        if not memory.content_hash:
            memory.content_hash = content_hash(memory.content)
        if memory.last_access_at is None:
            memory.last_access_at = timezone.now()
        if not memory.embedding:
            memory.embedding, memory.embedding_model = None, ""


# First key of the two-int advisory locks that serialise identical writes ("MCDP").
_DEDUPE_LOCK_NAMESPACE = 0x4D434450

# The oldest active item of the scope with this content (index mem_scope_hash). On
# PostgreSQL, memory_lock_and_find_twin (migration memory.0006) runs the same query after
# taking the dedupe lock; test_gate compares the answer with the equivalent queryset.
_OLDEST_ACTIVE_TWIN_SQL = f"""
    SELECT id, importance, access_count FROM {MemoryItem._meta.db_table}
    WHERE scope_id = %s AND content_hash = %s AND status = %s
    ORDER BY created_at
    LIMIT 1
"""  # noqa: S608 - the only interpolation is the model's own table name
_LOCK_AND_FIND_TWIN_SQL = "SELECT * FROM memory_lock_and_find_twin(%s, %s, %s, %s, %s)"


def _dedupe_lock_key(scope_id: int, digest: str) -> int:
    """The second key of the advisory lock of (scope, content), a signed 32-bit int."""
    return (
        int.from_bytes(hashlib.sha256(f"{scope_id}:{digest}".encode()).digest()[:4], "big") - 2**31
    )


def find_twin_in_turn(*, scope_id: int, digest: str) -> tuple[Any, float, int] | None:
    """(id, importance, access_count) of the oldest active item of the scope with this
    content, or None; concurrent writes of the same content to one scope take turns.

    On PostgreSQL the lookup waits for a transaction-long advisory lock on (scope,
    content), all in one round trip, so a client retry racing its original merges
    instead of inserting a twin. SQLite serialises writers already.
    """
    if connection.vendor == "postgresql":
        sql = _LOCK_AND_FIND_TWIN_SQL
        key = _dedupe_lock_key(scope_id, digest)
        params = [_DEDUPE_LOCK_NAMESPACE, key, scope_id, digest, MemoryStatus.ACTIVE]
    else:
        sql, params = _OLDEST_ACTIVE_TWIN_SQL, [scope_id, digest, MemoryStatus.ACTIVE]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


# The same, for many (scope, content) pairs: the locks in one statement (in key order, so
# two batches cannot deadlock on each other), then the twins in a second one, whose fresh
# snapshot sees what the previous holders of those locks committed.
_LOCK_MANY_SQL = "SELECT pg_advisory_xact_lock(%s, key) FROM unnest(%s::int[]) AS key"
_OLDEST_ACTIVE_TWINS_SQL = f"""
    SELECT DISTINCT ON (scope_id, content_hash) scope_id, content_hash, id, importance,
        access_count
    FROM {MemoryItem._meta.db_table}
    WHERE (scope_id, content_hash) IN (SELECT * FROM unnest(%s::bigint[], %s::text[]))
        AND status = %s
    ORDER BY scope_id, content_hash, created_at
"""  # noqa: S608 - the only interpolation is the model's own table name


def find_twins_in_turn(
    pairs: Sequence[tuple[int, str]],
) -> dict[tuple[int, str], tuple[Any, float, int]]:
    """`find_twin_in_turn` for many (scope id, content hash) pairs at once, in two round
    trips: {pair: (id, importance, access_count)} for the pairs that have a twin.

    A batch must take every dedupe lock before the audit chain's lock (which its first
    write takes): a single write holds its dedupe lock while it waits for the chain's.
    """
    if not pairs:
        return {}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            keys = sorted({_dedupe_lock_key(scope_id, digest) for scope_id, digest in pairs})
            cursor.execute(_LOCK_MANY_SQL, [_DEDUPE_LOCK_NAMESPACE, keys])
            cursor.execute(
                _OLDEST_ACTIVE_TWINS_SQL,
                [
                    [scope for scope, _ in pairs],
                    [digest for _, digest in pairs],
                    MemoryStatus.ACTIVE,
                ],
            )
            return {(row[0], row[1]): (row[2], row[3], row[4]) for row in cursor.fetchall()}
    found = {}
    for scope_id, digest in pairs:
        twin = find_twin_in_turn(scope_id=scope_id, digest=digest)
        if twin is not None:
            found[(scope_id, digest)] = twin
    return found


class DedupeStage:
    """Same normalised content in the same scope as an active item: merge, don't insert."""

    name = "dedupe"

    def inspect(self, draft: Draft) -> None:
        scope = draft.memory.scope
        if draft.status != MemoryStatus.ACTIVE or scope is None or scope.pk is None:
            # A held write never merges into (and so never vouches for) an active one;
            # a scope created by this write has no twins yet.
            return
        memory = draft.memory
        digest = memory.content_hash or content_hash(memory.content)
        prepared = draft.prepared.get(self.name)
        if prepared is not None and prepared[0] == (scope.pk, digest):
            found = prepared[1]
        else:  # no batch, a content the sensitive stage rewrote, or a repeat in the batch
            found = find_twin_in_turn(scope_id=scope.pk, digest=digest)
        if found is not None:
            draft.twin = Twin(*found)

    def prepare(self, drafts: Sequence[Draft]) -> None:
        """Lock and look up the twins of a batch's writes at once. Only the first write
        of each (scope, content) gets the answer: a repeat in the batch looks up again,
        after the first was written (its lock is already held)."""
        first: dict[tuple[int, str], Draft] = {}
        for draft in drafts:
            memory = draft.memory
            if memory.scope is None or memory.scope.pk is None:
                continue  # a scope this batch creates has no twins yet
            digest = memory.content_hash or content_hash(memory.content)
            first.setdefault((memory.scope.pk, digest), draft)
        twins = find_twins_in_turn(list(first))
        for pair, draft in first.items():
            draft.prepared[self.name] = (pair, twins.get(pair))
