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
   applies one set-based UPDATE for all hits (`record_recall_accesses`).
"""

import math
import re
import unicodedata
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import (
    Case,
    DateTimeField,
    DurationField,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    Q,
    Value,
    When,
)
from django.db.models.functions import Ln
from django.db.models.lookups import GreaterThan
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.errors import ServiceError
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.scoring import REINFORCEMENT_STEP, effective_score
from apps.memory.selectors import scopes_visible_to
from apps.tenancy.models import Scope, Tenant
from memory_console.db import planned_for_each_call

CANDIDATE_LIMIT = 200
# Matching rows examined before ranking by matched terms (bounds work on huge scopes).
SCAN_LIMIT = 1000
MAX_PATTERNS = 4
MAX_TOP_K = 100
RECENCY_HALF_LIFE_DAYS = 7.0
_SECONDS_PER_DAY = 86_400.0
# Candidates load only what ranking reads; the top_k hits are then loaded in full
# (minus the sealed content and the embedding, which answers never carry).
_RANKING_FIELDS = (
    "id", "tenant_id", "scope_id", "text", "importance", "half_life_days", "last_access_at",
    "embedding_model",
)  # fmt: skip
_NEVER_LOADED = ("sealed_content", "embedding")

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[0-9a-z\u00c0-\u024f]+")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_STOPWORD_TEXT = (
    "a an and are as at be by did do does for from had has have he her his how i if in is "
    "it its me my of on or our she so that the their them they this to was we were what "
    "when where which who why will with you your about any can could should would "
    "after all also before but into just more most not now only over some than then very "
    # Nearly every memory is about "the user": the word tells candidates apart no better.
    "user users"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_SUFFIXES = ("ing", "ed", "es", "ly", "s")


class ScopeNotFound(ServiceError, LookupError):
    """The scope does not exist in that tenant, or the caller may not read it."""

    code = "not_found"
    status = 404


@dataclass(frozen=True)
class RecallHit:
    """One recalled memory, its final score and the components the score is made of."""

    item: MemoryItem
    score: float
    similarity: float
    recency: float
    importance: float
    similarity_source: str  # "embedding" or "lexical"

    @property
    def components(self) -> dict[str, float]:
        return {
            "similarity": self.similarity,
            "recency": self.recency,
            "importance": self.importance,
        }


@dataclass(frozen=True)
class QueryTerm:
    """A query word (Latin) or run (CJK): the n-grams it is scored by and its SQL pattern."""

    grams: tuple[str, ...]
    pattern: str
    is_cjk: bool


def normalise(text: str) -> str:
    """NFKC and case-folded, so full-width and upper-case forms compare equal."""
    return unicodedata.normalize("NFKC", text).casefold()


def _stem(word: str) -> str:
    """A crude suffix strip so "prefers", "preferred" and "preferring" find "prefer"."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            if suffix in ("ed", "ing") and len(stem) > 3 and stem[-1] == stem[-2]:
                stem = stem[:-1]  # preferr(ed) -> prefer
            return stem
    return word


def _ngrams(token: str, size: int) -> tuple[str, ...]:
    if len(token) <= size:
        return (token,)
    return tuple(dict.fromkeys(token[i : i + size] for i in range(len(token) - size + 1)))


def query_terms(query: str) -> list[QueryTerm]:
    """Split a query into scored terms: Latin words (minus stop words) and CJK runs."""
    terms: list[QueryTerm] = []
    seen: set[str] = set()
    for token in _TOKEN.findall(normalise(query)):
        if token in seen:
            continue
        seen.add(token)
        if _CJK_RUN.fullmatch(token):
            terms.append(QueryTerm(_ngrams(token, 2), token, is_cjk=True))
        elif token not in _STOPWORDS:
            terms.append(QueryTerm(_ngrams(token, 3), _stem(token), is_cjk=False))
    if not terms:  # a query of stop words only still means something
        terms = [QueryTerm(_ngrams(token, 3), token, is_cjk=False) for token in seen]
    return terms


def _spread(grams: Sequence[str], count: int) -> list[str]:
    """Up to `count` grams spread evenly over a run (first and last included)."""
    if len(grams) <= count:
        return list(grams)
    if count <= 1:
        return list(grams[:1])
    step = (len(grams) - 1) / (count - 1)
    return [grams[round(i * step)] for i in range(count)]


