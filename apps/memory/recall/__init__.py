"""Recall (ARCHITECTURE §5): find the memories of one scope that best answer a query.

1. The scope is resolved through the caller's grants (unknown or not granted: ScopeNotFound,
   a 404 at the API). Recall never crosses scopes.
2. Lexical candidates are pre-selected in the database among the scope's active,
   unexpired items, in one statement: rows containing one of at most MAX_PATTERNS query
   patterns (ILIKE on PostgreSQL for Latin words, which the trigram GIN index on `text`
   serves; LIKE for CJK, which has no case; CJK runs of one or two characters can't use
   trigrams and are matched within the scope; LIKE on SQLite). The scan stops after
   SCAN_LIMIT matching rows, which are ordered by how many patterns they contain;
   CANDIDATE_LIMIT are kept. Where the `rum` extension is installed, the lexeme index
   (`lexemes`) serves the same patterns instead: it reads only the scope's entries and
   hands over its CANDIDATE_LIMIT best-ranked matches, however many there are. A long CJK
   query whose trigrams find too little gets a second pass on its bigrams. Only when
   asked (`pad`), the scope's most important, most recently used items top the list up
   to top_k, labelled "padding".
3. With a query embedding, the vector path (`vectors`) adds the VECTOR_LIMIT nearest
   items of the same embedding model with no lexical pre-selection: an HNSW index is
   walked for a large scope (its own index, apps.memory.vectors.index_large_scopes, or
   the table's when the scope is a large enough share of it), a small scope is ranked
   exactly (the rule: `vectors.prepare_search`), and the bytes are ranked in Python
   where pgvector is missing. The same statement gives the lexical candidates' cosines
   and fuses the two lists by reciprocal rank, returning only the first CANDIDATE_LIMIT
   (`vectors.fused_candidates`; `fuse` in Python on the fallback, in the same order).
   Both candidate statements are planned for the call's values, never prepared
   (`planned_for_each_call`); a small scope's search needs no transaction or setting.
4. Candidates are ranked in Python (hits are built for the kept ones only): final =
   α·similarity + β·recency + γ·S(t) with the tenant's weights. Similarity is the cosine
   the vector path computed when the query and the item were embedded by the same model,
   else lexical: the average, over query terms, of the share of the term's character
   n-grams found in the text (trigrams for Latin words, bigrams for CJK runs), computed
   the same way on every database. Recency is 0.5 ^ (days since last access /
   RECENCY_HALF_LIFE_DAYS): how fresh the memory is in use, independent of how long it
   is worth keeping (S(t) covers that). Hits under `min_score`, and hits matching
   neither way unless `pad`, are dropped.
5. Accesses are recorded off the request path: one Celery task, enqueued on commit,
   applies one set-based UPDATE for all hits (apps.memory.services.record_recall_accesses).

The rooms: `query` (analysis), `candidates` (the SQL pre-selection), `lexemes` (its
index, where rum exists), `vectors` (the nearest embeddings), `ranking` (fusion and
scores); this
module holds the entry point, `recall_memories`, and re-exports the parts.
"""

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from apps.core.errors import ServiceError
from apps.memory.models import MemoryItem
from apps.memory.recall import vectors as vectors_module
from apps.memory.recall.candidates import (
    CANDIDATE_LIMIT,
    SCAN_LIMIT,
    Candidate,
    lexical_statement,
    select_candidates,
)
from apps.memory.recall.query import MAX_PATTERNS, QueryTerm, lexical_similarity, query_terms
from apps.memory.recall.ranking import (
    RECENCY_HALF_LIFE_DAYS,
    RecallHit,
    cosine_similarity,
    fuse,
    rank,
    recency,
)
from apps.memory.recall.vector_search import SearchShape, granted_scope_and_shape
from apps.memory.recall.vectors import (
    VECTOR_LIMIT,
    VectorMatches,
    fused_candidates,
    nearest_items,
)
from apps.memory.selectors import granted_scope_lookup, scope_of_row, user_has_perm_on
from apps.memory.tasks import send_recall_accesses
from apps.tenancy.models import Scope, Tenant
from apps.tenancy.permissions import Perm
from memory_console.db import PrecompiledQuery, planned_for_each_call

