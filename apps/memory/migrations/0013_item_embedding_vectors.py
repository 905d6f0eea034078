"""The vector index of recall (issue 18): `memory_itemembedding`, one row per embedded item,
searched by an HNSW index — created only where the pgvector extension is available.

Why outside Django's model state: a VectorField in a model would make every database
need the extension (SQLite dev runs, a PostgreSQL without pgvector). The table is a
derived index of MemoryItem.embedding (float32 bytes, the source of truth, on every
database), kept by apps.memory.vectors; `makemigrations --check` never sees it.

Where the extension is missing this migration does nothing, and recall searches the
float32 bytes exactly instead (apps.memory.recall.vectors). Once pgvector is installed
later, `manage.py migrate memory 0012 && manage.py migrate memory` creates and fills the
table. The reverse drops the table (the extension stays: other databases objects may
use it).
"""

from array import array

from django.db import DatabaseError, migrations, transaction

DIMENSIONS = 384  # the dimension the HNSW index serves (apps.memory.vectors.INDEXED_DIMENSIONS)
BACKFILL_BATCH = 2_000

CREATE_TABLE = """
CREATE TABLE memory_itemembedding (
    item_id uuid PRIMARY KEY,
    scope_id bigint NOT NULL,
    model varchar(100) NOT NULL,
    dims smallint NOT NULL,
    embedding vector NOT NULL
);
-- Rows follow their item by triggers, not a foreign key: Django's flush (and tests'
-- teardown) TRUNCATEs the items table without CASCADE, which a foreign key would refuse.
CREATE FUNCTION memory_itemembedding_follow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM memory_itemembedding WHERE item_id = OLD.id; RETURN NULL; END $$;
CREATE TRIGGER memory_itemembedding_follow_delete AFTER DELETE ON memory_memoryitem
    FOR EACH ROW EXECUTE FUNCTION memory_itemembedding_follow_delete();
CREATE FUNCTION memory_itemembedding_follow_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN TRUNCATE memory_itemembedding; RETURN NULL; END $$;
CREATE TRIGGER memory_itemembedding_follow_truncate AFTER TRUNCATE ON memory_memoryitem
    FOR EACH STATEMENT EXECUTE FUNCTION memory_itemembedding_follow_truncate();
CREATE INDEX memory_itemembedding_scope ON memory_itemembedding (scope_id, model, dims);
"""
CREATE_HNSW_INDEX = (
    "CREATE INDEX memory_itemembedding_hnsw ON memory_itemembedding USING hnsw "
    f"((embedding::vector({DIMENSIONS:d})) vector_cosine_ops) WHERE dims = {DIMENSIONS:d}"
)


def _create_vector_table(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
        if cursor.fetchone() is None:
            return
        try:
            with transaction.atomic(using=connection.alias):
                cursor.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except DatabaseError:  # installed but not ours to create (no privilege): fall back
            return
        cursor.execute(CREATE_TABLE)
        cursor.execute(CREATE_HNSW_INDEX)
        _backfill(cursor)


def _backfill(cursor) -> None:
    """Index the items embedded before the table existed (batched, by primary key)."""
    last = None
    while True:
        after = "AND id > %s " if last else ""
        cursor.execute(
            "SELECT id, scope_id, embedding_model, embedding FROM memory_memoryitem "  # noqa: S608
            f"WHERE embedding IS NOT NULL AND embedding_model <> '' {after}"
            f"ORDER BY id LIMIT {BACKFILL_BATCH:d}",
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
            "INSERT INTO memory_itemembedding (item_id, scope_id, model, dims, embedding) "
            "VALUES (%s, %s, %s, %s, %s::vector)",
            values,
        )
        last = rows[-1][0]


def _drop_vector_table(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS memory_itemembedding_follow_delete ON memory_memoryitem; "
            "DROP TRIGGER IF EXISTS memory_itemembedding_follow_truncate ON memory_memoryitem; "
            "DROP FUNCTION IF EXISTS memory_itemembedding_follow_delete(); "
            "DROP FUNCTION IF EXISTS memory_itemembedding_follow_truncate(); "
            "DROP TABLE IF EXISTS memory_itemembedding"
        )


class Migration(migrations.Migration):
    dependencies = [("memory", "0012_memoryitem_created_at_settable")]

    operations = [migrations.RunPython(_create_vector_table, _drop_vector_table)]
