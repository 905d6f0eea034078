"""Trigram index over the provenance columns the residue scan reads (PostgreSQL only).

The residue scan looks for a subject's identifiers in the key, source and run id of a
tenant's items; memory.0002 already indexes the text. One expression index keeps it to
one extra GIN entry per write. SQLite (the embedded default) scans instead.
"""

from django.db import migrations

# The expression of apps.privacy.services.preview.PROVENANCE_SQL, as it stood here.
PROVENANCE_SQL = "(key || ' ' || source || ' ' || run_id)"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS mem_provenance_trgm ON memory_memoryitem "
        f"USING gin ({PROVENANCE_SQL} gin_trgm_ops)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS mem_provenance_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("privacy", "0001_initial"),
        ("memory", "0002_search_index"),
    ]

    operations = [migrations.RunPython(create_index, drop_index)]
