"""Recall: scoped candidates, ranking with explained components, recorded accesses."""

import math
from array import array
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.audit.models import AuditEvent
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.recall import (
    MAX_PATTERNS,
    ScopeNotFound,
    cosine_similarity,
    lexical_similarity,
    query_terms,
    recall_memories,
)
from apps.memory.recall.query import cjk_bigram_patterns, sql_patterns
from apps.memory.scoring import compute_archive_due_at, reinforce
from apps.memory.services import record_recall_accesses
from apps.memory.tasks import record_recall_accesses_task
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db


def remember(scope, text, **fields):
    return MemoryItemFactory(scope=scope, content={"text": text}, text=text, **fields)


def embedding(*values: float) -> bytes:
    return array("f", values).tobytes()


@pytest.fixture
def scope_a(tenant_a):
    return ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1024")


def recall(actor, scope, query, **kwargs):
    return recall_memories(
        actor=actor, tenant=scope.tenant, scope_key=scope.key, query=query, **kwargs
    )


def texts(hits):
    return [hit.item.text for hit in hits]


# --- matching ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["朝阳区", "朝阳", "用户住在哪个区？朝阳区吗"])
def test_chinese_query_finds_the_chinese_memory(operator_a, scope_a, query):
    remember(scope_a, "用户住在北京朝阳区")
    remember(scope_a, "用户喜欢喝咖啡")
    remember(scope_a, "The user likes tea")
    hits = recall(operator_a, scope_a, query, top_k=1)
    assert texts(hits) == ["用户住在北京朝阳区"]
    assert hits[0].similarity > 0.5


def test_english_query_ranks_the_matching_memory_first(operator_a, scope_a):
    remember(scope_a, "The user is allergic to peanuts")
    remember(scope_a, "The user prefers window seats on flights")
    remember(scope_a, "Meeting notes: quarterly planning")
    hits = recall(operator_a, scope_a, "What seats does the user prefer on flights?", top_k=3)
    # The other two share no word with the query: no padding unless asked.
    assert texts(hits) == ["The user prefers window seats on flights"]
    padded = recall(operator_a, scope_a, "What seats does the user prefer on flights?", pad=True)
    assert texts(padded)[0] == "The user prefers window seats on flights"
    assert padded[0].similarity > padded[1].similarity
    assert [hit.similarity_source for hit in padded] == ["lexical", "padding", "padding"]


def test_a_long_chinese_query_sharing_one_word_still_finds_the_memory(operator_a, scope_a):
    remember(scope_a, "用户住在北京朝阳区", importance=0.2)
    for n in range(12):  # more important, unrelated: they would fill a plain top-up
        remember(scope_a, f"用户喜欢第{n}种咖啡", importance=0.9)
    hits = recall(operator_a, scope_a, "北京的天气怎么样", top_k=1)
    assert texts(hits) == ["用户住在北京朝阳区"]


def test_queries_of_many_runs_and_words_are_bounded_and_still_match(operator_a, scope_a):
    remember(scope_a, "用户住在北京朝阳区")
    query = "请问，用户，住在，哪里，北京，朝阳区，还是，海淀区？ where does the user live now"
    assert len(sql_patterns(query_terms(query))) <= 4
    assert texts(recall(operator_a, scope_a, query, top_k=1)) == ["用户住在北京朝阳区"]


def test_lexical_similarity_is_term_coverage():
    terms = query_terms("北京的天气")
    assert lexical_similarity(terms, "用户住在北京朝阳区") == pytest.approx(0.25)
    assert lexical_similarity(query_terms("朝阳"), "用户住在北京朝阳区") == 1.0
    assert lexical_similarity(query_terms("Peanuts"), "allergic to PEANUTS") == 1.0


def test_recall_pads_with_important_items_only_when_asked(operator_a, scope_a):
    remember(scope_a, "low", importance=0.1)
    remember(scope_a, "high", importance=0.9)
    assert recall(operator_a, scope_a, "zebra", top_k=1) == []
    hits = recall(operator_a, scope_a, "zebra", top_k=1, pad=True)
    assert texts(hits) == ["high"]
    assert hits[0].similarity == 0.0 and hits[0].similarity_source == "padding"


def test_min_score_drops_weaker_hits(operator_a, scope_a):
    remember(scope_a, "The user prefers green tea", importance=0.9)
    remember(scope_a, "The user once tried tea in Kyoto", importance=0.1)
    hits = recall(operator_a, scope_a, "green tea")
    assert len(hits) == 2
    threshold = (hits[0].score + hits[1].score) / 2
    kept = recall(operator_a, scope_a, "green tea", min_score=threshold)
    assert texts(kept) == ["The user prefers green tea"]
    assert recall(operator_a, scope_a, "green tea", min_score=hits[0].score + 1) == []


