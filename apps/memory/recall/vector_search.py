"""The vector search's statements (issue 18), and running them: walk the HNSW index or
rank the scope exactly (`search_shape`'s rule), with the settings a walk needs.

The rule, the settings and the statements' shapes are explained in
apps.memory.recall.vectors, which decides what to search for; this module says how.
"""

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection, transaction

from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import RANKING_FIELDS, recallable_filters
from apps.memory.recall.ranking import RRF_K
from apps.memory.vectors import INDEXED_DIMENSIONS, SCOPE_INDEX_PREFIX, TABLE, vector_literal
from apps.tenancy.models import Scope
from memory_console.db import (
    PrecompiledQuery,
    parse_timestamps_natively,
    planned_for_each_call,
)

# Index candidates kept per step of the HNSW walk (pgvector's default is 40).
HNSW_EF_SEARCH = 100
# The share of the table's vectors a scope must hold for a walk of the table-wide graph
# (between the 5 % measured worse than exact ranking and the 25 % measured far better).
WALK_MIN_SHARE = 0.10
# Up to this many vectors a scope is ranked exactly whatever its share of the table: it
# costs a few milliseconds (the 1,000-item bench scope: ~5 ms on CPU), and is exact where
# a walk of a small graph full of duplicates may miss the nearest.
EXACT_SCOPE_ROWS = 2_000


# Decides walk or exact (prepare_search's rule), and whether the scope is small, for the
# scope whose id is the column `scope_id` of the statement it is joined to (LATERAL);
# its parameters are _search_shape_params' list. `sizes` is materialised: inlined, its
# count of the scope's vectors ran once for each of the two conditions that read it. A
# scope with an index of its own is walked whatever its size, so its vectors are not
# counted (at 50,000 that count was 3-5 ms of every hybrid recall; branch hybrid2).
_SEARCH_SHAPE_SQL = (
    "WITH indexed AS (SELECT greatest(reltuples, 0)::float8 AS total_rows, "  # noqa: S608
    "to_regclass(%s || granted.scope_id::text) IS NOT NULL AS own FROM pg_class "
    "WHERE oid = %s::regclass), "
    "sizes AS MATERIALIZED (SELECT total_rows, own, "
    f"(SELECT count(*) FROM (SELECT 1 FROM {TABLE} "
    "WHERE scope_id = granted.scope_id AND model = %s AND dims = %s "
    "LIMIT (SELECT CASE WHEN own THEN 0 ELSE greatest(ceil(%s * total_rows), %s) + 1 END "
    "FROM indexed)::bigint"
    ") AS counted) AS scope_rows FROM indexed) "
    "SELECT own OR (scope_rows > %s AND scope_rows >= %s * total_rows), "
    "NOT own AND scope_rows <= %s FROM sizes"
)


def _with_search_shape(source: str) -> str:
    """The rows of the statement `source` (a scope's id first), each followed by that
    scope's search shape (walk, small): _search_shape_params after source's parameters."""
    return (
        f"SELECT granted.*, shape.* FROM ({source}) AS granted(scope_id) "  # noqa: S608
        f"CROSS JOIN LATERAL ({_SEARCH_SHAPE_SQL}) AS shape"
    )


def _search_shape_params(*, model: str, dims: int) -> list[Any]:
    return [
        SCOPE_INDEX_PREFIX,
        TABLE,
        model,
        dims,
        WALK_MIN_SHARE,
        EXACT_SCOPE_ROWS,
        EXACT_SCOPE_ROWS,
        WALK_MIN_SHARE,
        EXACT_SCOPE_ROWS,
    ]


class SearchShape(NamedTuple):
    """How a scope's vector search runs: walk the HNSW index, or rank exactly; `small`:
    few enough vectors (EXACT_SCOPE_ROWS) to need no transaction or setting."""

    walk: bool
    small: bool


# Other dimensions than INDEXED_DIMENSIONS are never walked; as before, ranked without
# settings.
_UNINDEXED = SearchShape(walk=False, small=True)


_SEARCH_SETTINGS_SQL = (
    "SELECT set_config('jit', 'off', true), "
    "set_config('hnsw.iterative_scan', 'relaxed_order', true), "
    "set_config('hnsw.ef_search', %(ef_search)s, true), "
    "set_config('enable_sort', CASE WHEN %(walk)s THEN 'off' "
    "ELSE current_setting('enable_sort') END, true)"
)


def prepare_search(cursor, *, scope: Scope, model: str, dims: int, limit: int) -> bool:
    """Decide whether the statement walks the HNSW index, and set this transaction's
    search settings for it (`search_shape`, then `apply_search_settings`)."""
    walk, small = search_shape(cursor, scope=scope, model=model, dims=dims)
    if walk or not small:
        apply_search_settings(cursor, walk=walk)
    return walk


