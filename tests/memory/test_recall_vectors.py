"""Recall's vector path (issue 18): embeddings indexed on write, searched without a lexical
pre-selection (pgvector's HNSW index, or the exact fallback), fused with the lexical list."""

from array import array

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.models import JobOutcome, JobRun, JobTrigger
from apps.memory import vectors as vectors_module
from apps.memory.generation.embedding import embed
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.recall import (
    CANDIDATE_LIMIT,
    SCAN_LIMIT,
    ScopeNotFound,
    cosine_similarity,
    fuse,
    lexical_statement,
    query_terms,
    recall_memories,
    resolve_scope_and_shape,
    select_candidates,
    vector_search,
)
from apps.memory.recall import vectors as recall_vectors
from apps.memory.recall.vector_search import (
    SearchShape,
    fused_query,
    index_query,
    prepare_search,
    search_shape,
)
from apps.memory.tasks import index_large_scopes_task
from apps.memory.vectors import (
    SCOPE_INDEX_PREFIX,
    TABLE,
    index_large_scopes,
    vector_search_available,
)
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db
MODEL = "test-trigram-384"
QUESTION = "where does Alice live"
ANSWER = "Rue de Rivoli 12, 75001 Paris"  # no word in common with the question


@pytest.fixture
def scope_a(tenant_a):
    return ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1024")


@pytest.fixture(params=["pgvector", "exact"])
def vector_path(request, monkeypatch):
    """Each test runs on the HNSW index (where the extension exists) and on the fallback."""
    if request.param == "pgvector" and not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    if request.param == "exact":
        monkeypatch.setattr(recall_vectors, "vector_search_available", lambda: False)
    return request.param


def remember(scope, text, *, vector=None, **fields):
    packed = array("f", vector if vector is not None else embed(text)).tobytes()
    return MemoryItemFactory(
        scope=scope,
        content={"text": text},
        text=text,
        embedding=packed,
        embedding_model=MODEL,
        **fields,
    )


def recall(actor, scope, query, **kwargs):
    return recall_memories(
        actor=actor,
        tenant=scope.tenant,
        scope_key=scope.key,
        query=query,
        query_embedding=embed(query),
        embedding_model=MODEL,
        **kwargs,
    )


def test_a_memory_sharing_no_word_is_found_past_the_lexical_caps(operator_a, scope_a, vector_path):
    """More lexical matches than the lexical path scans cannot hide the semantic answer: an
    agent's model put the address next to the question, and the vector path sees it."""
    fillers = SCAN_LIMIT + 50
    assert fillers > CANDIDATE_LIMIT
    filler = "Alice bought a red bicycle"  # half the question's terms
    MemoryItemFactory.create_batch(  # embedded too: more than the vector path keeps
        fillers,
        scope=scope_a,
        content={"text": filler},
        text=filler,
        embedding=array("f", embed(filler)).tobytes(),
        embedding_model=MODEL,
    )
    address = remember(scope_a, ANSWER, vector=embed(QUESTION))
    hits = recall(operator_a, scope_a, QUESTION, top_k=5)
    assert hits[0].item.pk == address.pk
    assert hits[0].similarity_source == "embedding"
    assert hits[0].similarity == pytest.approx(1.0, abs=1e-5)


def test_an_english_question_finds_a_chinese_fact(operator_a, scope_a, vector_path):
    fact = remember(scope_a, "爱丽丝住在巴黎里沃利街12号", vector=embed("Where does Alice live?"))
    for n in range(30):
        remember(scope_a, f"The user asked about delivery option {n}")
    hits = recall(operator_a, scope_a, "Where does Alice live?", top_k=3)
    assert hits[0].item.pk == fact.pk and hits[0].similarity_source == "embedding"


def test_vector_hits_respect_status_expiry_type_and_scope(
    operator_a, scope_a, tenant_a, vector_path
):
    other_scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_other")
    remember(other_scope, ANSWER, vector=embed(QUESTION))
    remember(scope_a, ANSWER, vector=embed(QUESTION), status=MemoryStatus.QUARANTINED)
    remember(scope_a, ANSWER, vector=embed(QUESTION), memory_type="episodic")
    kept = remember(scope_a, "Lives in Paris", vector=embed(QUESTION + "!"))
    hits = recall(operator_a, scope_a, QUESTION, memory_types=["semantic"])
    assert [hit.item.pk for hit in hits] == [kept.pk]


