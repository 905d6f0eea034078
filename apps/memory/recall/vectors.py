"""Recall's vector path: the scope's items nearest to the query embedding, by cosine, the
cosine of the lexical candidates, and the two lists fused by reciprocal rank, in one
statement (`fused_candidates`).

With pgvector (apps.memory.vectors) the statement either walks an HNSW index or ranks the
scope exactly, by one rule (`prepare_search`). A walk filtered to one scope visits about
limit / (the scope's share of the table's vectors) index entries, each a random page of
the graph, before it has `limit` of the scope's: at a 25 % share (50,000 of 200,000) it
beat the exact ranking (20 against 300 ms), at 5 % (50,000 of 1,000,000) it lost (280 ms
p50, 1.7 s p95, and often short of neighbours once hnsw.max_scan_tuples was reached). So
a large scope is walked on an index of its own (apps.memory.vectors.index_large_scopes:
every entry is the scope's, 8–11 ms at 50,000), or on the table's when it holds at
least WALK_MIN_SHARE of it; a small one (up to EXACT_SCOPE_ROWS) and any other are
ranked exactly, one distance per embedded item of the scope. The walk is iterative
(`hnsw.iterative_scan`), so the scope, status, expiry, type and category filters do not
starve it, and sorting is disabled for the statement, so the planner cannot trade the
walk for an exact sort of the scope (which it costs lower at a few percent selectivity).
Those settings need a transaction; a small scope's exact ranking needs none of them.
Other dimensions than INDEXED_DIMENSIONS are ranked exactly. Without pgvector the
scope's float32 bytes are ranked exactly in Python: correct, and linear in the scope's
embedded items (a development fallback).

The statements, the walk-or-exact rule and the settings are in vector_search.py.

No lexical pre-selection caps either path: a memory that shares no word with the query
is found whenever its embedding is among the nearest.
"""

import heapq
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import (
    CANDIDATE_LIMIT,
    RANKING_FIELDS,
    Candidate,
    candidates_from_rows,
    candidates_of,
    recallable,
)
from apps.memory.recall.ranking import cosine_similarity, fuse
from apps.memory.recall.vector_search import (
    SearchShape,
    fused_query,
    index_query,
    search_rows,
)
from apps.memory.vectors import (
    decode_embedding,
    vector_search_available,
)
from apps.tenancy.models import Scope

VECTOR_LIMIT = 100
_FALLBACK_CHUNK = 2_000


@dataclass(frozen=True)
class VectorMatches:
    """The nearest items (nearest first, each with its cosine similarity) and the cosine
    of every item the search saw that was asked about (`also`) or is among the nearest."""

    nearest: list[tuple[Candidate, float]]
    cosines: dict[Any, float]


def nearest_items(
    *,
    scope: Scope,
    now: datetime,
    query_embedding: Sequence[float],
    embedding_model: str,
    memory_types: Sequence[str] = (),
    categories: Sequence[int] = (),
    limit: int = VECTOR_LIMIT,
    also: Collection[Any] = (),
) -> VectorMatches:
    """The scope's recallable items embedded by `embedding_model`, nearest first, with
    their cosine similarity to the query, plus the cosine of the items `also` names (the
    lexical candidates), so ranking never decodes an embedding."""
    search = _nearest_in_index if vector_search_available() else _nearest_exact
    return search(
        scope, now, list(query_embedding), embedding_model, memory_types, categories, limit, also
    )


