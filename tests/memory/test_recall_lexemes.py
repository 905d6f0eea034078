"""Recall's lexeme index (RUM, where the extension exists): the scope's lexical candidates
found and ranked by the index, with the same guarantees as the trigram path it replaces."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.memory.models import MemoryStatus
from apps.memory.recall import CANDIDATE_LIMIT, SCAN_LIMIT, recall_memories
from apps.memory.recall import candidates as candidates_module
from apps.memory.recall.candidates import lexical_statement
from apps.memory.recall.lexemes import (
    LEXEME_INDEX,
    lexeme_index_available,
    lexeme_query,
    scope_lexeme,
)
from apps.memory.recall.query import query_terms
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def scope_a(tenant_a):
    return ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1024")


@pytest.fixture(params=["rum", "trigram"])
def lexical_path(request, monkeypatch):
    """Each test runs on the lexeme index (where the extension exists) and on the fallback."""
    if request.param == "rum" and not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")
    if request.param == "trigram":
        monkeypatch.setattr(candidates_module, "lexeme_index_available", lambda: False)
    return request.param


def remember(scope, text, **fields):
    return MemoryItemFactory(scope=scope, content={"text": text}, text=text, **fields)


def recall(actor, scope, query, **kwargs):
    return recall_memories(
        actor=actor, tenant=scope.tenant, scope_key=scope.key, query=query, **kwargs
    )


def texts(hits):
    return [hit.item.text for hit in hits]


@pytest.mark.parametrize(
    "query", ["朝阳区", "朝阳", "朝", "用户住在哪个区？朝阳区吗", "北京的天气怎么样"]
)
def test_chinese_queries_find_the_chinese_memory(operator_a, scope_a, lexical_path, query):
    remember(scope_a, "用户住在北京朝阳区")
    remember(scope_a, "用户喜欢喝咖啡")
    remember(scope_a, "The user likes tea")
    assert texts(recall(operator_a, scope_a, query, top_k=1)) == ["用户住在北京朝阳区"]


def test_english_stems_find_their_inflections_and_rank_the_best_first(
    operator_a, scope_a, lexical_path
):
    remember(scope_a, "The user is allergic to peanuts")
    remember(scope_a, "The user PREFERRED window seats on flights")
    remember(scope_a, "The user prefers aisle seats")
    hits = recall(operator_a, scope_a, "What seats does the user prefer on flights?", top_k=3)
    assert texts(hits) == [
        "The user PREFERRED window seats on flights",
        "The user prefers aisle seats",
    ]


def test_only_the_scopes_active_unexpired_items_of_the_asked_kind_are_found(
    operator_a, scope_a, tenant_a, lexical_path
):
    other = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_2048")
    remember(other, "coffee: espresso")
    for status in (MemoryStatus.QUARANTINED, MemoryStatus.ARCHIVED, MemoryStatus.SUPERSEDED):
        remember(scope_a, f"coffee: {status}", status=status)
    remember(scope_a, "coffee: expired", expires_at=timezone.now() - timedelta(1))
    remember(scope_a, "coffee order: flat white", memory_type="episodic", category=25)
    kept = remember(scope_a, "coffee preference: oat milk", memory_type="semantic", category=60)
    assert len(recall(operator_a, scope_a, "coffee")) == 2
    hits = recall(operator_a, scope_a, "coffee", memory_types=["semantic"])
    assert [hit.item.pk for hit in hits] == [kept.pk]
    assert texts(recall(operator_a, scope_a, "coffee", categories=[25])) == [
        "coffee order: flat white"
    ]


def test_an_item_leaving_the_active_status_leaves_the_index(operator_a, scope_a, lexical_path):
    item = remember(scope_a, "The user lives in Lyon")
    assert texts(recall(operator_a, scope_a, "Lyon")) == ["The user lives in Lyon"]
    item.status = MemoryStatus.ARCHIVED
    item.save(update_fields=["status"])
    assert recall(operator_a, scope_a, "Lyon") == []


def test_an_edited_text_is_found_by_its_new_words_only(operator_a, scope_a, lexical_path):
    item = remember(scope_a, "The user lives in Lyon")
    item.text = "The user lives in Nantes"
    item.save()
    assert recall(operator_a, scope_a, "Lyon") == []
    assert texts(recall(operator_a, scope_a, "Nantes")) == ["The user lives in Nantes"]


def test_quotes_and_backslashes_in_a_query_are_only_text(operator_a, scope_a, lexical_path):
    remember(scope_a, "O'Brien's order: tea")
    assert texts(recall(operator_a, scope_a, "o'brien \\ ' & | ! :*")) == ["O'Brien's order: tea"]


def test_the_item_matching_every_term_is_kept_however_many_match_one(operator_a, scope_a):
    """The trigram path reads an arbitrary SCAN_LIMIT of the matches; the index ranks all
    of the scope's matches, so the one matching every term is among the candidates."""
    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")
    MemoryItemFactory.create_batch(
        SCAN_LIMIT + 50, scope=scope_a, content={"text": "weekly"}, text="weekly", importance=0.5
    )
    best = remember(scope_a, "weekly reports before the weekend", importance=0.5)
    hits = recall(operator_a, scope_a, "weekly reports before the weekend", top_k=1)
    assert [hit.item.pk for hit in hits] == [best.pk]


def test_the_statement_is_served_by_the_index(scope_a):
    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")
    remember(scope_a, "green tea")
    statement = lexical_statement(scope=scope_a, terms=query_terms("green tea"), now=timezone.now())
    assert statement is not None
    sql, params = statement
    assert f"LIMIT {CANDIDATE_LIMIT:d}" in sql
    with transaction.atomic(), connection.cursor() as cursor:
        # A table of a few rows is read and sorted whole by choice: forbid that to see the
        # plan of a large scope (bench/bench_recall.py prints it).
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert LEXEME_INDEX in plan


def test_the_lexemes_are_the_latin_words_then_the_cjk_grams_of_the_items_scope(scope_a):
    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")
    item = remember(scope_a, "Ｘ200 Café, 朝阳区! O'Brien 3×4 你好")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT lexeme, positions FROM memory_memoryitem, unnest(recall_lexemes) WHERE id = %s",
            [item.pk],
        )
        lexemes = dict(cursor.fetchall())
    # Latin words in text order, then every run's one-, two- and three-character grams.
    words = ["x200", "café", "o", "brien", "3", "4", "朝", "阳", "区", "你", "好"]
    words += ["朝阳", "阳区", "你好", "朝阳区"]
    assert lexemes == {scope_lexeme(scope_a.pk, word): [n] for n, word in enumerate(words, 1)}


def test_the_query_is_any_pattern_among_the_scopes_lexemes():
    patterns = [("朝阳区", True), ("prefer", False), ("o'b", False)]
    assert lexeme_query(7, patterns) == "'s7s朝阳区' | 's7sprefer':* | 's7so''b':*"