def test_another_embedding_model_is_not_compared(operator_a, scope_a, vector_path):
    remember(scope_a, ANSWER, vector=embed(QUESTION))
    hits = recall_memories(
        actor=operator_a,
        tenant=scope_a.tenant,
        scope_key=scope_a.key,
        query=QUESTION,
        query_embedding=embed(QUESTION),
        embedding_model="another-model",
    )
    assert hits == []


def test_lexical_and_vector_lists_are_fused(operator_a, scope_a, vector_path):
    both = remember(scope_a, "Alice lives in Paris")
    vector_only = remember(scope_a, ANSWER, vector=embed(QUESTION))
    hits = recall(operator_a, scope_a, QUESTION)
    assert {hit.item.pk for hit in hits} == {both.pk, vector_only.pk}


def test_reciprocal_rank_fusion_prefers_items_high_in_both_lists():
    assert fuse(["a", "b", "c"], ["b", "d"]) == ["b", "a", "d", "c"]
    assert fuse(["a"], []) == ["a"]


def test_a_write_through_the_gate_indexes_its_embedding_and_forgetting_removes_it(
    postgres_only, operator_a, scope_a
):
    from apps.memory.gate import NewMemory
    from apps.memory.services import remember as gate_remember

    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    result = gate_remember(
        new=NewMemory(
            tenant=scope_a.tenant,
            scope=scope_a,
            memory_type="semantic",
            content={"text": ANSWER},
            source="test",
            embedding=array("f", embed(ANSWER)).tobytes(),
            embedding_model=MODEL,
        ),
        actor="test",
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT model, dims FROM {TABLE} WHERE item_id = %s", [result.item.pk])
        assert cursor.fetchone() == (MODEL, 384)
        MemoryItem.objects.filter(pk=result.item.pk).delete()
        cursor.execute(f"SELECT count(*) FROM {TABLE} WHERE item_id = %s", [result.item.pk])
        assert cursor.fetchone() == (0,)


def _plan_of_vector_statement(scope, *, limit, fused_with=None, lexical_query=None):
    """Whether production's rule walks the index for `scope`, and the EXPLAIN ANALYZE of
    the statement it would run (the search alone, or fused with the `fused_with` lexical
    candidates' ids, or with the lexical search for `lexical_query` inside it, as recall
    runs it), under the settings it would run it with."""

    with transaction.atomic(), connection.cursor() as cursor:
        walk = prepare_search(cursor, scope=scope, model=MODEL, dims=384, limit=limit)
        search = {
            "scope": scope,
            "now": timezone.now(),
            "vector": embed(QUESTION),
            "model": MODEL,
            "memory_types": [],
            "categories": [],
            "limit": limit,
            "walk": walk,
        }
        if lexical_query is not None:
            statement = lexical_statement(
                scope=scope, terms=query_terms(lexical_query), now=search["now"]
            )
            sql, params = fused_query(
                **search, lexical=[], keep=CANDIDATE_LIMIT, lexical_statement=statement
            )
        elif fused_with is None:
            sql, params = index_query(**search)
        else:
            sql, params = fused_query(**search, lexical=fused_with, keep=CANDIDATE_LIMIT)
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)
    return walk, plan


def scopes_walked_and_exact(scope_a, tenant_a, monkeypatch):
    """150 vectors in scope_a and in another scope (each past WALK_MIN_SHARE of the table:
    walked) and 10 in a small scope (ranked exactly: EXACT_SCOPE_ROWS set to 100); returns
    the small scope."""
    monkeypatch.setattr(vector_search, "EXACT_SCOPE_ROWS", 100)  # not 2,000 rows here
    small_scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_small")
    other_scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_other")
    for scope, count in ((scope_a, 150), (other_scope, 150), (small_scope, 10)):
        for n in range(count):
            remember(scope, f"The user mentioned topic {n} in {scope.external_id}")
    return small_scope