def test_memory_type_and_category_filters_apply(operator_a, scope_a):
    remember(scope_a, "coffee order: flat white", memory_type="episodic", category=25)
    remember(scope_a, "coffee preference: oat milk", memory_type="semantic", category=60)
    assert texts(recall(operator_a, scope_a, "coffee", memory_types=["semantic"])) == [
        "coffee preference: oat milk"
    ]
    assert texts(recall(operator_a, scope_a, "coffee", categories=[25])) == [
        "coffee order: flat white"
    ]


# --- what is never returned ---------------------------------------------------------------


@pytest.mark.parametrize(
    "status",
    [
        MemoryStatus.QUARANTINED,
        MemoryStatus.PENDING_REVIEW,
        MemoryStatus.ARCHIVED,
        MemoryStatus.SUPERSEDED,
        MemoryStatus.REJECTED,
    ],
)
def test_items_that_are_not_active_are_never_recalled(operator_a, scope_a, status):
    remember(scope_a, "用户住在北京朝阳区 Beijing", status=status)
    assert recall(operator_a, scope_a, "朝阳区") == []
    assert recall(operator_a, scope_a, "Beijing") == []
    assert recall(operator_a, scope_a, "zebra") == []  # not even as a top-up


def test_expired_items_are_never_recalled(operator_a, scope_a):
    remember(scope_a, "session goal: book a flight", expires_at=timezone.now() - timedelta(1))
    live = remember(scope_a, "session goal: book a hotel", expires_at=timezone.now() + timedelta(1))
    assert [hit.item.pk for hit in recall(operator_a, scope_a, "session goal")] == [live.pk]


def test_recall_never_crosses_scopes(operator_a, scope_a, tenant_a):
    other = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_2048")
    remember(other, "用户住在北京朝阳区")
    assert recall(operator_a, scope_a, "朝阳区") == []


def test_scope_outside_the_callers_grant_is_not_found(operator_b, scope_a):
    remember(scope_a, "用户住在北京朝阳区")
    with pytest.raises(ScopeNotFound):
        recall(operator_b, scope_a, "朝阳区")


def test_a_scope_never_written_recalls_nothing_and_others_are_not_found(
    operator_a, tenant_a, tenant_b
):
    assert recall_memories(actor=operator_a, tenant=tenant_a, scope_key="user:new", query="x") == []
    with pytest.raises(ScopeNotFound):
        recall_memories(actor=operator_a, tenant="tenant-a", scope_key="malformed", query="x")
    with pytest.raises(ScopeNotFound):  # a tenant the actor may not read: never "empty"
        recall_memories(actor=operator_a, tenant=tenant_b, scope_key="user:new", query="x")
    with pytest.raises(ScopeNotFound):
        recall_memories(actor=operator_a, tenant="no-such-tenant", scope_key="user:x", query="x")
    hidden = ScopeFactory(tenant=tenant_b, kind="user", external_id="u_9")
    with pytest.raises(ScopeNotFound):  # exists, not readable
        recall_memories(actor=operator_a, tenant=tenant_b, scope_key=hidden.key, query="x")


# --- ranking -------------------------------------------------------------------------------


def test_same_embedding_model_ranks_by_cosine(operator_a, scope_a):
    near = remember(scope_a, "likes jazz", embedding=embedding(0.9, 0.1), embedding_model="m1")
    far = remember(scope_a, "likes rock", embedding=embedding(0.1, 0.9), embedding_model="m1")
    hits = recall(operator_a, scope_a, "music", query_embedding=[1.0, 0.0], embedding_model="m1")
    assert [hit.item.pk for hit in hits] == [near.pk, far.pk]
    assert all(hit.similarity_source == "embedding" for hit in hits)
    assert hits[0].similarity == pytest.approx(0.9 / math.hypot(0.9, 0.1), rel=1e-5)


def test_a_different_embedding_model_falls_back_to_lexical(operator_a, scope_a):
    remember(scope_a, "likes jazz", embedding=embedding(0.0, 1.0), embedding_model="other")
    hits = recall(operator_a, scope_a, "jazz", query_embedding=[1.0, 0.0], embedding_model="m1")
    assert hits[0].similarity_source == "lexical"
    assert hits[0].similarity == 1.0


def test_cosine_similarity_matches_the_textbook_formula():
    left, right = [0.3, -1.2, 2.5], [1.0, 0.5, -0.25]
    dot = sum(a * b for a, b in zip(left, right, strict=True))
    expected = dot / (math.hypot(*left) * math.hypot(*right))
    assert cosine_similarity(left, right) == pytest.approx(expected, abs=1e-12)
    assert cosine_similarity([1.0], [1.0, 2.0]) is None


def test_components_sum_to_the_score_with_the_tenants_weights(operator_a, scope_a, tenant_a):
    tenant_a.recall_alpha, tenant_a.recall_beta, tenant_a.recall_gamma = 0.6, 0.3, 0.1
    tenant_a.save()
    remember(scope_a, "用户住在北京朝阳区", last_access_at=timezone.now() - timedelta(days=10))
    remember(scope_a, "用户喜欢北京烤鸭", importance=0.9)
    for hit in recall(operator_a, scope_a, "北京朝阳"):
        parts = hit.components
        assert set(parts) == {"similarity", "recency", "importance"}
        expected = 0.6 * parts["similarity"] + 0.3 * parts["recency"] + 0.1 * parts["importance"]
        assert hit.score == pytest.approx(expected)
        assert 0.0 <= parts["recency"] <= 1.0 and 0.0 <= parts["importance"] <= 1.0