__all__ = [
    "CANDIDATE_LIMIT",
    "MAX_PATTERNS",
    "MAX_TOP_K",
    "RECENCY_HALF_LIFE_DAYS",
    "SCAN_LIMIT",
    "VECTOR_LIMIT",
    "Candidate",
    "QueryTerm",
    "RecallHit",
    "ScopeNotFound",
    "VectorMatches",
    "cosine_similarity",
    "fuse",
    "fused_candidates",
    "lexical_similarity",
    "load_hit_items",
    "nearest_items",
    "query_terms",
    "rank",
    "recall_memories",
    "recency",
    "resolve_scope",
    "resolve_scope_and_shape",
    "select_candidates",
]

MAX_TOP_K = 100
_NEVER_LOADED = ("sealed_content", "embedding")


class ScopeNotFound(ServiceError, LookupError):
    """The scope does not exist in that tenant, or the caller may not read it."""

    code = "not_found"
    status = 404


def resolve_scope(*, actor: Any, tenant: Tenant | str, scope_key: str) -> Scope | None:
    """The scope `kind:external_id` of the tenant, if the actor may read its memories;
    None when it was never written to but the actor may read every scope of the tenant
    (an empty scope, not an unknown one)."""
    return resolve_scope_and_shape(actor=actor, tenant=tenant, scope_key=scope_key, vectors=None)[0]


def resolve_scope_and_shape(
    *, actor: Any, tenant: Tenant | str, scope_key: str, vectors: tuple[str, int] | None
) -> tuple[Scope | None, SearchShape | None]:
    """resolve_scope, and with `vectors` (an embedding model and dimension, pgvector
    present) the scope's search shape, found by the same statement."""
    kind, separator, external_id = (scope_key or "").partition(":")
    if not separator or not external_id:
        raise ScopeNotFound(scope_key)
    lookup = granted_scope_lookup(
        actor=actor,
        perm=Perm.VIEW_MEMORIES,
        tenant_slug=tenant.slug if isinstance(tenant, Tenant) else tenant,
        kind=kind,
        external_id=external_id,
    )
    if lookup is not None:
        query, values = lookup
        if vectors is None:
            found, shape = query.first(**values), None
        else:
            model, dims = vectors
            found, shape = granted_scope_and_shape(query, values, model=model, dims=dims)
        scope = scope_of_row(found)
        if scope is not None:
            return scope, shape
    owner = tenant if isinstance(tenant, Tenant) else Tenant.objects.filter(slug=tenant).first()
    never_written = (
        owner is not None
        and not Scope.objects.filter(tenant=owner, kind=kind, external_id=external_id).exists()
    )
    if never_written and user_has_perm_on(actor, Perm.VIEW_MEMORIES, tenant=owner):
        return None, None
    raise ScopeNotFound(scope_key)