def test_a_large_scope_walks_the_hnsw_index_and_a_small_one_is_ranked_exactly(
    postgres_only, operator_a, scope_a, tenant_a, monkeypatch
):
    """The planner prefers an exact sort of a scope that is a few percent of the table (it
    did, at 400 ms on CPU): the statement for a large scope must walk the index all the
    same, and a scope too small for the walk to find its neighbours is ranked exactly."""
    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    small_scope = scopes_walked_and_exact(scope_a, tenant_a, monkeypatch)
    address = remember(scope_a, ANSWER, vector=embed(QUESTION))
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {TABLE}")  # the rule reads the table's size from the catalog
    # 151 of 311 vectors: past WALK_MIN_SHARE (walk); 10: ranked exactly.
    walk, plan = _plan_of_vector_statement(scope_a, limit=10)
    assert walk
    assert "memory_itemembedding_hnsw" in plan and "Sort" not in plan, plan
    walk, plan = _plan_of_vector_statement(scope_a, limit=10, lexical_query="topic")
    assert "memory_itemembedding_hnsw" in plan, plan  # the lexical search inside too
    walk, plan = _plan_of_vector_statement(small_scope, limit=10)
    assert not walk
    assert "memory_itemembedding_hnsw" not in plan, plan
    # (Whether the walk finds the address is not asked here: the test database's graph
    # keeps every rolled-back test's vectors, dead, until a VACUUM that never comes.)
    settings_sql = "SELECT current_setting('enable_sort'), current_setting('jit')"
    with connection.cursor() as cursor:
        cursor.execute(settings_sql)
        before = cursor.fetchone()
    recall_vectors.nearest_items(
        scope=scope_a,
        now=address.created_at,
        query_embedding=embed(QUESTION),
        embedding_model=MODEL,
        limit=10,
    )
    # Later statements of the surrounding transaction are planned as before.
    with connection.cursor() as cursor:
        cursor.execute(settings_sql)
        assert cursor.fetchone() == before


def test_the_scope_comes_with_its_search_shape_in_one_statement_as_the_rule_decides(
    postgres_only, operator_a, operator_b, scope_a, tenant_a, monkeypatch
):
    """Recall's lookup of the scope through the grants also answers the walk-or-exact rule
    for it (a round trip less per recall), as the rule's own statement answers; a scope
    outside the caller's grant is not found, shape or not."""
    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    small_scope = scopes_walked_and_exact(scope_a, tenant_a, monkeypatch)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {TABLE}")  # the rule reads the table's size from the catalog
    expected = {
        scope_a: SearchShape(walk=True, small=False),
        small_scope: SearchShape(walk=False, small=True),
    }
    for scope, shape in expected.items():
        with CaptureQueriesContext(connection) as queries:
            found = resolve_scope_and_shape(
                actor=operator_a, tenant=tenant_a, scope_key=scope.key, vectors=(MODEL, 384)
            )
        assert found == (scope, shape)
        [statement] = [q["sql"] for q in queries.captured_queries if "pg_class" in q["sql"]]
        assert "memory_scope" in statement
        with connection.cursor() as cursor:
            assert vector_search.search_shape(cursor, scope=scope, model=MODEL, dims=384) == shape
    # Dimensions no index serves are ranked exactly, with no statement for the rule.
    assert resolve_scope_and_shape(
        actor=operator_a, tenant=tenant_a, scope_key=scope_a.key, vectors=(MODEL, 3)
    ) == (scope_a, SearchShape(walk=False, small=True))
    with pytest.raises(ScopeNotFound):
        resolve_scope_and_shape(
            actor=operator_b, tenant=tenant_a, scope_key=scope_a.key, vectors=(MODEL, 384)
        )


def test_the_fused_statement_keeps_the_candidates_fuse_keeps_in_its_order(scope_a, monkeypatch):
    """On pgvector the search, the lexical candidates' cosines and the fusion are one
    statement: it answers what nearest_items and fuse answer on the fallback, equal
    fused scores included (the nearest first, then the lexical order)."""
    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    query = embed("flowers planted")
    free = query.index(0.0)  # a dimension the query does not use
    for n in range(40):  # embedded, each further from the query (no equal cosines)
        vector = list(query)
        vector[free] = 0.05 * (n + 1)
        text = f"The user planted {'garden ' if n % 3 else ''}flower number {n}"
        remember(scope_a, text, vector=vector)
    for n in range(8):  # found by words only
        MemoryItemFactory(scope=scope_a, text=f"garden note {n}", embedding=None)
    now = timezone.now()
    lexical = select_candidates(scope=scope_a, terms=query_terms("garden"), now=now, minimum=5)
    search = {
        "scope": scope_a,
        "now": now,
        "query_embedding": query,
        "embedding_model": MODEL,
        "lexical": lexical,
        "limit": 15,
        "keep": 30,
    }
    in_one_statement = recall_vectors.fused_candidates(**search)
    monkeypatch.setattr(recall_vectors, "vector_search_available", lambda: False)
    in_python = recall_vectors.fused_candidates(**search)

    assert len(in_python) == 30 and len(lexical) > 15  # both lists reach past the cut
    assert [item.pk for item, _ in in_one_statement] == [item.pk for item, _ in in_python]
    for (_, cosine), (_, expected) in zip(in_one_statement, in_python, strict=True):
        assert (cosine is None) == (expected is None)
        assert cosine == pytest.approx(expected, abs=1e-5)


