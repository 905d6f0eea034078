"""Recall candidates: the scope's active, unexpired items that contain a query pattern,
pre-selected in the database in one statement (the hot path, written out as SQL).

The scan stops after SCAN_LIMIT matching rows, which are ordered by how many patterns
they contain; CANDIDATE_LIMIT are kept. A long CJK query whose trigrams find too little
gets a second pass on its bigrams; if that still finds fewer than wanted, the scope's
most important, most recently used items top the list up, so recall still answers.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Q

from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.recall.lexemes import LEXEMES_COLUMN, lexeme_index_available, lexeme_query
from apps.memory.recall.query import QueryTerm, cjk_bigram_patterns, sql_patterns
from apps.tenancy.models import Scope
from memory_console.db import parse_timestamps_natively, planned_for_each_call

CANDIDATE_LIMIT = 200
# Matching rows examined before ranking by matched terms (bounds work on huge scopes).
SCAN_LIMIT = 1000
# Candidates load only what ranking reads; the top_k hits are then loaded in full
# (minus the sealed content and the embedding, which answers never carry).
RANKING_FIELDS = ("id", "text", "importance", "half_life_days", "last_access_at")


@dataclass(frozen=True, slots=True)
class Candidate:
    """What ranking reads of a memory: candidates are hundreds per recall, and building
    a model instance for each cost more client CPU than the rest of recall."""

    pk: Any
    text: str
    importance: float
    half_life_days: float
    last_access_at: datetime


@cache
def _column_converters(alias: str) -> dict[int, tuple[list, Any]]:
    """The ORM's converters for RANKING_FIELDS' columns on that database (none on
    PostgreSQL; text to UUID and datetime on SQLite), found once per process."""
    compiler = MemoryItem.objects.values_list(*RANKING_FIELDS).query.get_compiler(alias)
    compiler.as_sql()
    return compiler.get_converters([column for column, _, _ in compiler.select])


def candidates_from_rows(rows: Iterable[Sequence[Any]]) -> list[Candidate]:
    """Candidates from rows whose first columns are RANKING_FIELDS (the rest ignored)."""
    width = len(RANKING_FIELDS)
    converters = _column_converters(connection.alias)
    if not converters:
        return [Candidate(*row[:width]) for row in rows]
    candidates = []
    for row in rows:
        values = list(row[:width])
        for index, (functions, expression) in converters.items():
            for convert in functions:
                values[index] = convert(values[index], expression, connection)
        candidates.append(Candidate(*values))
    return candidates


def recallable(scope: Scope, now: datetime, memory_types, categories):
    """The scope's active, unexpired items (of those types and categories, if given)."""
    items = MemoryItem.objects.filter(
        tenant_id=scope.tenant_id, scope=scope, status=MemoryStatus.ACTIVE
    ).filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    if memory_types:
        items = items.filter(memory_type__in=list(memory_types))
    if categories:
        items = items.filter(category__in=list(categories))
    return items


def recallable_filters(
    *,
    scope: Scope,
    now: datetime,
    memory_types: Sequence[str],
    categories: Sequence[int],
    alias: str = "",
    scoped: bool = True,
) -> tuple[list[str], list[Any]]:
    """`recallable` as SQL conditions (columns of table `alias`, if given) and parameters;
    without the tenant and scope ones unless `scoped` (for a statement whose other
    condition selects the scope already)."""
    column = f"{alias}." if alias else ""
    filters = [f"{column}status = %s"]
    params: list[Any] = [MemoryStatus.ACTIVE]
    if scoped:
        filters = [f"{column}tenant_id = %s", f"{column}scope_id = %s", *filters]
        params = [scope.tenant_id, scope.pk, *params]
    filters.append(f"({column}expires_at IS NULL OR {column}expires_at > %s)")
    params.append(connection.ops.adapt_datetimefield_value(now))
    if memory_types:
        filters.append(f"{column}memory_type IN ({', '.join(['%s'] * len(memory_types))})")
        params.extend(memory_types)
    if categories:
        filters.append(f"{column}category IN ({', '.join(['%s'] * len(categories))})")
        params.extend(categories)
    return filters, params


