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
(apps.memory.recall.query's letters and digits; anything else separates), then the one-,
two- and three-character grams of its CJK runs (all runs' one-character grams, then their
two-, then their three-character ones), with their positions, each lexeme prefixed by the
scope (`s2sweekly`: apps.memory.recall.lexemes.scope_lexeme), so a scope's entries are the
only ones a query reads.

Why PL/pgSQL built this way: it runs once per written row (COPY of a bulk load, a restore),
so its cost is the write path's. The prefix goes into the text before `to_tsvector` parses
it (no tsvector rebuilt through text), the CJK part runs only where the text has a CJK
character, and its grams come from loops rather than a set-returning subquery: ≈ 0.5× the
first version's server CPU for the same lexemes and positions (docs/benchmarks.md,
hybrid3b). `×` and `÷` sit inside the Latin-1 letters' range but are no letters: the parser
splits there, so they separate here too (the prefix must start every parsed word).
"""

from django.db import DatabaseError, migrations, transaction

CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
LATIN = r"0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"

# Only the module's own character classes are interpolated.
CREATE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION memory_recall_lexemes(scope bigint, body text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
    folded text := lower(normalize(body, NFKC));
    prefix text := ' s' || scope || 's';
    words text := regexp_replace(
        regexp_replace(folded, '[^{LATIN}]+', ' ', 'g'), '[{LATIN}]+', prefix || '\\&', 'g');
    runs text[];
    run text;
    size int;
    start int;
BEGIN
    IF folded ~ '[{CJK}]' THEN
        runs := regexp_split_to_array(btrim(regexp_replace(folded, '[^{CJK}]+', ' ', 'g')), ' ');
        words := words || regexp_replace(array_to_string(runs, ''), '.', prefix || '\\&', 'g');
        FOR size IN 2..3 LOOP
            FOREACH run IN ARRAY runs LOOP
                FOR start IN 1..length(run) - size + 1 LOOP
                    words := words || prefix || substr(run, start, size);
                END LOOP;
            END LOOP;
        END LOOP;
    END IF;
    RETURN to_tsvector('simple'::regconfig, words);
END
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
