"""Recall's lexeme index (apps.memory.recall.lexemes): each item's scope-qualified lexemes in
the column `recall_lexemes`, kept by triggers, and a RUM index of the active items' —
created only where the `rum` extension is available (Debian: postgresql-15-rum; .ci/run
installs it).

Why outside Django's model state, as the vector table (0013): a tsvector column that needs
an extension's index would tie every database to it. The triggers fill it whatever writes
(the ORM, COPY, a restore); the model never reads it.

Where the extension is missing this migration does nothing and recall keeps the trigram
path (migration 0002). Once it is installed later,
`manage.py migrate memory 0013 && manage.py migrate memory` adds the column and the index
(minutes on a large table: filling the column rewrites every row, and writes wait). The
reverse drops them (the extension stays: other objects may use it).

`memory_recall_lexemes(scope, text)`: the NFKC-normalised, lower-cased text's Latin words
(apps.memory.recall.query's letters and digits; anything else separates) and the one-,
two- and three-character grams of its CJK runs, with their positions, each lexeme
prefixed by the scope (`2:weekly`), so a scope's entries are the only ones a query reads.
"""

from django.db import DatabaseError, migrations, transaction

CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
LATIN = r"0-9a-z\u00c0-\u024f"

# Only the module's own character classes are interpolated.
CREATE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION memory_recall_lexemes(scope bigint, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
SELECT coalesce(string_agg(
    quote_literal(scope::text || ':' || word.lexeme) || ':'
        || array_to_string(word.positions, ','), ' '), '')::tsvector
FROM (SELECT lower(normalize(body, NFKC)) AS folded) AS normalised,
    LATERAL unnest(to_tsvector('simple'::regconfig,
        regexp_replace(folded, '[^{LATIN}]+', ' ', 'g') || ' ' || coalesce((
            SELECT string_agg(substr(run, start, size), ' ')
            FROM (SELECT found[1] AS run FROM regexp_matches(folded, '[{CJK}]+', 'g') AS found)
                AS runs,
                generate_series(1, 3) AS size,
                generate_series(1, length(run) - size + 1) AS start
        ), ''))) AS word
$fn$
"""  # noqa: S608
# A column kept by triggers rather than a generated one: PostgreSQL 15 recomputes a
# generated column on every UPDATE of the row (a recall's access recording, feedback, decay),
# these only when the text or the scope changes. COPY fires them too.
ADD_COLUMN = """
ALTER TABLE memory_memoryitem ADD COLUMN IF NOT EXISTS recall_lexemes tsvector;
CREATE OR REPLACE FUNCTION memory_recall_lexemes_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.recall_lexemes := memory_recall_lexemes(NEW.scope_id, NEW.text); RETURN NEW; END $$;
CREATE OR REPLACE TRIGGER memory_recall_lexemes_on_insert BEFORE INSERT ON memory_memoryitem
    FOR EACH ROW EXECUTE FUNCTION memory_recall_lexemes_follow();
CREATE OR REPLACE TRIGGER memory_recall_lexemes_on_update BEFORE UPDATE OF text, scope_id
    ON memory_memoryitem FOR EACH ROW
    WHEN (OLD.text IS DISTINCT FROM NEW.text OR OLD.scope_id IS DISTINCT FROM NEW.scope_id)
    EXECUTE FUNCTION memory_recall_lexemes_follow();
"""
BACKFILL = "UPDATE memory_memoryitem SET recall_lexemes = memory_recall_lexemes(scope_id, text)"
CREATE_INDEX = (
    "CREATE INDEX IF NOT EXISTS memory_memoryitem_recall_lexemes ON memory_memoryitem "
    "USING rum (recall_lexemes rum_tsvector_ops) WHERE status = 'active'"
)
INDEX_BUILD_MEMORY = "512MB"


def _create_lexeme_index(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'rum'")
        if cursor.fetchone() is None:
            return
        try:
            with transaction.atomic(using=connection.alias):
                cursor.execute("CREATE EXTENSION IF NOT EXISTS rum")
        except DatabaseError:  # installed but not ours to create (no privilege): fall back
            return
        cursor.execute(CREATE_FUNCTION)
        cursor.execute(ADD_COLUMN)
        cursor.execute(BACKFILL)
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [INDEX_BUILD_MEMORY])
        cursor.execute(CREATE_INDEX)


def _drop_lexeme_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP INDEX IF EXISTS memory_memoryitem_recall_lexemes; "
            "DROP TRIGGER IF EXISTS memory_recall_lexemes_on_insert ON memory_memoryitem; "
            "DROP TRIGGER IF EXISTS memory_recall_lexemes_on_update ON memory_memoryitem; "
            "ALTER TABLE memory_memoryitem DROP COLUMN IF EXISTS recall_lexemes; "
            "DROP FUNCTION IF EXISTS memory_recall_lexemes_follow(); "
            "DROP FUNCTION IF EXISTS memory_recall_lexemes(bigint, text)"
        )


class Migration(migrations.Migration):
    dependencies = [("memory", "0013_item_embedding_vectors")]

    operations = [migrations.RunPython(_create_lexeme_index, _drop_lexeme_index)]