def _lexical_candidates_sql(
    *,
    scope: Scope,
    patterns: Sequence[tuple[str, bool]],
    now: datetime,
    memory_types: Sequence[str],
    categories: Sequence[int],
) -> tuple[str, list[Any]]:
    """The ranked candidate query, written out: it is the hot path, and the derived table
    (a bounded scan, then a sort of at most SCAN_LIMIT rows) must run exactly once.

    Latin patterns use ILIKE on PostgreSQL (the trigram index serves them); CJK patterns
    have no case and use LIKE, which is cheaper. SQLite's LIKE is case-insensitive for
    ASCII already. With the lexeme index (apps.memory.recall.lexemes) the scan is of the
    CANDIDATE_LIMIT matches the index ranks best, and the patterns only count term_hits.
    """
    postgres = connection.vendor == "postgresql"
    matches, match_params = [], []
    for pattern, caseless in patterns:
        escaped = pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        operator = "ILIKE" if postgres and not caseless else "LIKE"
        escape = "" if postgres else " ESCAPE '\\'"
        matches.append(f"text {operator} %s{escape}")
        match_params.append(f"%{escaped}%")
    columns = ", ".join(connection.ops.quote_name(name) for name in RANKING_FIELDS)
    term_hits = " + ".join(f"(CASE WHEN {match} THEN 1 ELSE 0 END)" for match in matches)
    table = connection.ops.quote_name(MemoryItem._meta.db_table)
    order = "ORDER BY term_hits DESC, importance DESC, last_access_at DESC"
    if postgres and lexeme_index_available():
        # The index finds the scope's matches (its lexemes carry the scope) and ranks them:
        # only the best are read. Tenant and scope conditions beside it would only lead
        # the planner to intersect their indexes with it and sort every match instead.
        filters, params = recallable_filters(
            scope=scope, now=now, memory_types=memory_types, categories=categories, scoped=False
        )
        query = lexeme_query(scope.pk, patterns)
        sql = (
            f"SELECT * FROM (SELECT {columns}, {term_hits} AS term_hits FROM {table} "  # noqa: S608
            f"WHERE {' AND '.join(filters)} AND {LEXEMES_COLUMN} @@ %s::tsquery "
            f"ORDER BY {LEXEMES_COLUMN} <=> %s::tsquery LIMIT {CANDIDATE_LIMIT:d}) AS ranked "
            f"{order}"
        )
        return sql, [*match_params, *params, query, query]
    filters, params = recallable_filters(
        scope=scope, now=now, memory_types=memory_types, categories=categories
    )
    sql = (
        f"SELECT * FROM (SELECT {columns}, {term_hits} AS term_hits FROM {table} "  # noqa: S608
        f"WHERE {' AND '.join(filters)} AND ({' OR '.join(matches)}) "
        f"LIMIT {SCAN_LIMIT:d}) AS scanned {order} LIMIT {CANDIDATE_LIMIT:d}"
    )
    return sql, [*match_params, *params, *match_params]


def select_candidates(
    *,
    scope: Scope,
    terms: Sequence[QueryTerm],
    now: datetime,
    memory_types: Iterable[str] | None = None,
    categories: Iterable[int] | None = None,
    minimum: int = 10,
    top_up: bool = True,
) -> list[Candidate]:
    """Active, unexpired items of the scope that contain a query term (most terms first),
    topped up (with `top_up`) by the scope's most important recent items when fewer than
    `minimum`; as Candidates (the columns ranking reads).
    """
    with planned_for_each_call():
        return _select_candidates(
            scope=scope,
            terms=terms,
            now=now,
            memory_types=list(memory_types or []),
            categories=list(categories or []),
            minimum=minimum,
            top_up=top_up,
        )


def lexical_statement(
    *,
    scope: Scope,
    terms: Sequence[QueryTerm],
    now: datetime,
    memory_types: Iterable[str] | None = None,
    categories: Iterable[int] | None = None,
    top_up: bool = False,
) -> tuple[str, list[Any]] | None:
    """The one statement whose rows (`candidates_of`) are select_candidates' answer, when
    one statement is all it takes: no second CJK pass may follow and no top-up is asked,
    and the query has a pattern. For a caller that runs it inside a statement of its own
    (recall's fused search: a round trip less); None otherwise."""
    if top_up or any(term.is_cjk and len(term.pattern) > 2 for term in terms):
        return None
    patterns = sql_patterns(terms)
    if not patterns:
        return None
    return _lexical_candidates_sql(
        scope=scope,
        patterns=patterns,
        now=now,
        memory_types=list(memory_types or []),
        categories=list(categories or []),
    )


def candidates_of(statement: tuple[str, list[Any]]) -> list[Candidate]:
    """The candidates a lexical statement finds, in its order."""
    with connection.cursor() as cursor:
        parse_timestamps_natively(cursor)
        cursor.execute(*statement)
        return candidates_from_rows(cursor.fetchall())


def _select_candidates(
    *,
    scope: Scope,
    terms: Sequence[QueryTerm],
    now: datetime,
    memory_types: list[str],
    categories: list[int],
    minimum: int,
    top_up: bool,
) -> list[Candidate]:
    candidates: list[Candidate] = []
    passes = [sql_patterns(terms)]
    if any(term.is_cjk and len(term.pattern) > 2 for term in terms):
        # A long CJK query may share only a word with the memory ("北京的天气" and
        # "住在北京朝阳区"): when its trigrams find too little, try its bigrams.
        passes.append(cjk_bigram_patterns(terms))
    for patterns in passes:
        if not patterns or len(candidates) >= min(minimum, CANDIDATE_LIMIT):
            continue
        sql, params = _lexical_candidates_sql(
            scope=scope,
            patterns=patterns,
            now=now,
            memory_types=memory_types,
            categories=categories,
        )
        seen = {item.pk for item in candidates}
        candidates += [item for item in candidates_of((sql, params)) if item.pk not in seen]
    missing = min(minimum, CANDIDATE_LIMIT) - len(candidates)
    if top_up and missing > 0:
        items = recallable(scope, now, memory_types, categories)
        found = [item.pk for item in candidates]
        candidates += [
            Candidate(*row)
            for row in items.exclude(pk__in=found)
            .order_by("-importance", "-last_access_at")
            .values_list(*RANKING_FIELDS)[:missing]
        ]
    return candidates
