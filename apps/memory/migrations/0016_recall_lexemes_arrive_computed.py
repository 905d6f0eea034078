"""Bulk loads bring recall's lexemes with their rows: the insert trigger computes them only
for a row that arrives without (`recall_lexemes IS NULL`: every write of the ORM, which
does not know the column).

The generator and the restore's apply compute them in Python
(apps.memory.recall.lexemes.stored_lexemes, proven equal to `memory_recall_lexemes` by
tests/memory/test_stored_lexemes.py), which costs a quarter of the function's server CPU,
and the generator loads with the trigger disabled: any BEFORE ROW trigger, even one whose
WHEN is false, makes COPY insert row by row (docs/benchmarks.md, bulkload). The update
trigger is unchanged: an edit of the text or the scope always recomputes.

Where migration 0014 created nothing (no `rum`), neither does this one.
"""

from django.db import migrations

TRIGGER = """
CREATE OR REPLACE TRIGGER memory_recall_lexemes_on_insert BEFORE INSERT ON memory_memoryitem
    FOR EACH ROW {condition}EXECUTE FUNCTION memory_recall_lexemes_follow()
"""


def _replace_trigger(condition: str):
    def replace(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM pg_trigger WHERE tgname = 'memory_recall_lexemes_on_insert' "
                "AND tgrelid = 'memory_memoryitem'::regclass"
            )
            if cursor.fetchone() is not None:
                cursor.execute(TRIGGER.format(condition=condition))

    return replace


class Migration(migrations.Migration):
    dependencies = [("memory", "0015_vectors_of_recallable_items_only")]

    operations = [
        migrations.RunPython(
            _replace_trigger("WHEN (NEW.recall_lexemes IS NULL) "), _replace_trigger("")
        )
    ]
