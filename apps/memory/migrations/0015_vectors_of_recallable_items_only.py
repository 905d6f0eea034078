"""The vector index (0013) holds only the rows of items recall can return (issue 18): a
trigger deletes an item's row when the item leaves `active` or loses its embedding, and the
rows of items already out of recall go — where the vector table exists (pgvector).

Why: an HNSW walk hands out the nearest entries and recall's filter then rejects those of
non-active and expired items, each after a key lookup of its item; on the 50,000-item bench
scope that was 1,800–2,400 entries to keep 100 (docs/benchmarks.md, hybrid3). Rows follow
the rule of apps.memory.vectors.indexed: written only for an active, unexpired, embedded
item (store_vector, new_vectors_insert, the generator), written again by update_item when
one returns to active.

Why a trigger for the way out: the statuses change by many statements — update_item, and
set-based UPDATEs that bypass it (the decay and expiry sweeps, a scope's archiving, a
restore's apply) — and the trigger follows them all, as 0013's follow the DELETE and the
TRUNCATE. It fires only when the UPDATE sets the status or the embedding (not for the
access recording's) and only for a row then out of the index, so an active item's save
costs nothing more. An item that expires while active keeps its row until the hourly
expiry job archives (this trigger) or deletes (0013's) it.

The backfill is one DELETE. The index entries of the deleted rows stay in the HNSW graphs
until a VACUUM of the table (autovacuum, or by hand after a large migration): until then the
walk meets them and skips each at its heap fetch, without looking up its item.
The reverse drops the trigger and indexes the embedded items that have no row again.
"""

from array import array

from django.db import migrations

TABLE = "memory_itemembedding"
REINDEX_BATCH = 2_000

CREATE_TRIGGER = """
CREATE FUNCTION memory_itemembedding_follow_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM memory_itemembedding WHERE item_id = NEW.id; RETURN NULL; END $$;
CREATE TRIGGER memory_itemembedding_follow_update
    AFTER UPDATE OF status, embedding, embedding_model ON memory_memoryitem FOR EACH ROW
    WHEN (NEW.status <> 'active' OR NEW.embedding IS NULL OR NEW.embedding_model = '')
    EXECUTE FUNCTION memory_itemembedding_follow_update();
"""
# apps.memory.vectors.indexed, set-based, at the migration's time.
DELETE_UNRECALLABLE = """
DELETE FROM memory_itemembedding e USING memory_memoryitem m WHERE m.id = e.item_id
AND (m.status <> 'active' OR m.expires_at <= now() OR m.embedding IS NULL
     OR m.embedding_model = '')
"""
DROP_TRIGGER = (
    "DROP TRIGGER IF EXISTS memory_itemembedding_follow_update ON memory_memoryitem; "
    "DROP FUNCTION IF EXISTS memory_itemembedding_follow_update()"
)


def _vector_table_exists(cursor) -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [TABLE])
    return cursor.fetchone()[0]


def _keep_recallable_only(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        if not _vector_table_exists(cursor):
            return
        cursor.execute(CREATE_TRIGGER)
        cursor.execute(DELETE_UNRECALLABLE)
        cursor.execute(f"ANALYZE {TABLE}")


def _index_every_embedded_item(apps, schema_editor):
    """0013's rule again: every embedded item has a row (batched, by primary key)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        if not _vector_table_exists(cursor):
            return
        cursor.execute(DROP_TRIGGER)
        last = None
        while True:
            after = "AND m.id > %s " if last else ""  # a range the primary key serves
            cursor.execute(
                "SELECT m.id, m.scope_id, m.embedding_model, m.embedding "  # noqa: S608
                "FROM memory_memoryitem m WHERE m.embedding IS NOT NULL "
                f"AND m.embedding_model <> '' {after}"
                f"AND NOT EXISTS (SELECT 1 FROM {TABLE} e WHERE e.item_id = m.id) "
                f"ORDER BY m.id LIMIT {REINDEX_BATCH:d}",
                [last] if last else [],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            values = []
            for item_id, scope_id, model, raw in rows:
                vector = array("f")
                vector.frombytes(bytes(raw))
                literal = "[" + ",".join(map(repr, vector)) + "]"
                values.append((item_id, scope_id, model, len(vector), literal))
            cursor.executemany(
                f"INSERT INTO {TABLE} (item_id, scope_id, model, dims, embedding) "  # noqa: S608
                "VALUES (%s, %s, %s, %s, %s::vector)",
                values,
            )
            last = rows[-1][0]


class Migration(migrations.Migration):
    dependencies = [("memory", "0014_recall_lexeme_index")]

    operations = [migrations.RunPython(_keep_recallable_only, _index_every_embedded_item)]
