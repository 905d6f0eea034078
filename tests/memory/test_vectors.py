"""The vector index holds the rows of the items recall can return, and only those
(apps.memory.vectors.indexed, migration 0015): written for an active, unexpired, embedded
item, deleted by every way an item leaves active, written again when it comes back. An item
without a row cannot be handed out by an HNSW walk for recall's filter to reject."""

from array import array
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.conflicts.services.detection import supersede_items
from apps.conflicts.services.reinstatement import reinstate_item
from apps.memory.generation.embedding import embed
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.recall import recall_memories
from apps.memory.recall.vector_search import index_query, prepare_search
from apps.memory.services import create_item, delete_items, update_item
from apps.memory.services.agent_ops import forget_item, merge_items
from apps.memory.services.embeddings import embed_item
from apps.memory.services.lifecycle import archive_due_items, expire_items, restore_item
from apps.memory.services.scopes import forget_scope
from apps.memory.vectors import SCOPE_INDEX_PREFIX, TABLE, index_large_scopes
from apps.memory.vectors import vector_search_available as pgvector_present
from apps.quarantine.detectors import Assessment
from apps.quarantine.services.blast_radius import contain_blast_radius
from apps.quarantine.services.decisions import flag_item, release_entry
from apps.tenancy.models import ExpiryPolicy
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db
MODEL = "test-trigram-384"
QUESTION = "where does Alice live"


@pytest.fixture(autouse=True)
def pgvector(postgres_only):
    if not pgvector_present():
        pytest.skip("the pgvector extension is not installed on this database server")


@pytest.fixture
def scope_a(tenant_a):
    return ScopeFactory(tenant=tenant_a, kind="user", external_id="u_2048")


def embedded(scope, text="Lives in Paris", **fields):
    """An item with an embedding (written by the factory, which indexes it as writes do)."""
    return MemoryItemFactory(
        scope=scope,
        content={"text": text},
        text=text,
        embedding=array("f", embed(QUESTION)).tobytes(),
        embedding_model=MODEL,
        **fields,
    )


