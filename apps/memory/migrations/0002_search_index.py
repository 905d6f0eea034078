"""Trigram index for recall's candidate pre-selection (PostgreSQL only).

pg_trgm with a UTF-8 ctype extracts trigrams from CJK text too, so Chinese queries
use the same index. SQLite (the embedded default) falls back to a scoped LIKE scan.
"""

from django.db import migrations


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS mem_text_trgm ON memory_memoryitem "
        "USING gin (text gin_trgm_ops)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS mem_text_trgm")


class Migration(migrations.Migration):
    dependencies = [("memory", "0001_initial")]

    operations = [migrations.RunPython(create_index, drop_index)]
