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

No lexical pre-selection caps either path: a memory that shares no word with the query
is found whenever its embedding is among the nearest.
"""

import heapq
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import (
    CANDIDATE_LIMIT,
    RANKING_FIELDS,
    Candidate,
    candidates_from_rows,
    recallable,
    recallable_filters,
)
from apps.memory.recall.ranking import RRF_K, cosine_similarity, fuse
from apps.memory.vectors import (
    INDEXED_DIMENSIONS,
    SCOPE_INDEX_PREFIX,
    TABLE,
    decode_embedding,
    vector_literal,
    vector_search_available,
)
from apps.tenancy.models import Scope
from memory_console.db import parse_timestamps_natively, planned_for_each_call

VECTOR_LIMIT = 100
# Index candidates kept per step of the HNSW walk (pgvector's default is 40).
HNSW_EF_SEARCH = 100
# The share of the table's vectors a scope must hold for a walk of the table-wide graph
# (between the 5 % measured worse than exact ranking and the 25 % measured far better).
WALK_MIN_SHARE = 0.10
# Up to this many vectors a scope is ranked exactly whatever its share of the table: it
# costs a few milliseconds (the 1,000-item bench scope: ~5 ms on CPU), and is exact where
# a walk of a small graph full of duplicates may miss the nearest.
EXACT_SCOPE_ROWS = 2_000
_FALLBACK_CHUNK = 2_000
# Decides walk or exact (prepare_search's rule), and whether the scope is small.
_SEARCH_SHAPE_SQL = (
    "WITH indexed AS (SELECT greatest(reltuples, 0)::float8 AS total_rows FROM pg_class "  # noqa: S608
    "WHERE oid = %(table)s::regclass), "
    "sizes AS (SELECT total_rows, "
    f"(SELECT count(*) FROM (SELECT 1 FROM {TABLE} "
    "WHERE scope_id = %(scope)s AND model = %(model)s AND dims = %(dims)s "
    "LIMIT (SELECT greatest(ceil(%(share)s * total_rows), %(exact_rows)s) + 1 "
    "FROM indexed)::bigint"
    ") AS counted) AS scope_rows FROM indexed) "
    "SELECT to_regclass(%(own_index)s) IS NOT NULL "
    "OR (scope_rows > %(exact_rows)s AND scope_rows >= %(share)s * total_rows), "
    "scope_rows <= %(exact_rows)s FROM sizes"
)
_SEARCH_SETTINGS_SQL = (
    "SELECT set_config('jit', 'off', true), "
    "set_config('hnsw.iterative_scan', 'relaxed_order', true), "
    "set_config('hnsw.ef_search', %(ef_search)s, true), "
    "set_config('enable_sort', CASE WHEN %(walk)s THEN 'off' "
    "ELSE current_setting('enable_sort') END, true)"
)


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
) -> list[tuple[Candidate, float | None]]:
    """The nearest items and the lexical candidates fused by reciprocal rank (`fuse`: the
    nearest first on equal scores), the first `keep`, each with its cosine similarity to
    the query (None when not embedded by `embedding_model`).

    With pgvector the search, the lexical candidates' cosines and the fusion are one
    statement that returns only the candidates kept, so no candidate is looked up by key
    in Python; without it, `nearest_items` and `fuse` give the same list.
    """
    vector = list(query_embedding)
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


def prepare_search(cursor, *, scope: Scope, model: str, dims: int, limit: int) -> bool:
    """Decide whether the statement walks the HNSW index, and set this transaction's
    search settings for it (`search_shape`, then `apply_search_settings`)."""
    walk, small = search_shape(cursor, scope=scope, model=model, dims=dims)
    if walk or not small:
        apply_search_settings(cursor, walk=walk)
    return walk


def search_shape(cursor, *, scope: Scope, model: str, dims: int) -> tuple[bool, bool]:
    """Whether the statement walks the HNSW index, and whether the scope is small enough
    (EXACT_SCOPE_ROWS vectors at most, ranked exactly) to need no setting: one statement.

    A scope with an HNSW index of its own (apps.memory.vectors.index_large_scopes) is
    always walked, on that index: plans are made for each call's values
    (planned_for_each_call), so the planner sees that the scope matches the partial
    index's predicate. A scope of up to EXACT_SCOPE_ROWS vectors is ranked exactly.
    Another is walked on the table's index when it holds WALK_MIN_SHARE of the table's
    vectors (table_rows: the catalog's estimate, pg_class.reltuples), else ranked
    exactly. The scope's vectors are counted only as far as the rule needs: at most
    max(WALK_MIN_SHARE × table_rows, EXACT_SCOPE_ROWS) index entries.
    """
    if dims != INDEXED_DIMENSIONS:
        return False, True  # never walked; as before, ranked without settings
    cursor.execute(
        _SEARCH_SHAPE_SQL,
        {
            "table": TABLE,
            "own_index": f"{SCOPE_INDEX_PREFIX}{int(scope.pk):d}",
            "scope": scope.pk,
            "model": model,
            "dims": dims,
            "share": WALK_MIN_SHARE,
            "exact_rows": EXACT_SCOPE_ROWS,
        },
    )
    walk, small = cursor.fetchone()
    return bool(walk), bool(small)


def apply_search_settings(cursor, *, walk: bool) -> None:
    """Set this transaction's settings for a walk, or the search of a scope that is not
    small.

    JIT is off: pgvector costs a filtered walk (and the exact ranking of a large scope)
    high enough to trigger JIT compilation, which took 300 ms to spare the walk a few.
    A walk is iterative (`hnsw.iterative_scan`), so the scope, status, expiry, type and
    category filters do not starve it, and disables sorting, so the planner cannot trade
    it for an exact sort of the scope; an exact statement keeps it (disabling its
    unavoidable sort would only inflate its cost).
    """
    cursor.execute(_SEARCH_SETTINGS_SQL, {"ef_search": str(HNSW_EF_SEARCH), "walk": walk})


def index_query(
    *,
    scope: Scope,
    now: datetime,
    vector: Sequence[float],
    model: str,
    memory_types,
    categories,
    limit,
    walk: bool,
    also: Collection[Any] = (),
) -> tuple[str, list[Any]]:
    """The nearest-neighbour statement over the vector table (the HNSW walk, or an exact
    sort within the scope): rows of RANKING_FIELDS, distance and `nearest` (true), then
    the `also` items' ids and distances (other columns NULL, `nearest` false).

    The walk orders by the indexed expression (embedding::vector(INDEXED_DIMENSIONS));
    the exact sort by the bare column, which no index serves.
    """
    dims = len(vector)
    cast = f"::vector({dims:d})" if walk else "::vector"
    filters, params = recallable_filters(
        scope=scope, now=now, memory_types=memory_types, categories=categories, alias="m"
    )
    columns = ", ".join(f"m.{connection.ops.quote_name(name)}" for name in RANKING_FIELDS)
    distance = f"(e.embedding{cast} <=> %s{cast})"
    source = f"{TABLE} e JOIN {MemoryItem._meta.db_table} m ON m.id = e.item_id"
    nearest_sql = (
        f"(SELECT {columns}, {distance} AS distance, true AS nearest FROM {source} "  # noqa: S608
        f"WHERE e.scope_id = %s AND e.model = %s AND e.dims = {dims:d} "
        f"AND {' AND '.join(filters)} ORDER BY {distance} LIMIT {int(limit):d})"
    )
    literal = vector_literal(vector)
    nearest_params = [literal, scope.pk, model, *params, literal]
    if not also:
        return nearest_sql, nearest_params
    # The lexical candidates are loaded already: only their ids and distances, no join.
    blanks = ", NULL" * (len(RANKING_FIELDS) - 1)
    also_sql = (
        f"(SELECT e.item_id{blanks}, (e.embedding <=> %s::vector), false FROM {TABLE} e "  # noqa: S608
        f"WHERE e.item_id = ANY(%s) AND e.scope_id = %s AND e.model = %s AND e.dims = {dims:d})"
    )
    also_params = [literal, list(also), scope.pk, model]
    return f"{nearest_sql} UNION ALL {also_sql}", [*nearest_params, *also_params]


def fused_query(
    *,
    scope: Scope,
    now: datetime,
    vector: Sequence[float],
    model: str,
    memory_types,
    categories,
    limit,
    walk: bool,
    lexical: Sequence[Any],
    keep: int,
) -> tuple[str, list[Any]]:
    """`index_query`'s nearest rows fused with the lexical candidates (their ids, in their
    order) by reciprocal rank, as `fuse` orders them, the first `keep`: rows of
    RANKING_FIELDS (NULL for a lexical candidate, which the caller holds), the lexical
    rank (NULL for an item only the search found) and the distance (NULL when the item
    has no embedding of the model).

    Ranks and fused scores are computed as `fuse` computes them: the nearest are ranked
    by their clamped cosine, equal ones in the order the search gave them (as Python's
    stable sort kept them), the score is 1/(k + rank) in double precision, vector term
    first, and equal scores keep the nearest first, then the lexical order.
    """
    nearest_sql, params = index_query(
        scope=scope,
        now=now,
        vector=vector,
        model=model,
        memory_types=memory_types,
        categories=categories,
        limit=limit,
        walk=walk,
    )
    dims = len(vector)
    names = [connection.ops.quote_name(name) for name in RANKING_FIELDS]
    columns = ", ".join(f"n.{name}" for name in names)
    # Only numbers and the models' own names are interpolated.
    sql = (
        f"WITH nearest AS (SELECT {columns}, n.distance, row_number() OVER ("  # noqa: S608
        "ORDER BY greatest(-1.0, least(1.0, 1.0 - n.distance)) DESC, n.arrival"
        f") AS vector_rank FROM (SELECT *, row_number() OVER () AS arrival FROM {nearest_sql} "
        "AS found) AS n), "
        "lexical AS (SELECT l.id, l.lexical_rank FROM unnest(%s::uuid[]) "
        "WITH ORDINALITY AS l(id, lexical_rank)) "
        f"SELECT {', '.join(f'v.{name}' for name in names)}, l.lexical_rank, coalesce(v.distance, "
        f"(SELECT e.embedding <=> %s::vector FROM {TABLE} e WHERE e.item_id = l.id "
        f"AND e.scope_id = %s AND e.model = %s AND e.dims = {dims:d})) "
        "FROM nearest v FULL JOIN lexical l ON l.id = v.id "
        f"ORDER BY coalesce(1.0::float8 / ({RRF_K:d} + v.vector_rank), 0.0) "
        f"+ coalesce(1.0::float8 / ({RRF_K:d} + l.lexical_rank), 0.0) DESC, "
        f"v.vector_rank NULLS LAST, l.lexical_rank LIMIT {int(keep):d}"
    )
    return sql, [*params, list(lexical), vector_literal(vector), scope.pk, model]


def _similarity(distance: float) -> float:
    return max(-1.0, min(1.0, 1.0 - distance))


def _search_rows(scope, vector, model, limit, statement) -> list[tuple]:
    """The rows of the statement `statement(walk)` builds, planned for its values; a
    search that is not of a small scope runs under apply_search_settings' settings, in a
    transaction, and they are undone if a surrounding transaction would keep them.

    A small scope's search needs neither (a few thousand distances, no JIT, no walk):
    two statements in all, where a transaction and settings cost three more."""
    with planned_for_each_call():
        with connection.cursor() as cursor:
            walk, small = search_shape(cursor, scope=scope, model=model, dims=len(vector))
        if small and not walk:
            return _fetch_all(statement(walk))
        inside_transaction = connection.in_atomic_block
        with transaction.atomic(savepoint=False):  # reads only: nothing to roll back to
            with connection.cursor() as cursor:
                apply_search_settings(cursor, walk=walk)
            rows = _fetch_all(statement(walk))
            if inside_transaction:  # the settings would outlive this statement: undo them
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT set_config(name, reset_val, true) FROM pg_settings "
                        "WHERE name IN ('enable_sort', 'jit')"
                    )
    return rows


def _fetch_all(statement: tuple[str, list[Any]]) -> list[tuple]:
    with connection.cursor() as cursor:
        parse_timestamps_natively(cursor)
        cursor.execute(*statement)
        return cursor.fetchall()


def _fused_in_index(scope, now, vector, model, memory_types, categories, limit, lexical, keep):
    def statement(walk: bool) -> tuple[str, list[Any]]:
        return fused_query(
            scope=scope,
            now=now,
            vector=vector,
            model=model,
            memory_types=memory_types,
            categories=categories,
            limit=limit,
            walk=walk,
            lexical=[item.pk for item in lexical],
            keep=keep,
        )

    rows = _search_rows(scope, vector, model, limit, statement)
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
    def statement(walk: bool) -> tuple[str, list[Any]]:
        return index_query(
            scope=scope,
            now=now,
            vector=vector,
            model=model,
            memory_types=memory_types,
            categories=categories,
            limit=limit,
            walk=walk,
            also=also,
        )

    rows = _search_rows(scope, vector, model, limit, statement)
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