def indexed_vector(item) -> str | None:
    """The item's row in the vector index (its vector's text), None without one."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT embedding::text FROM {TABLE} WHERE item_id = %s", [item.pk])
        row = cursor.fetchone()
    return row[0] if row else None


def past(days: int = 1):
    return timezone.now() - timedelta(days=days)


@pytest.mark.parametrize(
    "fields",
    [
        {"status": MemoryStatus.QUARANTINED},
        {"status": MemoryStatus.PENDING_REVIEW},
        {"status": MemoryStatus.ARCHIVED},
        {"expires_at": past()},
    ],
    ids=["quarantined", "pending_review", "archived", "expired"],
)
def test_an_item_recall_cannot_return_gets_no_row_when_written(scope_a, fields):
    assert indexed_vector(embedded(scope_a, **fields)) is None
    values = {
        "tenant": scope_a.tenant,
        "scope": scope_a,
        "memory_type": "semantic",
        "content": {"text": "Lives in Paris"},
        "source": "test",
        "embedding": array("f", embed(QUESTION)).tobytes(),
        "embedding_model": MODEL,
        **fields,
    }
    assert indexed_vector(create_item(values=values, actor="test")) is None  # one INSERT
    values.update(status=MemoryStatus.ACTIVE, expires_at=timezone.now() + timedelta(days=1))
    assert indexed_vector(create_item(values=values, actor="test")) is not None


def test_embedding_an_item_held_for_review_indexes_nothing(scope_a, monkeypatch):
    from apps.memory.services import embeddings

    held = MemoryItemFactory(scope=scope_a, status=MemoryStatus.QUARANTINED)
    monkeypatch.setattr(embeddings, "provider_model", lambda: MODEL)
    monkeypatch.setattr(embeddings, "embed_texts", lambda texts: [embed(text) for text in texts])
    assert embed_item(item_id=held.pk)
    held.refresh_from_db()
    assert held.embedding and indexed_vector(held) is None


def _supersede(item, actor):
    successor = embedded(item.scope, "Lives in Lyon")
    supersede_items(item_ids=[item.pk], successor=successor, actor=actor)


def _merge(item, actor):
    newer = embedded(item.scope, "Lives in Paris, France")
    merge_items(item_ids=[item.pk, newer.pk], actor=actor)  # the newest survives


def _quarantine_by_blast_radius(item, actor):
    held = MemoryItemFactory(scope=item.scope, source=item.source, status="quarantined")
    entry = flag_item(item=held, assessment=Assessment(score=0.9), actor=actor)
    contain_blast_radius(
        entry_id=entry.pk,
        dimension="source",
        since=past(),
        decision="quarantine",
        actor=actor,
        reason="same writer",
    )


def _archive_by_decay(item, actor):
    MemoryItem.objects.filter(pk=item.pk).update(archive_due_at=past())
    archive_due_items(actor=actor)


def _expire(item, actor, *, policy=ExpiryPolicy.ARCHIVE):
    type(item.tenant).objects.filter(pk=item.tenant_id).update(expiry_policy=policy)
    # It expired after it was written: its row is there until the expiry job ends it.
    MemoryItem.objects.filter(pk=item.pk).update(expires_at=past())
    assert indexed_vector(item) is not None
    expire_items(actor=actor)


WAYS_OUT = {
    "forget": lambda item, actor: forget_item(item_id=item.pk, actor=actor),
    "supersede": _supersede,
    "merge": _merge,
    "quarantine (blast radius)": _quarantine_by_blast_radius,
    "reject": lambda item, actor: update_item(
        item_id=item.pk, changes={"status": "rejected"}, actor=actor, action=Action.MEMORY_UPDATED
    ),
    "archive (decay sweep)": _archive_by_decay,
    "archive (expiry sweep)": _expire,
    "delete (expiry sweep)": lambda item, actor: _expire(item, actor, policy=ExpiryPolicy.DELETE),
    "expiry edited into the past": lambda item, actor: update_item(
        item_id=item.pk, changes={"expires_at": past()}, actor=actor, action=Action.MEMORY_UPDATED
    ),
    "forget the scope": lambda item, actor: forget_scope(scope=item.scope, actor=actor),
    "erasure (delete_items)": lambda item, actor: delete_items(item_ids=[item.pk]),
    "a set-based UPDATE (as a restore's apply)": lambda item, actor: MemoryItem.objects.filter(
        pk=item.pk
    ).update(status=MemoryStatus.ARCHIVED),
    "embedding removed": lambda item, actor: MemoryItem.objects.filter(pk=item.pk).update(
        embedding=None, embedding_model=""
    ),
}


@pytest.mark.parametrize("way_out", list(WAYS_OUT.values()), ids=list(WAYS_OUT))
def test_every_way_out_of_recall_deletes_the_row(operator_a, scope_a, way_out):
    item = embedded(scope_a, source="writer@1")
    bystander = embedded(ScopeFactory(tenant=scope_a.tenant), "Lives in Rome")
    assert indexed_vector(item) is not None
    way_out(item, operator_a)
    assert indexed_vector(item) is None
    assert indexed_vector(bystander) is not None


def _release(item, actor):
    update_item(
        item_id=item.pk,
        changes={"status": "quarantined"},
        actor=actor,
        action=Action.MEMORY_UPDATED,
    )
    entry = flag_item(item=item, assessment=Assessment(score=0.9), actor=actor)
    release_entry(entry_id=entry.pk, actor=actor, reason="reviewed")


WAYS_BACK = {
    "restore from archive": lambda item, actor: (
        forget_item(item_id=item.pk, actor=actor),
        restore_item(item_id=item.pk, actor=actor),
    ),
    "reinstate": lambda item, actor: (
        _supersede(item, actor),
        reinstate_item(item_id=item.pk, actor=actor),
    ),
    "release from quarantine": _release,
    "expiry moved to the future": lambda item, actor: (
        update_item(
            item_id=item.pk,
            changes={"expires_at": past()},
            actor=actor,
            action=Action.MEMORY_UPDATED,
        ),
        update_item(
            item_id=item.pk,
            changes={"expires_at": timezone.now() + timedelta(days=3)},
            actor=actor,
            action=Action.MEMORY_UPDATED,
        ),
    ),
}


@pytest.mark.parametrize("way_back", list(WAYS_BACK.values()), ids=list(WAYS_BACK))
def test_every_way_back_into_recall_writes_the_row_again(operator_a, scope_a, way_back):
    item = embedded(scope_a)
    vector = indexed_vector(item)
    way_back(item, operator_a)
    assert indexed_vector(item) == vector
    hits = recall_memories(
        actor=operator_a,
        tenant=scope_a.tenant,
        scope_key=scope_a.key,
        query=QUESTION,
        query_embedding=embed(QUESTION),
        embedding_model=MODEL,
    )
    assert [hit.item.pk for hit in hits][:1] == [item.pk]
    assert hits[0].similarity_source == "embedding"


def test_an_active_item_saved_again_keeps_its_row_untouched(operator_a, scope_a):
    """The trigger fires only for an item out of recall: an edit or a save of an active
    item neither deletes nor rewrites its row (a rewrite would re-enter it into every HNSW
    index)."""
    item = embedded(scope_a)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ctid FROM {TABLE} WHERE item_id = %s", [item.pk])
        (before,) = cursor.fetchone()
        update_item(
            item_id=item.pk,
            changes={"importance": 0.9},
            actor=operator_a,
            action=Action.MEMORY_UPDATED,
        )
        item.refresh_from_db()
        item.save()
        cursor.execute(f"SELECT ctid FROM {TABLE} WHERE item_id = %s", [item.pk])
        assert cursor.fetchone() == (before,)


@pytest.mark.django_db(transaction=True)  # the scope's index is built CONCURRENTLY
def test_the_walk_hands_out_no_entry_of_an_item_recall_cannot_return(scope_a):
    """On a scope's own HNSW graph, the items nearest the question are out of recall
    (held, archived, expired when written, superseded): the walk hands out only the
    recallable ones, none for the filter to reject (before 0015 it handed them all out)."""
    out = [
        {"status": MemoryStatus.QUARANTINED},
        {"status": MemoryStatus.ARCHIVED},
        {"status": MemoryStatus.SUPERSEDED},
        {"expires_at": past()},
    ]
    for n in range(12):
        embedded(scope_a, f"Lives in Paris {n}", **out[n % len(out)])
    kept = [
        MemoryItemFactory(
            scope=scope_a,
            content={"text": f"The user mentioned topic {n}"},
            embedding=array("f", embed(f"The user mentioned topic {n}")).tobytes(),
            embedding_model=MODEL,
        )
        for n in range(12)
    ]
    created = index_large_scopes(min_rows=10)
    try:
        assert created == [f"{SCOPE_INDEX_PREFIX}{scope_a.pk}"]
        with transaction.atomic(), connection.cursor() as cursor:
            walk = prepare_search(cursor, scope=scope_a, model=MODEL, dims=384, limit=100)
            sql, params = index_query(
                scope=scope_a,
                now=timezone.now(),
                vector=embed(QUESTION),
                model=MODEL,
                memory_types=[],
                categories=[],
                limit=100,
                walk=walk,
            )
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            plan = cursor.fetchone()[0]
            cursor.execute(sql, params)
            found = {row[0] for row in cursor.fetchall()}
            transaction.set_rollback(True)
        assert walk and found == {item.pk for item in kept}
        walked = [node for node in _nodes(plan[0]["Plan"]) if created[0] == node.get("Index Name")]
        assert [node["Actual Rows"] for node in walked] == [len(kept)], plan
    finally:
        with connection.cursor() as cursor:
            for name in created:
                cursor.execute(f"DROP INDEX IF EXISTS {name}")


def _nodes(node):
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)
