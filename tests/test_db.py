"""insert_rows: new rows as Model.save() would store them, related rows in one statement."""

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.memory.models import MemoryItem, MemoryVersion
from apps.memory.services import version_of
from apps.memory.vectors import to_float32_bytes
from memory_console.db import Parameter, PrecompiledQuery, insert_rows, planned_for_each_call
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db


def unsaved_item(**overrides) -> MemoryItem:
    """Every kind of column the item has: JSON, binary, UUID key, foreign keys, dates."""
    scope = ScopeFactory()
    fields = {
        "tenant": scope.tenant,
        "scope": scope,
        "memory_type": "semantic",
        "content": {"text": "Prefers 靠窗 seats", "nested": {"n": [1, 2.5, None, True]}},
        "text": "Prefers 靠窗 seats",
        "content_hash": "ab" * 32,
        "created_by": UserFactory(),
        "embedding": b"\x00\x01\xfe\xff",
        "last_access_at": datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
    }
    return MemoryItem(**{**fields, **overrides})


def stored(model, pk) -> dict:
    return model.objects.filter(pk=pk).values().get()


def test_a_row_is_stored_as_model_save_stores_it():
    by_insert, by_save = unsaved_item(), unsaved_item()
    insert_rows(by_insert)
    by_save.save(force_insert=True)
    mine, theirs = stored(MemoryItem, by_insert.pk), stored(MemoryItem, by_save.pk)
    differ = {"id", "tenant_id", "scope_id", "created_by_id", "created_at", "updated_at"}
    assert {k: v for k, v in mine.items() if k not in differ} == {
        k: v for k, v in theirs.items() if k not in differ
    }
    assert bytes(mine["embedding"]) == b"\x00\x01\xfe\xff"
    # auto_now fields are filled on the instance as save() fills them.
    assert mine["created_at"] == by_insert.created_at and by_insert.updated_at is not None


def test_an_item_and_its_first_version_go_in_one_statement_on_postgresql(
    django_assert_num_queries,
):
    item = unsaved_item()
    version = version_of(item=item, change="memory.created", actor=None)
    statements = 1 if connection.vendor == "postgresql" else 2
    with django_assert_num_queries(statements):
        insert_rows(item, version)
    assert MemoryVersion.objects.get(item=item).content == item.content


def test_the_last_rows_generated_key_is_read_back():
    item = unsaved_item()
    version = version_of(item=item, change="memory.created", actor=None)
    insert_rows(item, version)
    assert version.pk == MemoryVersion.objects.get(item=item).pk


def test_many_rows_of_a_model_are_stored_as_model_save_stores_them(django_assert_num_queries):
    variants = [
        {},
        {"embedding": None, "created_by": None, "content": {"text": "x"}, "text": "x"},
        {"content": {"list": [None, "靠窗"], "n": 1.5}, "metadata": {"k": [1]}},
    ]
    by_insert = [unsaved_item(**variant) for variant in variants]
    by_save = [unsaved_item(**variant) for variant in variants]
    with django_assert_num_queries(1):
        insert_rows(*by_insert)
    for mine, theirs in zip(by_insert, by_save, strict=True):
        theirs.save(force_insert=True)
        differ = {"id", "tenant_id", "scope_id", "created_by_id", "created_at", "updated_at"}
        stored_mine, stored_theirs = stored(MemoryItem, mine.pk), stored(MemoryItem, theirs.pk)
        assert {k: v for k, v in stored_mine.items() if k not in differ} == {
            k: v for k, v in stored_theirs.items() if k not in differ
        }


def test_the_generated_keys_of_many_rows_come_back_in_order():
    item = unsaved_item()
    versions = []
    for number in (1, 2, 3):
        item.version = number
        versions.append(version_of(item=item, change="memory.created", actor=None))
    insert_rows(item, *versions)
    assert [MemoryVersion.objects.get(pk=v.pk).version for v in versions] == [1, 2, 3]


def test_an_inserted_instance_saves_as_an_update_afterwards():
    item = unsaved_item()
    insert_rows(item)
    item.importance = 0.9
    item.save()
    assert MemoryItem.objects.count() == 1
    assert MemoryItem.objects.get(pk=item.pk).importance == 0.9