def search_shape(cursor, *, scope: Scope, model: str, dims: int) -> SearchShape:
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
        return _UNINDEXED
    cursor.execute(
        _with_search_shape("SELECT %s::bigint"),
        [scope.pk, *_search_shape_params(model=model, dims=dims)],
    )
    _scope_id, walk, small = cursor.fetchone()
    return SearchShape(walk=bool(walk), small=bool(small))


def granted_scope_and_shape(
    granted: PrecompiledQuery, values: dict[str, Any], *, model: str, dims: int
) -> tuple[tuple | None, SearchShape | None]:
    """The row of `granted` (a scope lookup through the grants, the scope's id first) for
    these values, as its `first` gives it, and that scope's search shape for vectors of
    `model` and `dims`, in one statement: recall makes the lookup on every call, and the
    shape cost a round trip of its own. (None, None) when the lookup finds no scope."""
    sql, params = granted.bound(**values)
    if dims != INDEXED_DIMENSIONS:
        return granted.first(**values), _UNINDEXED
    with connection.cursor() as cursor:
        cursor.execute(
            _with_search_shape(sql), [*params, *_search_shape_params(model=model, dims=dims)]
        )
        row = cursor.fetchone()
    if row is None:
        return None, None
    *found, walk, small = row
    return granted.loaded(found), SearchShape(walk=bool(walk), small=bool(small))


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
    lexical_statement: tuple[str, list[Any]] | None = None,
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

    Given `lexical_statement` (candidates.lexical_statement) instead of the ids, the
    lexical candidates are found by it, inside this statement, and every row carries its
    candidate's RANKING_FIELDS.
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
    if lexical_statement is None:
        lexical_sql = (
            "SELECT l.id, l.lexical_rank FROM unnest(%s::uuid[]) "
            "WITH ORDINALITY AS l(id, lexical_rank)"
        )
        lexical_params: list[Any] = [list(lexical)]
        kept = ", ".join(f"v.{name}" for name in names)
    else:
        # The statement's rows come ordered (its ORDER BY and LIMIT), as `arrival` above.
        statement_sql, lexical_params = lexical_statement
        lexical_sql = (
            "SELECT found.*, row_number() OVER () AS lexical_rank "  # noqa: S608
            f"FROM ({statement_sql}) AS found"
        )
        kept = ", ".join(
            f"CASE WHEN v.id IS NULL THEN l.{name} ELSE v.{name} END" for name in names
        )
    # Only numbers and the models' own names are interpolated.
    sql = (
        f"WITH nearest AS (SELECT {columns}, n.distance, row_number() OVER ("  # noqa: S608
        "ORDER BY greatest(-1.0, least(1.0, 1.0 - n.distance)) DESC, n.arrival"
        f") AS vector_rank FROM (SELECT *, row_number() OVER () AS arrival FROM {nearest_sql} "
        "AS found) AS n), "
        f"lexical AS ({lexical_sql}) "
        f"SELECT {kept}, l.lexical_rank, coalesce(v.distance, "
        f"(SELECT e.embedding <=> %s::vector FROM {TABLE} e WHERE e.item_id = l.id "
        f"AND e.scope_id = %s AND e.model = %s AND e.dims = {dims:d})) "
        "FROM nearest v FULL JOIN lexical l ON l.id = v.id "
        f"ORDER BY coalesce(1.0::float8 / ({RRF_K:d} + v.vector_rank), 0.0) "
        f"+ coalesce(1.0::float8 / ({RRF_K:d} + l.lexical_rank), 0.0) DESC, "
        f"v.vector_rank NULLS LAST, l.lexical_rank LIMIT {int(keep):d}"
    )
    return sql, [*params, *lexical_params, vector_literal(vector), scope.pk, model]


def search_rows(
    scope: Scope,
    vector: Sequence[float],
    model: str,
    statement,
    shape: SearchShape | None = None,
) -> list[tuple]:
    """The rows of the statement `statement(walk=…)` builds, planned for its values; a
    search that is not of a small scope runs under apply_search_settings' settings, in a
    transaction, and they are undone if a surrounding transaction would keep them.

    A small scope's search needs neither (a few thousand distances, no JIT, no walk):
    one statement, or two when the scope's `shape` is not given (looked up first), where
    a transaction and settings cost three more."""
    with planned_for_each_call():
        if shape is None:
            with connection.cursor() as cursor:
                shape = search_shape(cursor, scope=scope, model=model, dims=len(vector))
        walk, small = shape
        if small and not walk:
            return _fetch_all(statement(walk=walk))
        inside_transaction = connection.in_atomic_block
        with transaction.atomic(savepoint=False):  # reads only: nothing to roll back to
            with connection.cursor() as cursor:
                apply_search_settings(cursor, walk=walk)
            rows = _fetch_all(statement(walk=walk))
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