@pytest.mark.django_db(transaction=True)
def test_the_lexical_search_inside_the_fused_statement_finds_what_it_finds_alone(
    scope_a, monkeypatch, vector_path
):
    """Recall runs a one-statement lexical search inside the fused search (a round trip
    less): the candidates, their order, their columns and cosines are those of the lexical
    candidates found first and fused after."""
    query = embed("flowers planted")
    free = query.index(0.0)
    for n in range(40):
        vector = list(query)
        vector[free] = 0.05 * (n + 1)
        text = f"The user planted {'garden ' if n % 3 else ''}flower number {n}"
        remember(scope_a, text, vector=vector, importance=0.2 + n / 100)
    for n in range(8):  # found by words only; no two of equal rank
        MemoryItemFactory(scope=scope_a, text=f"garden note {n}", embedding=None, importance=n / 10)
    now = timezone.now()
    terms = query_terms("garden")
    search = {
        "scope": scope_a,
        "now": now,
        "query_embedding": query,
        "embedding_model": MODEL,
        "limit": 15,
        "keep": 30,
    }
    statement = lexical_statement(scope=scope_a, terms=terms, now=now)
    assert statement is not None
    together = recall_vectors.fused_candidates(**search, lexical=[], lexical_statement=statement)
    lexical = select_candidates(scope=scope_a, terms=terms, now=now, minimum=5, top_up=False)
    apart = recall_vectors.fused_candidates(**search, lexical=lexical)

    assert len(apart) == 30
    assert [item for item, _ in together] == [item for item, _ in apart]
    for (_, cosine), (_, expected) in zip(together, apart, strict=True):
        assert (cosine is None) == (expected is None)
        assert cosine == pytest.approx(expected, abs=1e-5)


def test_only_a_lexical_search_of_one_statement_runs_inside_the_fused_search(scope_a):
    """A long CJK query may need a second, broader pass and padding tops the list up:
    those keep their own statements, as does a query with no pattern."""
    now = timezone.now()
    assert lexical_statement(scope=scope_a, terms=query_terms("garden"), now=now)
    assert lexical_statement(scope=scope_a, terms=query_terms("北京的天气"), now=now) is None
    assert (
        lexical_statement(scope=scope_a, terms=query_terms("garden"), now=now, top_up=True) is None
    )
    assert lexical_statement(scope=scope_a, terms=query_terms(""), now=now) is None


def test_a_recall_of_a_small_scope_needs_no_transaction_nor_setting(
    operator_a, scope_a, vector_path
):
    """Its statements are planned for their values by not being prepared, and a small
    scope's search needs no setting: so no BEGIN, COMMIT or set_config round trip."""
    for n in range(30):
        remember(scope_a, f"note {n} about the garden")
    remember(scope_a, ANSWER, vector=embed("garden"))
    with CaptureQueriesContext(connection) as queries:
        hits = recall(operator_a, scope_a, "garden", top_k=20)
    statements = [query["sql"] for query in queries.captured_queries]
    # (The access-recording task, eager in tests, runs after the hits are loaded.)
    loaded = next(n for n, sql in enumerate(statements) if '"memory_memoryitem"."content"' in sql)
    recall_statements = statements[: loaded + 1]
    assert not any(
        sql in ("BEGIN", "COMMIT") or "set_config" in sql for sql in recall_statements
    ), recall_statements
    # Admin group, scope (with pgvector, and its search shape), then with pgvector the
    # fused statement, the lexical candidates found inside it, or the lexical candidates
    # and the fallback's embeddings and nearest rows; the hits in full.
    assert len(recall_statements) == (4 if vector_path == "pgvector" else 6), recall_statements
    assert len(hits) == 20 and hits[0].item.text == ANSWER


def test_the_lexical_candidates_get_their_cosine_from_the_vector_search(
    operator_a, scope_a, vector_path
):
    nearest = remember(scope_a, ANSWER, vector=embed(QUESTION))
    lexical = remember(scope_a, "Alice bought a red bicycle")
    unembedded = MemoryItemFactory(scope=scope_a, text="Alice again", embedding=None)
    matches = recall_vectors.nearest_items(
        scope=scope_a,
        now=nearest.created_at,
        query_embedding=embed(QUESTION),
        embedding_model=MODEL,
        limit=1,
        also=[lexical.pk, unembedded.pk],
    )
    assert [item.pk for item, _ in matches.nearest] == [nearest.pk]
    expected = cosine_similarity(embed(QUESTION), embed("Alice bought a red bicycle"))
    assert matches.cosines[lexical.pk] == pytest.approx(expected, abs=1e-5)
    assert matches.cosines[nearest.pk] == pytest.approx(1.0, abs=1e-5)
    assert unembedded.pk not in matches.cosines


