"""Recall's vector path: the scope's items nearest to the query embedding, by cosine.

With pgvector (apps.memory.vectors) one statement walks the HNSW index for
INDEXED_DIMENSIONS-dimension vectors, iteratively (`hnsw.iterative_scan`), so the scope,
status, expiry, type and category filters do not starve it; other dimensions are ranked
exactly within the scope. Without pgvector the scope's float32 bytes are ranked exactly
in Python: correct, and linear in the scope's embedded items (a development fallback).
No lexical pre-selection caps either path: a memory that shares no word with the query
is found whenever its embedding is among the nearest.
"""

import heapq
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import RANKING_FIELDS, recallable, recallable_filters
from apps.memory.recall.ranking import cosine_similarity
from apps.memory.vectors import (
    INDEXED_DIMENSIONS,
    TABLE,
    decode_embedding,
    vector_literal,
    vector_search_available,
)
from apps.tenancy.models import Scope

VECTOR_LIMIT = 100
# Index candidates kept per step of the HNSW walk (pgvector's default is 40).
HNSW_EF_SEARCH = 100
_FALLBACK_CHUNK = 2_000


def nearest_items(
    *,
    scope: Scope,
    now: datetime,
    query_embedding: Sequence[float],
    embedding_model: str,
    memory_types: Sequence[str] = (),
    categories: Sequence[int] = (),
    limit: int = VECTOR_LIMIT,
) -> list[tuple[MemoryItem, float]]:
    """The scope's recallable items embedded by `embedding_model`, nearest first, each
    with its cosine similarity to the query (items carry RANKING_FIELDS only)."""
    if vector_search_available():
        found = _nearest_in_index(
            scope, now, list(query_embedding), embedding_model, memory_types, categories, limit
        )
    else:
        found = _nearest_exact(
            scope, now, query_embedding, embedding_model, memory_types, categories, limit
        )
    for item, _ in found:
        item.scope, item.tenant = scope, scope.tenant
    return found


def index_query(
    *,
    scope: Scope,
    now: datetime,
    vector: Sequence[float],
    model: str,
    memory_types,
    categories,
    limit,
) -> tuple[str, list[Any]]:
    """The nearest-neighbour statement over the vector table (HNSW-served at
    INDEXED_DIMENSIONS dimensions, an exact sort within the scope otherwise)."""
    dims = len(vector)
    cast = f"::vector({dims:d})" if dims == INDEXED_DIMENSIONS else "::vector"
    filters, params = recallable_filters(
        scope=scope, now=now, memory_types=memory_types, categories=categories, alias="m"
    )
    columns = ", ".join(f"m.{connection.ops.quote_name(name)}" for name in RANKING_FIELDS)
    distance = f"(e.embedding{cast} <=> %s{cast})"
    sql = (
        f"SELECT {columns}, {distance} AS distance FROM {TABLE} e "  # noqa: S608
        f"JOIN {MemoryItem._meta.db_table} m ON m.id = e.item_id "
        f"WHERE e.scope_id = %s AND e.model = %s AND e.dims = {dims:d} "
        f"AND {' AND '.join(filters)} ORDER BY {distance} LIMIT {int(limit):d}"
    )
    literal = vector_literal(vector)
    return sql, [literal, scope.pk, model, *params, literal]


def _nearest_in_index(scope, now, vector, model, memory_types, categories, limit):
    sql, params = index_query(
        scope=scope,
        now=now,
        vector=vector,
        model=model,
        memory_types=memory_types,
        categories=categories,
        limit=limit,
    )
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            cursor.execute(f"SET LOCAL hnsw.ef_search = {HNSW_EF_SEARCH:d}")
        rows = list(MemoryItem.objects.raw(sql, params))
    # relaxed_order may return neighbours slightly out of order: sort them.
    found = [(item, max(-1.0, min(1.0, 1.0 - item.distance))) for item in rows]
    found.sort(key=lambda pair: -pair[1])
    return found


def _nearest_exact(scope, now, vector, model, memory_types, categories, limit):
    items = recallable(scope, now, memory_types, categories).filter(
        embedding_model=model, embedding__isnull=False
    )
    scored = []
    for pk, raw in items.values_list("pk", "embedding").iterator(chunk_size=_FALLBACK_CHUNK):
        embedded = decode_embedding(raw)
        similarity = cosine_similarity(vector, embedded) if embedded else None
        if similarity is not None:
            scored.append((similarity, pk))
    best = heapq.nlargest(limit, scored)
    loaded = MemoryItem.objects.only(*RANKING_FIELDS).in_bulk([pk for _, pk in best])
    return [(loaded[pk], similarity) for similarity, pk in best if pk in loaded]