def test_recall_runs_a_bounded_number_of_queries(
    operator_a, scope_a, django_assert_max_num_queries
):
    for n in range(30):
        remember(scope_a, f"note {n} about the garden")
    # Admin-group check, scope through the grants, ranked candidates, the hits in full;
    # on PostgreSQL also the setting that plans the candidate query for its patterns.
    with django_assert_max_num_queries(5 if connection.vendor == "postgresql" else 4):
        hits = recall(operator_a, scope_a, "garden", top_k=20)
        [hit.item.scope.key for hit in hits]  # scope/tenant come preloaded
    assert len(hits) == 20


# --- recording accesses -------------------------------------------------------------------


def test_recall_records_accesses_after_commit_in_one_task(
    operator_a, scope_a, django_capture_on_commit_callbacks
):
    before = timezone.now() - timedelta(days=3)
    item = remember(scope_a, "用户住在北京朝阳区", importance=0.5, last_access_at=before)
    old_due = item.archive_due_at
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        recall(operator_a, scope_a, "朝阳区")
    assert len(callbacks) == 1
    item.refresh_from_db()
    assert item.access_count == 1
    assert item.last_access_at > before
    assert item.importance == pytest.approx(reinforce(0.5))
    assert item.archive_due_at != old_due
    event = AuditEvent.objects.filter(action="memory.recalled").get()
    assert event.metadata == {"hits": 1, "updated": 1}
    assert event.actor_id == operator_a.pk


def test_the_access_task_applies_one_update_for_all_hits(scope_a, tenant_a):
    items = [remember(scope_a, f"fact {n}") for n in range(5)]
    with CaptureQueriesContext(connection) as queries:
        updated = record_recall_accesses_task.run(
            [str(item.pk) for item in items],
            timezone.now().isoformat(),
            tenant_id=tenant_a.pk,
            scope_id=scope_a.pk,
        )
    assert updated == 5
    statements = [query["sql"] for query in queries.captured_queries]
    item_updates = [sql for sql in statements if sql.startswith('UPDATE "memory_memoryitem"')]
    assert len(item_updates) == 1
    assert len(queries.captured_queries) <= 8  # threshold, UPDATE, audit append, savepoints


@pytest.mark.parametrize(
    ("importance", "half_life", "threshold"),
    [(0.5, 30.0, 0.1), (0.05, 7.0, 0.1), (0.95, 120.0, 0.2), (0.0, 1.0, 0.1), (0.3, 14.0, 0.5)],
)
def test_sql_reinforcement_agrees_with_the_python_scoring_formulas(
    scope_a, tenant_a, importance, half_life, threshold
):
    tenant_a.archive_threshold = threshold
    tenant_a.save()
    item = remember(scope_a, "fact", importance=importance, half_life_days=half_life)
    accessed_at = timezone.now().replace(microsecond=0)
    record_recall_accesses(
        item_ids=[str(item.pk)],
        accessed_at=accessed_at,
        tenant_id=tenant_a.pk,
        scope_id=scope_a.pk,
        actor="test",
    )
    item.refresh_from_db()
    expected_importance = reinforce(importance)
    expected_due = compute_archive_due_at(
        importance=expected_importance,
        half_life_days=half_life,
        last_access_at=accessed_at,
        threshold=threshold,
    )
    assert item.importance == pytest.approx(expected_importance, abs=1e-12)
    assert item.last_access_at == accessed_at
    assert abs((item.archive_due_at - expected_due).total_seconds()) < 1.0


def test_only_active_items_are_reinforced(scope_a, tenant_a):
    archived = remember(scope_a, "old", status=MemoryStatus.ARCHIVED, importance=0.2)
    record_recall_accesses(
        item_ids=[str(archived.pk)],
        accessed_at=timezone.now(),
        tenant_id=tenant_a.pk,
        scope_id=scope_a.pk,
        actor="test",
    )
    assert MemoryItem.objects.get(pk=archived.pk).importance == 0.2


_MIXED = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=list("用户住在北京朝阳区的天气咖啡 abcXYZ0，。？%_\\"), max_size=60),
)


@given(_MIXED, _MIXED)
@settings(max_examples=200, deadline=None)
def test_any_query_yields_bounded_patterns_and_a_similarity_in_0_1(query, text):
    terms = query_terms(query)
    assert len(sql_patterns(terms)) <= MAX_PATTERNS
    assert len(cjk_bigram_patterns(terms)) <= MAX_PATTERNS
    assert 0.0 <= lexical_similarity(terms, text) <= 1.0
