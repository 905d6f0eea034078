"""generate_memories: synthetic rows consistent with what the remember path stores."""

import pytest
from django.core.management import call_command

from apps.memory.content import content_hash, render_text
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.memory.scoring import compute_archive_due_at, default_half_life
from apps.tenancy.models import Scope, Tenant

pytestmark = pytest.mark.django_db(transaction=True)


def _generate(count: int, **options) -> None:
    call_command("generate_memories", count=count, seed=7, **options)


def test_generate_memories_writes_the_requested_rows_into_prefixed_tenants():
    _generate(600, tenants=2, scopes=10, tenant_prefix="gen")
    assert MemoryItem.objects.count() == 600
    assert list(Tenant.objects.values_list("slug", flat=True)) == ["gen-000", "gen-001"]
    assert Scope.objects.filter(tenant__slug="gen-000").count() == 10
    assert set(MemoryItem.objects.values_list("tenant__slug", flat=True)) == {"gen-000", "gen-001"}


def test_generated_rows_cover_every_type_and_status_and_are_mostly_active():
    _generate(3000, tenants=1, scopes=20)
    assert set(MemoryItem.objects.values_list("memory_type", flat=True)) == set(MemoryType.values)
    assert set(MemoryItem.objects.values_list("status", flat=True)) == set(MemoryStatus.values)
    active = MemoryItem.objects.filter(status=MemoryStatus.ACTIVE).count()
    assert active > 0.75 * 3000
    texts = MemoryItem.objects.values_list("text", flat=True)
    assert any("用户" in text for text in texts) and any("The user" in text for text in texts)


def test_generated_rows_derive_text_hash_and_archive_time_like_the_remember_path():
    _generate(400, tenants=1, scopes=5)
    for item in MemoryItem.objects.select_related("tenant"):
        assert item.text == render_text(item.content)
        assert item.content_hash == content_hash(item.content)
        assert item.half_life_days == default_half_life(
            memory_type=item.memory_type, category=item.category
        )
        expected_due = compute_archive_due_at(
            importance=item.importance,
            half_life_days=item.half_life_days,
            last_access_at=item.last_access_at,
            threshold=item.tenant.archive_threshold,
        )
        assert abs((item.archive_due_at - expected_due).total_seconds()) < 0.001
        assert 0 <= item.importance <= 1 and 0 <= item.category <= 99


def test_running_twice_adds_rows_and_reuses_tenants_and_scopes():
    _generate(100, tenants=1, scopes=5)
    call_command("generate_memories", count=100, tenants=1, scopes=5, seed=8)
    assert MemoryItem.objects.count() == 200
    assert Scope.objects.count() == 5
    hashes = MemoryItem.objects.values_list("scope_id", "content_hash")
    assert len(set(hashes)) == 200  # no accidental duplicates the dedupe stage would merge


def test_with_versions_writes_each_items_first_version():
    _generate(50, tenants=1, scopes=2, with_versions=True)
    for item in MemoryItem.objects.prefetch_related("versions"):
        assert [v.version for v in item.versions.all()] == [1]


@pytest.mark.usefixtures("postgres_only")
def test_copy_path_restores_every_index_and_foreign_key_it_drops():
    from django.db import connection

    def structures():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'memory_memoryitem' "
                "UNION ALL SELECT conname FROM pg_constraint "
                "WHERE conrelid = 'memory_memoryitem'::regclass"
            )
            return sorted(row[0] for row in cursor.fetchall())

    before = structures()
    _generate(300, tenants=1, scopes=3, index_strategy="rebuild")
    assert structures() == before
    assert MemoryItem.objects.count() == 300


@pytest.fixture
def lexeme_index(postgres_only):
    from apps.memory.recall.lexemes import lexeme_index_available

    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")


def _lexemes_unlike_the_triggers() -> int:
    """Items whose recall lexemes are missing or differ from what the insert trigger computes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM memory_memoryitem WHERE recall_lexemes IS NULL "
            "OR recall_lexemes <> memory_recall_lexemes(scope_id, text)"
        )
        return cursor.fetchone()[0]


def _insert_trigger_enabled() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgname = 'memory_recall_lexemes_on_insert'"
        )
        return cursor.fetchone()[0] == "O"


@pytest.mark.usefixtures("lexeme_index")
@pytest.mark.parametrize("index_strategy", ["rebuild", "keep"])
def test_generated_items_are_found_by_lexical_recall_as_remembered_ones(index_strategy, admin_user):
    from apps.memory.recall import recall_memories
    from tests.factories import MemoryItemFactory, ScopeFactory

    _generate(300, tenants=1, scopes=3, index_strategy=index_strategy)
    assert _lexemes_unlike_the_triggers() == 0
    assert _insert_trigger_enabled()
    generated = MemoryItem.objects.filter(status=MemoryStatus.ACTIVE, expires_at=None)
    latin = generated.filter(text__startswith="The user").first()
    chinese = generated.filter(text__startswith="用户").first()
    for item in (latin, chinese):
        copy_scope = ScopeFactory(tenant=item.tenant)
        copy = MemoryItemFactory(  # the remember path's insert: the trigger computes
            scope=copy_scope, content=item.content, text=item.text, memory_type=item.memory_type
        )
        query = item.text[:12]
        for scope, expected in ((item.scope, item), (copy_scope, copy)):
            hits = recall_memories(
                actor=admin_user, tenant=item.tenant, scope_key=scope.key, query=query, top_k=50
            )
            assert expected.pk in {hit.item.pk for hit in hits}, (index_strategy, query)


@pytest.mark.usefixtures("lexeme_index")
@pytest.mark.parametrize("index_strategy", ["rebuild", "keep"])
def test_rows_whose_lexemes_are_left_to_the_database_get_them(index_strategy, monkeypatch):
    from apps.memory.generation import writers

    monkeypatch.setattr(writers, "stored_lexemes", lambda scope_id, text: None)
    _generate(200, tenants=1, scopes=2, index_strategy=index_strategy)
    assert _lexemes_unlike_the_triggers() == 0
    assert _insert_trigger_enabled()