def test_a_failing_row_stores_none_of_the_rows():
    item = unsaved_item()
    first = version_of(item=item, change="memory.created", actor=None)
    same_number = version_of(item=item, change="memory.created", actor=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(item, first, same_number)
    assert not MemoryItem.objects.filter(pk=item.pk).exists()


def prepared_statements() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


REPEATED = "SELECT count(*) FROM memory_memoryitem WHERE text LIKE %s"
REPEATS = 5  # past psycopg's prepare threshold (DATABASE_PREPARE_THRESHOLD, 2)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_statements_in_the_block_are_planned_for_their_values_and_only_there(postgres_only):
    def repeat() -> None:
        with connection.cursor() as cursor:
            for _ in range(REPEATS):
                cursor.execute(REPEATED, ["%window%"])

    with planned_for_each_call(), planned_for_each_call():  # blocks may nest
        repeat()
    assert not any("memory_memoryitem" in sql for sql in prepared_statements())
    with CaptureQueriesContext(connection) as queries, planned_for_each_call():
        pass
    assert queries.captured_queries == []  # not a round trip
    repeat()  # outside, a repeated statement is prepared again
    assert any("memory_memoryitem" in sql for sql in prepared_statements())


@pytest.mark.postgres
def test_recall_plans_its_candidate_query_for_the_patterns(postgres_only):
    from apps.memory.recall import query_terms, select_candidates

    item = MemoryItemFactory(text="window seats please")
    terms = query_terms("window")
    for _ in range(REPEATS):
        found = select_candidates(scope=item.scope, terms=terms, now=item.created_at)
    assert [candidate.pk for candidate in found] == [item.pk]
    assert not any("term_hits" in sql for sql in prepared_statements())


def scope_lookup() -> PrecompiledQuery:
    from apps.tenancy.models import Scope, Tenant

    scopes = Scope.objects.filter(
        tenant__slug=Parameter("slug"), external_id=Parameter("external_id")
    )
    return PrecompiledQuery(scopes, models=[(Scope, ""), (Tenant, "tenant__")], extra=["pk"])


def test_a_precompiled_query_loads_what_the_orm_loads():
    scope = ScopeFactory(subject="靠窗")
    found_scope, found_tenant, pk = scope_lookup().first(
        slug=scope.tenant.slug, external_id=scope.external_id
    )
    assert (found_scope, found_tenant, pk) == (scope, scope.tenant, scope.pk)
    assert found_scope.subject == "靠窗" and found_tenant.name == scope.tenant.name
    assert found_scope._state.adding is False  # loaded as from the database
    assert found_tenant.half_life_overrides == scope.tenant.half_life_overrides  # JSON


def test_a_precompiled_query_defers_fields_as_the_orm_defers_them():
    item = MemoryItemFactory(embedding=to_float32_bytes([0.5, 0.25]), embedding_model="stub")
    query = PrecompiledQuery(
        MemoryItem.objects.filter(text=Parameter("text")),
        models=[(MemoryItem, "")],
        deferred=("content_hash", "embedding"),  # one early, one late in the row
    )
    (found,) = query.first(text=item.text)
    expected = MemoryItem.objects.defer("content_hash", "embedding").get(pk=item.pk)
    assert found.get_deferred_fields() == expected.get_deferred_fields()
    assert found.get_deferred_fields() == {"content_hash", "embedding"}
    loaded = {name: getattr(found, name) for name in found.__dict__ if not name.startswith("_")}
    assert loaded == {name: getattr(expected, name) for name in loaded}
    assert found.embedding == item.embedding  # a deferred field still loads on access


def test_a_precompiled_query_binds_each_calls_values():
    first, second = ScopeFactory(), ScopeFactory()
    query = scope_lookup()
    for scope in (first, second, first):
        found = query.first(slug=scope.tenant.slug, external_id=scope.external_id)
        assert found[0] == scope
    assert query.first(slug=first.tenant.slug, external_id=second.external_id) is None


def test_a_precompiled_query_refuses_missing_or_unknown_values():
    query = scope_lookup()
    with pytest.raises(TypeError):
        query.first(slug="tenant-a")
    with pytest.raises(TypeError):
        query.first(slug="tenant-a", external_id="u_1", kind="user")
