"""Recall (ARCHITECTURE §5): find the memories of one scope that best answer a query.

1. The scope is resolved through the caller's grants (unknown or not granted: ScopeNotFound,
   a 404 at the API). Recall never crosses scopes.
2. Candidates are pre-selected in the database among the scope's active, unexpired items,
   in one statement: rows containing one of at most MAX_PATTERNS query patterns (ILIKE on
   PostgreSQL for Latin words, which the trigram GIN index on `text` serves; LIKE for
   CJK, which has no case; CJK runs of one or two characters can't use trigrams and are
   matched within the scope; LIKE on SQLite). The scan stops after SCAN_LIMIT matching
   rows, which are ordered by how many patterns they contain; CANDIDATE_LIMIT are kept.
   A long CJK query whose trigrams find too little gets a second pass on its bigrams.
   If that still finds fewer than top_k, the scope's most important, most recently used
   items top the list up, so recall still answers.
3. Candidates are reranked in Python: final = α·similarity + β·recency + γ·S(t) with the
   tenant's weights. Similarity is the cosine of float32 embeddings when the query and
   the item were embedded by the same model, else lexical: the average, over query terms,
   of the share of the term's character n-grams found in the text (trigrams for Latin
   words, bigrams for CJK runs), computed the same way on every database. Recency is
   0.5 ^ (days since last access / RECENCY_HALF_LIFE_DAYS): how fresh the memory is in
   use, independent of how long it is worth keeping (S(t) covers that).
4. Accesses are recorded off the request path: one Celery task, enqueued on commit,
   applies one set-based UPDATE for all hits (apps.memory.services.record_recall_accesses).

The rooms: `query` (analysis), `candidates` (the SQL pre-selection), `ranking`; this
module holds the entry point, `recall_memories`, and re-exports the parts.
"""

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.core.errors import ServiceError
from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import CANDIDATE_LIMIT, SCAN_LIMIT, select_candidates
from apps.memory.recall.query import MAX_PATTERNS, QueryTerm, lexical_similarity, query_terms
from apps.memory.recall.ranking import (
    RECENCY_HALF_LIFE_DAYS,
    RecallHit,
    cosine_similarity,
    decode_embedding,
    rank,
    recency,
)
from apps.memory.selectors import scopes_visible_to
from apps.memory.tasks import send_recall_accesses
from apps.tenancy.models import Scope, Tenant
from apps.tenancy.permissions import Perm

__all__ = [
    "CANDIDATE_LIMIT",
    "MAX_PATTERNS",
    "MAX_TOP_K",
    "RECENCY_HALF_LIFE_DAYS",
    "SCAN_LIMIT",
    "QueryTerm",
    "RecallHit",
    "ScopeNotFound",
    "cosine_similarity",
    "decode_embedding",
    "lexical_similarity",
    "load_hit_items",
    "query_terms",
    "rank",
    "recall_memories",
    "recency",
    "resolve_scope",
    "select_candidates",
]

MAX_TOP_K = 100
_NEVER_LOADED = ("sealed_content", "embedding")


class ScopeNotFound(ServiceError, LookupError):
    """The scope does not exist in that tenant, or the caller may not read it."""

    code = "not_found"
    status = 404


def resolve_scope(*, actor: Any, tenant: Tenant | str, scope_key: str) -> Scope:
    """The scope `kind:external_id` of the tenant, if the actor may read its memories."""
    kind, separator, external_id = (scope_key or "").partition(":")
    if not separator or not external_id:
        raise ScopeNotFound(scope_key)
    scopes = scopes_visible_to(actor, Perm.VIEW_MEMORIES).select_related("tenant")
    tenant_filter = {"tenant": tenant} if isinstance(tenant, Tenant) else {"tenant__slug": tenant}
    scope = scopes.filter(kind=kind, external_id=external_id, **tenant_filter).first()
    if scope is None:
        raise ScopeNotFound(scope_key)
    return scope


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
) -> list["RecallHit"]:
    """The top_k memories of one scope for a query, each with its score components.

    Raises ScopeNotFound when the scope is unknown or not readable by the actor. The
    accesses are recorded after commit by one task (never an UPDATE per hit here).
    """
    scope = resolve_scope(actor=actor, tenant=tenant, scope_key=scope_key)
    top_k = max(1, min(int(top_k), MAX_TOP_K))
    now = timezone.now()
    terms = query_terms(query or "")
    use_embedding = bool(query_embedding) and bool(embedding_model)
    candidates = select_candidates(
        scope=scope,
        terms=terms,
        now=now,
        memory_types=memory_types,
        categories=categories,
        # Embeddings can match without shared words: consider as many items as we may.
        minimum=CANDIDATE_LIMIT if use_embedding else top_k,
        with_embeddings=use_embedding,
    )
    hits = rank(
        candidates,
        tenant=scope.tenant,
        terms=terms,
        now=now,
        query_embedding=list(query_embedding) if use_embedding else None,
        embedding_model=embedding_model,
    )[:top_k]
    hits = load_hit_items(hits, scope=scope)
    if hits:
        enqueue_access_recording(hits=hits, scope=scope, actor=actor, accessed_at=now)
    return hits


def load_hit_items(hits: Sequence[RecallHit], *, scope: Scope) -> list[RecallHit]:
    """Swap the lightweight candidates of the final hits for fully loaded items (one query)."""
    if not hits:
        return []
    loaded = MemoryItem.objects.defer(*_NEVER_LOADED).in_bulk([hit.item.pk for hit in hits])
    result = []
    for hit in hits:
        item = loaded.get(hit.item.pk)
        if item is None:  # erased between the two queries
            continue
        item.scope, item.tenant = scope, scope.tenant
        result.append(replace(hit, item=item))
    return result


def enqueue_access_recording(
    *, hits: Sequence[RecallHit], scope: Scope, actor: Any, accessed_at: datetime
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