def recall_memories(
    *,
    actor: Any,
    tenant: Tenant | str,
    scope_key: str,
    query: str,
    top_k: int = 10,
    memory_types: Iterable[str] | None = None,
    categories: Iterable[int] | None = None,
    query_embedding: Sequence[float] | None = None,
    embedding_model: str = "",
    min_score: float = 0.0,
    pad: bool = False,
) -> list[RecallHit[MemoryItem]]:
    """The top_k memories of one scope for a query, each with its score components.

    Lexical and vector candidates are fused by reciprocal rank, then ranked; hits scoring
    under `min_score` are dropped, and so are those matching neither way unless `pad`.
    Raises ScopeNotFound when the scope is unknown or not readable by the actor (a scope
    never written to, in a tenant the actor may read, recalls nothing). The accesses are
    recorded after commit by one task (never an UPDATE per hit here).
    """
    use_embedding = bool(query_embedding) and bool(embedding_model)
    # With pgvector, the scope's search shape comes with the scope: one round trip less.
    vectors = None
    if use_embedding and vectors_module.vector_search_available():
        vectors = (embedding_model, len(query_embedding or ()))
    scope, shape = resolve_scope_and_shape(
        actor=actor, tenant=tenant, scope_key=scope_key, vectors=vectors
    )
    if scope is None:
        return []
    top_k = max(1, min(int(top_k), MAX_TOP_K))
    now = timezone.now()
    terms = query_terms(query or "")
    types, cats = list(memory_types or []), list(categories or [])
    # Both candidate statements are planned for this call's values (the patterns, the
    # scope's size), never prepared: no transaction or setting needed for that.
    with planned_for_each_call():
        # With pgvector, a lexical search of one statement runs inside the fused search.
        statement = None
        if vectors is not None:
            statement = lexical_statement(
                scope=scope, terms=terms, now=now, memory_types=types, categories=cats, top_up=pad
            )
        lexical: list[Candidate] = []
        if statement is None:
            lexical = select_candidates(
                scope=scope,
                terms=terms,
                now=now,
                memory_types=types,
                categories=cats,
                minimum=top_k,
                top_up=pad,
            )
        candidates: list[tuple[Candidate, float | None]] = [(item, None) for item in lexical]
        if use_embedding:
            candidates = fused_candidates(
                scope=scope,
                now=now,
                query_embedding=list(query_embedding or ()),
                embedding_model=embedding_model,
                lexical=lexical,
                memory_types=types,
                categories=cats,
                shape=shape,
                lexical_statement=statement,
            )
    kept = rank(
        candidates,
        tenant=scope.tenant,
        terms=terms,
        now=now,
        min_score=min_score,
        keep_padding=pad,
        limit=top_k,
    )
    hits = load_hit_items(kept, scope=scope)
    if hits:
        enqueue_access_recording(hits=hits, scope=scope, actor=actor, accessed_at=now)
    return hits


# The hits are loaded by one of a few statements (keys repeated up to the next size), so
# a connection keeps few of them prepared whatever top_k its callers ask for.
_HIT_QUERY_SIZES = (1, 2, 5, 10, 20, 50, MAX_TOP_K)


@cache
def _hit_items_query(count: int) -> PrecompiledQuery:
    """`count` items in full, compiled once per count (one of _HIT_QUERY_SIZES): on every
    recall, compiling the queryset cost more client CPU than the rest of ranking."""
    sentinels = [uuid.UUID(int=n + 1) for n in range(count)]  # never a generated key
    stand_ins = {_database_key(sentinel): f"id_{n}" for n, sentinel in enumerate(sentinels)}
    items = MemoryItem.objects.filter(pk__in=sentinels)
    return PrecompiledQuery(
        items, models=[(MemoryItem, "")], stand_ins=stand_ins, deferred=_NEVER_LOADED
    )


def _database_key(pk: uuid.UUID) -> Any:
    """An item's key as the database receives it (a UUID on PostgreSQL, hex on SQLite)."""
    return MemoryItem._meta.pk.get_db_prep_value(pk, connection)


def load_hit_items(
    hits: Sequence[RecallHit[Candidate]], *, scope: Scope
) -> list[RecallHit[MemoryItem]]:
    """Swap the lightweight candidates of the final hits for fully loaded items (one query)."""
    if not hits:
        return []
    keys = [_database_key(hit.item.pk) for hit in hits]
    size = next(size for size in _HIT_QUERY_SIZES if size >= len(keys))
    keys += keys[-1:] * (size - len(keys))  # a repeated key changes nothing
    query = _hit_items_query(size)
    values = {f"id_{n}": key for n, key in enumerate(keys)}
    loaded = {item.pk: item for (item,) in query.all(**values)}
    result = []
    for hit in hits:
        item = loaded.get(hit.item.pk)
        if item is None:  # erased between the two queries
            continue
        item.scope, item.tenant = scope, scope.tenant
        result.append(replace(hit, item=item))
    return result


def enqueue_access_recording(
    *, hits: Sequence[RecallHit[MemoryItem]], scope: Scope, actor: Any, accessed_at: datetime
) -> None:
    """Record the hits' accesses after the surrounding transaction commits, in one task
    (kept in the database instead while the broker is down: send_recall_accesses)."""
    item_ids = [str(hit.item.pk) for hit in hits]
    actor_id = getattr(actor, "pk", None)
    transaction.on_commit(
        lambda: send_recall_accesses(
            item_ids=item_ids,
            accessed_at=accessed_at,
            tenant_id=scope.tenant_id,
            scope_id=scope.pk,
            actor_id=actor_id,
        )
    )
