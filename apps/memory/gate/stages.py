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

from apps.memory.content import content_hash, render_text, rendering_hash
from apps.memory.gate import Draft, GateRejected, Lookup, Twin
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
                memory.content_hash = rendering_hash(memory.text)
        if not memory.content_hash:
            memory.content_hash = content_hash(memory.content)
        if memory.last_access_at is None:
            memory.last_access_at = timezone.now()
        if not memory.embedding:
            memory.embedding, memory.embedding_model = None, ""


# First key of the two-int advisory locks that serialise identical writes ("MCDP").
_DEDUPE_LOCK_NAMESPACE = 0x4D434450

# The oldest active item of the scope with this content under the same key, type and
# category (index mem_scope_hash narrows to the content; the rest are few rows). On
# PostgreSQL, memory_lock_and_find_twin (migration memory.0011) runs the same query after
# taking the dedupe lock; test_gate compares the answer with the equivalent queryset.
_OLDEST_ACTIVE_TWIN_SQL = f"""
    SELECT id, importance, access_count FROM {MemoryItem._meta.db_table}
    WHERE scope_id = %s AND content_hash = %s AND key = %s AND memory_type = %s
        AND category = %s AND status = %s
    ORDER BY created_at
    LIMIT 1
"""  # noqa: S608 - the only interpolation is the model's own table name
_LOCK_AND_FIND_TWIN_SQL = "SELECT * FROM memory_lock_and_find_twin(%s, %s, %s, %s, %s, %s, %s, %s)"

# What makes two writes the same memory: (scope id, content hash, key, type, category).
Identity = tuple[int, str, str, str, int]


def identity_of(memory: Any) -> Identity:
    """The dedupe identity of a NewMemory whose scope exists."""
    digest = memory.content_hash or content_hash(memory.content)
    return (memory.scope.pk, digest, memory.key, memory.memory_type, memory.category)


def _dedupe_lock_key(identity: Identity) -> int:
    """The second key of the advisory lock of one identity, a signed 32-bit int."""
    scope_id, digest, key, memory_type, category = identity
    name = f"{scope_id}:{digest}:{memory_type}:{category}:{key}"
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") - 2**31


def find_twin_in_turn(identity: Identity) -> tuple[Any, float, int] | None:
    """(id, importance, access_count) of the oldest active item of the scope with this
    content under the same key, type and category, or None; concurrent writes of the
    same memory to one scope take turns.

    The same value under another key (or type, or category) is another memory, not a
    duplicate. On PostgreSQL the lookup waits for a transaction-long advisory lock on
    that identity, all in one round trip, so a client retry racing its original merges
    instead of inserting a twin. SQLite serialises writers already.
    """
    with connection.cursor() as cursor:
        cursor.execute(*twin_query(identity))
        return cursor.fetchone()


def twin_query(identity: Identity) -> tuple[str, list[Any]]:
    """The SQL and parameters of `find_twin_in_turn` (lock included on PostgreSQL)."""
    params: list[Any] = [*identity, MemoryStatus.ACTIVE]
    if connection.vendor == "postgresql":
        return _LOCK_AND_FIND_TWIN_SQL, [
            _DEDUPE_LOCK_NAMESPACE,
            _dedupe_lock_key(identity),
            *params,
        ]
    return _OLDEST_ACTIVE_TWIN_SQL, params


# The same, for many identities: the locks in one statement (in key order, so two
# batches cannot deadlock on each other), then the twins in a second one, whose fresh
# snapshot sees what the previous holders of those locks committed.
_LOCK_MANY_SQL = "SELECT pg_advisory_xact_lock(%s, key) FROM unnest(%s::int[]) AS key"
_OLDEST_ACTIVE_TWINS_SQL = f"""
    SELECT DISTINCT ON (scope_id, content_hash, key, memory_type, category)
        scope_id, content_hash, key, memory_type, category, id, importance, access_count
    FROM {MemoryItem._meta.db_table}
    WHERE (scope_id, content_hash, key, memory_type, category) IN (
            SELECT * FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::int[]))
        AND status = %s
    ORDER BY scope_id, content_hash, key, memory_type, category, created_at
"""  # noqa: S608 - the only interpolation is the model's own table name


def find_twins_in_turn(
    identities: Sequence[Identity],
) -> dict[Identity, tuple[Any, float, int]]:
    """`find_twin_in_turn` for many identities at once, in two round trips:
    {identity: (id, importance, access_count)} for those that have a twin.

    A batch must take every dedupe lock before the audit chain's lock (which its first
    write takes): a single write holds its dedupe lock while it waits for the chain's.
    """
    if not identities:
        return {}
    if connection.vendor != "postgresql":
        found = {}
        for identity in identities:
            twin = find_twin_in_turn(identity)
            if twin is not None:
                found[identity] = twin
        return found
    with connection.cursor() as cursor:
        keys = sorted({_dedupe_lock_key(identity) for identity in identities})
        cursor.execute(_LOCK_MANY_SQL, [_DEDUPE_LOCK_NAMESPACE, keys])
        columns = [list(column) for column in zip(*identities, strict=True)]
        cursor.execute(_OLDEST_ACTIVE_TWINS_SQL, [*columns, MemoryStatus.ACTIVE])
        return {tuple(row[:5]): (row[5], row[6], row[7]) for row in cursor.fetchall()}  # type: ignore[misc]


class DedupeStage:
    """The same memory again — same normalised content, key, type and category in the
    same scope as an active item: merge, don't insert."""

    name = "dedupe"

    def inspect(self, draft: Draft) -> None:
        scope = draft.memory.scope
        if draft.status != MemoryStatus.ACTIVE or scope is None or scope.pk is None:
            # A held write never merges into (and so never vouches for) an active one;
            # a scope created by this write has no twins yet.
            return
        memory = draft.memory
        identity = identity_of(memory)
        prepared = draft.prepared.get(self.name)
        if prepared is not None and prepared[0] == identity:
            found = prepared[1]
        else:  # no batch, a content the sensitive stage rewrote, or a repeat in the batch
            found = find_twin_in_turn(identity)
        if found is not None:
            draft.twin = Twin(*found)

    def look_up(self, draft: Draft) -> Lookup | None:
        """Lock and look up the twin of a single write ahead, with the other stages'
        lookups: the same lock and answer as `inspect`'s own, taken before the screening
        (as a batch takes them). A content the screening rewrites looks up again."""
        memory = draft.memory
        scope, tenant = memory.scope, memory.tenant
        if scope is None or scope.pk is None or tenant is None or scope.tenant_id != tenant.pk:
            return None  # a new scope has no twins; a foreign one is refused by validation
        if not memory.content_hash or draft.status != MemoryStatus.ACTIVE:
            return None
        identity = identity_of(memory)

        def keep(row: tuple | None) -> None:
            draft.prepared[self.name] = (identity, row)

        return Lookup(*twin_query(identity), columns=3, keep=keep)

    def prepare(self, drafts: Sequence[Draft]) -> None:
        """Lock and look up the twins of a batch's writes at once. Only the first write
        of each identity gets the answer: a repeat in the batch looks up again, after the
        first was written (its lock is already held)."""
        first: dict[Identity, Draft] = {}
        for draft in drafts:
            memory = draft.memory
            if memory.scope is None or memory.scope.pk is None:
                continue  # a scope this batch creates has no twins yet
            first.setdefault(identity_of(memory), draft)
        twins = find_twins_in_turn(list(first))
        for identity, draft in first.items():
            draft.prepared[self.name] = (identity, twins.get(identity))