def fused_candidates(
    *,
    scope: Scope,
    now: datetime,
    query_embedding: Sequence[float],
    embedding_model: str,
    lexical: Sequence[Candidate],
    memory_types: Sequence[str] = (),
    categories: Sequence[int] = (),
    limit: int = VECTOR_LIMIT,
    keep: int = CANDIDATE_LIMIT,
    shape: SearchShape | None = None,
    lexical_statement: tuple[str, list[Any]] | None = None,
) -> list[tuple[Candidate, float | None]]:
    """The nearest items and the lexical candidates fused by reciprocal rank (`fuse`: the
    nearest first on equal scores), the first `keep`, each with its cosine similarity to
    the query (None when not embedded by `embedding_model`).

    With pgvector the search, the lexical candidates' cosines and the fusion are one
    statement that returns only the candidates kept, so no candidate is looked up by key
    in Python; without it, `nearest_items` and `fuse` give the same list. The scope's
    search `shape`, when the caller has it (recall gets it with the scope), spares the
    statement that finds it. Given `lexical_statement` (candidates.lexical_statement),
    the lexical candidates are the rows it finds, in place of `lexical`: with pgvector it
    runs inside the fused statement (one round trip for both lists).
    """
    vector = list(query_embedding)
    if lexical_statement is not None and not vector_search_available():
        lexical, lexical_statement = candidates_of(lexical_statement), None
    if vector_search_available():
        return _fused_in_index(
            scope,
            now,
            vector,
            embedding_model,
            memory_types,
            categories,
            limit,
            lexical,
            keep,
            shape,
            lexical_statement,
        )
    matches = nearest_items(
        scope=scope,
        now=now,
        query_embedding=vector,
        embedding_model=embedding_model,
        memory_types=memory_types,
        categories=categories,
        limit=limit,
        also=[item.pk for item in lexical],
    )
    by_pk = {item.pk: item for item in lexical}
    by_pk.update((item.pk, item) for item, _ in matches.nearest)
    fused = fuse([item.pk for item, _ in matches.nearest], [item.pk for item in lexical])
    return [(by_pk[pk], matches.cosines.get(pk)) for pk in fused[:keep]]


def _similarity(distance: float) -> float:
    return max(-1.0, min(1.0, 1.0 - distance))


def _fused_in_index(
    scope, now, vector, model, memory_types, categories, limit, lexical, keep, shape, statement_of
):
    statement = partial(
        fused_query,
        scope=scope,
        now=now,
        vector=vector,
        model=model,
        memory_types=memory_types,
        categories=categories,
        limit=limit,
        lexical=[item.pk for item in lexical],
        keep=keep,
        lexical_statement=statement_of,
    )
    rows = search_rows(scope, vector, model, statement, shape)
    if statement_of is not None:  # every row carries its candidate
        return [
            (candidate, None if row[-1] is None else _similarity(row[-1]))
            for candidate, row in zip(candidates_from_rows(rows), rows, strict=True)
        ]
    width = len(RANKING_FIELDS)
    found = iter(candidates_from_rows(row for row in rows if row[width] is None))
    return [
        (
            next(found) if lexical_rank is None else lexical[lexical_rank - 1],
            None if distance is None else _similarity(distance),
        )
        for *_, lexical_rank, distance in rows
    ]


def _nearest_in_index(scope, now, vector, model, memory_types, categories, limit, also):
    statement = partial(
        index_query,
        scope=scope,
        now=now,
        vector=vector,
        model=model,
        memory_types=memory_types,
        categories=categories,
        limit=limit,
        also=also,
    )
    rows = search_rows(scope, vector, model, statement)
    cosines = {row[0]: _similarity(row[-2]) for row in rows}
    nearest_rows = [row for row in rows if row[-1]]
    # relaxed_order may return neighbours slightly out of order: sort them.
    nearest = sorted(
        ((item, cosines[item.pk]) for item in candidates_from_rows(nearest_rows)),
        key=lambda pair: -pair[1],
    )
    return VectorMatches(nearest=nearest, cosines=cosines)


def _nearest_exact(scope, now, vector, model, memory_types, categories, limit, also):
    items = recallable(scope, now, memory_types, categories).filter(
        embedding_model=model, embedding__isnull=False
    )
    wanted = set(also)
    scored, cosines = [], {}
    for pk, raw in items.values_list("pk", "embedding").iterator(chunk_size=_FALLBACK_CHUNK):
        embedded = decode_embedding(raw)
        similarity = cosine_similarity(vector, embedded) if embedded else None
        if similarity is not None:
            scored.append((similarity, pk))
            if pk in wanted:
                cosines[pk] = similarity
    best = heapq.nlargest(limit, scored)
    rows = MemoryItem.objects.filter(pk__in=[pk for _, pk in best]).values_list(*RANKING_FIELDS)
    loaded = {item.pk: item for item in (Candidate(*row) for row in rows)}
    nearest = [(loaded[pk], similarity) for similarity, pk in best if pk in loaded]
    cosines.update((item.pk, similarity) for item, similarity in nearest)
    return VectorMatches(nearest=nearest, cosines=cosines)