@pytest.mark.django_db(transaction=True)
def test_a_large_scope_gets_an_index_of_its_own_and_recall_walks_it(
    postgres_only, operator_a, scope_a, tenant_a
):
    """A scope that is a small share of a big table is walked on its own HNSW graph: the
    table-wide one would visit ~20 other scopes' entries for each of its own."""
    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    small_scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_small")
    for n in range(12):
        remember(scope_a, f"The user mentioned topic {n}")
    remember(small_scope, "The user mentioned a small topic")
    address = remember(scope_a, ANSWER, vector=embed(QUESTION))
    created = index_large_scopes(min_rows=10)
    try:
        assert created == [f"{SCOPE_INDEX_PREFIX}{scope_a.pk}"]
        assert index_large_scopes(min_rows=10) == []  # once
        with connection.cursor() as cursor:
            # Walked whatever its size, so never "small": its vectors are not counted.
            assert search_shape(cursor, scope=scope_a, model=MODEL, dims=384) == (True, False)
        walk, plan = _plan_of_vector_statement(scope_a, limit=10)
        assert walk
        assert created[0] in plan and "Sort" not in plan, plan
        # Fused with the lexical candidates, the search still walks (only the fused
        # list, at most VECTOR_LIMIT + CANDIDATE_LIMIT rows, is sorted).
        _, plan = _plan_of_vector_statement(scope_a, limit=10, fused_with=[address.pk])
        assert created[0] in plan, plan
        # So it does with the lexical search inside the statement.
        _, plan = _plan_of_vector_statement(scope_a, limit=10, lexical_query="topic")
        assert created[0] in plan, plan
        hits = recall(operator_a, scope_a, QUESTION, top_k=3)
        assert hits[0].item.pk == address.pk and hits[0].similarity_source == "embedding"
    finally:
        with connection.cursor() as cursor:
            for name in created:
                cursor.execute(f"DROP INDEX IF EXISTS {name}")


@pytest.mark.django_db(transaction=True)
def test_the_nightly_job_indexes_scopes_that_have_grown_large_and_records_its_run(
    postgres_only, scope_a, monkeypatch
):
    if not vector_search_available():
        pytest.skip("the pgvector extension is not installed on this database server")
    monkeypatch.setattr(vectors_module, "SCOPE_INDEX_MIN_ROWS", 5)
    for n in range(6):
        remember(scope_a, f"The user mentioned topic {n}")
    try:
        assert index_large_scopes_task(trigger=JobTrigger.SCHEDULED) == {"indexes_created": 1}
        assert index_large_scopes_task() == {"indexes_created": 0}  # idempotent
        runs = JobRun.objects.filter(job="vector_index").order_by("started_at")
        assert [(run.trigger, run.outcome) for run in runs] == [
            (JobTrigger.SCHEDULED, JobOutcome.SUCCEEDED),
            (JobTrigger.MANUAL, JobOutcome.SUCCEEDED),
        ]
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {SCOPE_INDEX_PREFIX}{scope_a.pk:d}")


def test_hybrid_recall_runs_a_fixed_number_of_queries(operator_a, scope_a, vector_path):
    for n in range(30):
        remember(scope_a, f"note {n} about the garden")
    remember(scope_a, ANSWER, vector=embed("garden"))
    with CaptureQueriesContext(connection) as queries:
        hits = recall(operator_a, scope_a, "garden", top_k=20)
        [hit.item.scope.key for hit in hits]  # scope and tenant come preloaded
    statements = [query["sql"] for query in queries.captured_queries]
    # Candidates are never loaded as model instances one by one: one statement per step.
    # Admin-group check, scope through the grants (with pgvector, in the same statement,
    # the scope's search shape: walk or exact; a small scope needs no settings), then
    # the search fused with the lexical candidates, found inside it, or the lexical
    # candidates, the fallback's embeddings and nearest rows; the hits in full. Never a
    # statement per candidate.
    searches = [sql for sql in statements if not sql.startswith(("SAVEPOINT", "RELEASE"))]
    assert len(searches) == (4 if vector_path == "pgvector" else 6), statements
    assert len(hits) == 20 and hits[0].item.text == ANSWER
