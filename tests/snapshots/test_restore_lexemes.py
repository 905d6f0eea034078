"""A restored item's recall lexemes: staged by the judging (in Python, the scope left as a
placeholder), given the target scope's prefix by the apply, they are what the insert
trigger computes for a remembered item, and lexical recall finds the item alike."""

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.memory.models import MemoryItem
from apps.memory.recall import recall_memories
from apps.memory.recall.lexemes import lexeme_index_available
from apps.snapshots.services import restore_snapshot, screening
from tests.snapshots.conftest import PASSPHRASE, package_bytes, write

pytestmark = pytest.mark.django_db

TEXTS = [
    "The user prefers aisle seats on long flights.",
    "用户住在北京朝阳区，周末喜欢喝咖啡。",
    "Weekly report: 周报 goes out on Fridays ・ ゙朝会 Café ÉTÉ",
]
QUERIES = ["aisle seats", "朝阳区", "周末", "weekly report", "周报", "café été"]


@pytest.fixture(autouse=True)
def lexeme_index():
    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")


def _lexemes_unlike_the_triggers(tenant) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM memory_memoryitem WHERE tenant_id = %s AND ("
            "recall_lexemes IS NULL OR recall_lexemes <> memory_recall_lexemes(scope_id, text))",
            [tenant.pk],
        )
        return cursor.fetchone()[0]


def _found(actor, tenant, query: str) -> list[str]:
    hits = recall_memories(actor=actor, tenant=tenant, scope_key="user:u_7", query=query)
    return [hit.item.text for hit in hits]


def _restore(tenant_a, tenant_b) -> None:
    for text in TEXTS:
        write(tenant_a, "user:u_7", {"text": text})
    data = package_bytes(tenant_a)
    result = restore_snapshot(
        stream=io.BytesIO(data), tenant=tenant_b, actor="test", passphrase=PASSPHRASE
    )
    assert result.outcome["inserted"] == len(TEXTS)


@pytest.mark.parametrize("scope_exists", [False, True])
def test_restored_items_are_found_by_lexical_recall_as_remembered_ones(
    tenant_a, tenant_b, admin_user, scope_exists
):
    if scope_exists:  # the apply fills the prefix of a scope it finds, or of one it creates
        write(tenant_b, "user:u_7", {"text": "An unrelated note about gardening."})
    with CaptureQueriesContext(connection) as queries:
        _restore(tenant_a, tenant_b)
    inserts = [q["sql"] for q in queries if q["sql"].startswith("INSERT INTO memory_memoryitem")]
    assert inserts and all("recall_lexemes" in sql for sql in inserts)  # the staged ones
    assert MemoryItem.objects.filter(tenant=tenant_b).count() == len(TEXTS) + scope_exists
    assert _lexemes_unlike_the_triggers(tenant_b) == 0
    for query in QUERIES:
        remembered = _found(admin_user, tenant_a, query)
        assert remembered, query
        assert _found(admin_user, tenant_b, query) == remembered, query


def test_items_whose_lexemes_are_left_to_the_database_get_them_from_the_trigger(
    tenant_a, tenant_b, monkeypatch
):
    monkeypatch.setattr(screening, "stored_lexemes", lambda scope_id, text: None)
    _restore(tenant_a, tenant_b)
    assert _lexemes_unlike_the_triggers(tenant_b) == 0