def _sql_patterns(terms: Sequence[QueryTerm]) -> list[tuple[str, bool]]:
    """What the database filters on, as (pattern, caseless) pairs, at most MAX_PATTERNS.

    Latin stems of 3+ characters and trigrams of CJK runs of 3+ characters can use the
    trigram index; CJK runs of one or two characters cannot, and are matched as they are
    within the scope (the (tenant, scope, status) index bounds that scan). Every pattern
    costs a comparison per scanned row, so long runs are sampled (spread trigrams) and
    longer, rarer words win over short ones.
    """
    latin = sorted(
        {term.pattern for term in terms if not term.is_cjk and len(term.pattern) >= 3},
        key=lambda word: (-len(word), word),
    )
    cjk_runs = [term.pattern for term in terms if term.is_cjk]
    cjk: list[str] = []
    per_run = max(1, (MAX_PATTERNS - min(len(latin), MAX_PATTERNS // 2)) // max(len(cjk_runs), 1))
    for run in cjk_runs:
        cjk += _spread(_ngrams(run, 3), min(per_run, 3))
    patterns = [(gram, True) for gram in dict.fromkeys(cjk)]
    patterns += [(word, False) for word in latin]
    if not patterns:
        patterns = [(term.pattern, term.is_cjk) for term in terms]
    return patterns[:MAX_PATTERNS]


def _cjk_bigram_patterns(terms: Sequence[QueryTerm]) -> list[tuple[str, bool]]:
    """The bigrams of a query's CJK runs (spread), for the second, broader pass."""
    runs = [term for term in terms if term.is_cjk]
    per_run = max(1, MAX_PATTERNS // max(len(runs), 1))
    grams = [gram for term in runs for gram in _spread(term.grams, per_run)]
    return [(gram, True) for gram in dict.fromkeys(grams)][:MAX_PATTERNS]


def lexical_similarity(terms: Sequence[QueryTerm], text: str) -> float:
    """Average over query terms of the share of each term's n-grams present in the text."""
    if not terms:
        return 0.0
    haystack = normalise(text)
    total = 0.0
    for term in terms:
        total += sum(1 for gram in term.grams if gram in haystack) / len(term.grams)
    return total / len(terms)


def decode_embedding(raw: bytes | memoryview | None) -> array | None:
    """float32 bytes (as stored in MemoryItem.embedding) into an array of floats."""
    if not raw:
        return None
    values = array("f")
    values.frombytes(bytes(raw))
    return values


def cosine_similarity(left: Sequence[float], right: Sequence[float]) -> float | None:
    """Cosine of two vectors of equal length (None if they differ or one is zero).

    Computed with C-level helpers (no numpy): a·b = (|a|² + |b|² − |a−b|²) / 2.
    """
    if len(left) != len(right) or not left:
        return None
    norm_left, norm_right = math.hypot(*left), math.hypot(*right)
    if norm_left == 0 or norm_right == 0:
        return None
    dot = (norm_left**2 + norm_right**2 - math.dist(left, right) ** 2) / 2
    return max(-1.0, min(1.0, dot / (norm_left * norm_right)))


def recency(*, last_access_at: datetime, now: datetime) -> float:
    """0.5 ^ (days since last access / RECENCY_HALF_LIFE_DAYS), in (0, 1]."""
    elapsed_days = max((now - last_access_at).total_seconds(), 0.0) / _SECONDS_PER_DAY
    return 0.5 ** (elapsed_days / RECENCY_HALF_LIFE_DAYS)


def resolve_scope(*, actor: Any, tenant: Tenant | str, scope_key: str) -> Scope:
    """The scope `kind:external_id` of the tenant, if the actor may read its memories."""
    kind, separator, external_id = (scope_key or "").partition(":")
    if not separator or not external_id:
        raise ScopeNotFound(scope_key)
    scopes = scopes_visible_to(actor, "view_memories").select_related("tenant")
    tenant_filter = {"tenant": tenant} if isinstance(tenant, Tenant) else {"tenant__slug": tenant}
    scope = scopes.filter(kind=kind, external_id=external_id, **tenant_filter).first()
    if scope is None:
        raise ScopeNotFound(scope_key)
    return scope


def _recallable(scope: Scope, now: datetime, memory_types, categories):
    items = MemoryItem.objects.filter(
        tenant_id=scope.tenant_id, scope=scope, status=MemoryStatus.ACTIVE
    ).filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    if memory_types:
        items = items.filter(memory_type__in=list(memory_types))
    if categories:
        items = items.filter(category__in=list(categories))
    return items


def _lexical_candidates_sql(
    *,
    scope: Scope,
    patterns: Sequence[tuple[str, bool]],
    now: datetime,
    memory_types: Sequence[str],
    categories: Sequence[int],
    with_embeddings: bool,
) -> tuple[str, list[Any]]:
    """The ranked candidate query, written out: it is the hot path, and the derived table
    (a bounded scan, then a sort of at most SCAN_LIMIT rows) must run exactly once.

    Latin patterns use ILIKE on PostgreSQL (the trigram index serves them); CJK patterns
    have no case and use LIKE, which is cheaper. SQLite's LIKE is case-insensitive for
    ASCII already.
    """
    postgres = connection.vendor == "postgresql"
    matches, match_params = [], []
    for pattern, caseless in patterns:
        escaped = pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        operator = "ILIKE" if postgres and not caseless else "LIKE"
        escape = "" if postgres else " ESCAPE '\\'"
        matches.append(f"text {operator} %s{escape}")
        match_params.append(f"%{escaped}%")
    columns = ", ".join(
        connection.ops.quote_name(name)
        for name in (*_RANKING_FIELDS, *(("embedding",) if with_embeddings else ()))
    )
    filters = ["tenant_id = %s", "scope_id = %s", "status = %s"]
    params: list[Any] = [scope.tenant_id, scope.pk, MemoryStatus.ACTIVE]
    filters.append("(expires_at IS NULL OR expires_at > %s)")
    params.append(connection.ops.adapt_datetimefield_value(now))
    if memory_types:
        filters.append(f"memory_type IN ({', '.join(['%s'] * len(memory_types))})")
        params.extend(memory_types)
    if categories:
        filters.append(f"category IN ({', '.join(['%s'] * len(categories))})")
        params.extend(categories)
    term_hits = " + ".join(f"(CASE WHEN {match} THEN 1 ELSE 0 END)" for match in matches)
    table = connection.ops.quote_name(MemoryItem._meta.db_table)
    sql = (
        f"SELECT * FROM (SELECT {columns}, {term_hits} AS term_hits FROM {table} "  # noqa: S608
        f"WHERE {' AND '.join(filters)} AND ({' OR '.join(matches)}) "
        f"LIMIT {SCAN_LIMIT:d}) AS scanned "
        f"ORDER BY term_hits DESC, importance DESC, last_access_at DESC LIMIT {CANDIDATE_LIMIT:d}"
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
    with_embeddings: bool = False,
) -> list[MemoryItem]:
    """Active, unexpired items of the scope that contain a query term (most terms first),
    topped up with the scope's most important recent items when fewer than `minimum`.

    Candidates carry only the columns ranking reads; the rest are deferred.
    """
    with planned_for_each_call():
        candidates = _select_candidates(
            scope=scope,
            terms=terms,
            now=now,
            memory_types=list(memory_types or []),
            categories=list(categories or []),
            minimum=minimum,
            with_embeddings=with_embeddings,
        )
    for item in candidates:  # every candidate shares the scope: no query per row later
        item.scope = scope
        item.tenant = scope.tenant
    return candidates


def _select_candidates(
    *,
    scope: Scope,
    terms: Sequence[QueryTerm],
    now: datetime,
    memory_types: list[str],
    categories: list[int],
    minimum: int,
    with_embeddings: bool,
) -> list[MemoryItem]:
    candidates: list[MemoryItem] = []
    passes = [_sql_patterns(terms)]
    if any(term.is_cjk and len(term.pattern) > 2 for term in terms):
        # A long CJK query may share only a word with the memory ("北京的天气" and
        # "住在北京朝阳区"): when its trigrams find too little, try its bigrams.
        passes.append(_cjk_bigram_patterns(terms))
    for patterns in passes:
        if not patterns or len(candidates) >= min(minimum, CANDIDATE_LIMIT):
            continue
        sql, params = _lexical_candidates_sql(
            scope=scope,
            patterns=patterns,
            now=now,
            memory_types=memory_types,
            categories=categories,
            with_embeddings=with_embeddings,
        )
        seen = {item.pk for item in candidates}
        candidates += [item for item in MemoryItem.objects.raw(sql, params) if item.pk not in seen]
    missing = min(minimum, CANDIDATE_LIMIT) - len(candidates)
    if missing > 0:
        items = _recallable(scope, now, memory_types, categories)
        fields = (*_RANKING_FIELDS, *(("embedding",) if with_embeddings else ()))
        found = [item.pk for item in candidates]
        candidates += list(
            items.only(*fields)
            .exclude(pk__in=found)
            .order_by("-importance", "-last_access_at")[:missing]
        )
    return candidates


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


def rank(
    candidates: Iterable[MemoryItem],
    *,
    tenant: Tenant,
    terms: Sequence[QueryTerm],
    now: datetime,
    query_embedding: Sequence[float] | None = None,
    embedding_model: str = "",
) -> list[RecallHit]:
    """Score candidates α·similarity + β·recency + γ·S(t), best first."""
    alpha, beta, gamma = tenant.recall_alpha, tenant.recall_beta, tenant.recall_gamma
    hits = []
    for item in candidates:
        similarity, source = None, "lexical"
        if query_embedding is not None and item.embedding_model == embedding_model:
            vector = decode_embedding(item.embedding)
            similarity = cosine_similarity(query_embedding, vector) if vector else None
            if similarity is not None:
                similarity, source = max(similarity, 0.0), "embedding"
        if similarity is None:
            similarity = lexical_similarity(terms, item.text)
        fresh = recency(last_access_at=item.last_access_at, now=now)
        decayed = effective_score(
            importance=item.importance,
            half_life_days=item.half_life_days,
            last_access_at=item.last_access_at,
            now=now,
        )
        score = alpha * similarity + beta * fresh + gamma * decayed
        hits.append(RecallHit(item, score, similarity, fresh, decayed, source))
    hits.sort(key=lambda hit: (-hit.score, -hit.similarity, str(hit.item.pk)))
    return hits


def enqueue_access_recording(
    *, hits: Sequence[RecallHit], scope: Scope, actor: Any, accessed_at: datetime
) -> None:
    """Record the hits' accesses after the surrounding transaction commits, in one task."""
    from apps.memory.tasks import record_recall_accesses_task

    item_ids = [str(hit.item.pk) for hit in hits]
    actor_id = getattr(actor, "pk", None)
    transaction.on_commit(
        lambda: record_recall_accesses_task.delay(
            item_ids,
            accessed_at.isoformat(),
            tenant_id=scope.tenant_id,
            scope_id=scope.pk,
            actor_id=actor_id,
        )
    )


class _DaysAsDuration(Func):
    """A number of days (float expression) as a duration the database can add to a time."""

    output_field = DurationField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"(({sql}) * INTERVAL '1 day')", params

    def as_sql(self, compiler, connection, **extra_context):
        # Elsewhere durations are stored as integer microseconds.
        sql, params = compiler.compile(self.source_expressions[0])
        return f"CAST(({sql}) * 86400000000 AS INTEGER)", params


def reinforcement_updates(*, accessed_at: datetime, threshold: float) -> dict[str, Any]:
    """The UPDATE … SET expressions for one recall hit, as SQL.

    Mirrors apps.memory.scoring: importance = reinforce(importance) = 1 − (1 − S0)·(1 − step),
    archive_due_at = compute_archive_due_at(...) = accessed_at + T½ · log2(S0' / θ) days
    (or accessed_at when S0' ≤ θ). Both read the row's old values, as SQL SET does.
    """
    new_importance = ExpressionWrapper(
        Value(1.0) - (Value(1.0) - F("importance")) * Value(1.0 - REINFORCEMENT_STEP),
        output_field=FloatField(),
    )
    days_until_due = ExpressionWrapper(
        F("half_life_days") * Ln(new_importance / Value(threshold)) / Value(math.log(2)),
        output_field=FloatField(),
    )
    accessed = Value(accessed_at, output_field=DateTimeField())
    return {
        "last_access_at": accessed,
        "access_count": F("access_count") + 1,
        "importance": new_importance,
        "archive_due_at": Case(
            When(
                GreaterThan(new_importance, Value(threshold)),
                then=ExpressionWrapper(
                    accessed + _DaysAsDuration(days_until_due), output_field=DateTimeField()
                ),
            ),
            default=accessed,
            output_field=DateTimeField(),
        ),
    }


def record_recall_accesses(
    *,
    item_ids: Sequence[str],
    accessed_at: datetime,
    tenant_id: int,
    scope_id: int,
    actor: Any,
) -> int:
    """Reinforce every recalled item with ONE set-based UPDATE and audit the counts."""
    with audited_change():
        threshold = Tenant.objects.values_list("archive_threshold", flat=True).get(pk=tenant_id)
        updated = MemoryItem.objects.filter(
            pk__in=list(item_ids),
            tenant_id=tenant_id,
            scope_id=scope_id,
            status=MemoryStatus.ACTIVE,
        ).update(**reinforcement_updates(accessed_at=accessed_at, threshold=threshold))
        record(
            actor=actor,
            action=Action.MEMORY_RECALLED,
            target_type="memory.scope",
            target_id=str(scope_id),
            tenant=tenant_id,
            scope=scope_id,
            data={"hits": len(item_ids), "updated": updated},
        )
    return updated
