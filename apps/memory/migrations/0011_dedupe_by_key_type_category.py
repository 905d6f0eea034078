"""Dedupe looks at the key, memory type and category too (issue 18 point 3).

The same value under another key is another memory: memory_lock_and_find_twin now takes
the write's key, type and category and matches them beside the content hash (the
mem_scope_hash index still narrows the scan to the content). The old five-argument
function is dropped; reversing restores it.
"""

from importlib import import_module

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION memory_lock_and_find_twin(
    lock_namespace integer, lock_key integer, twin_scope bigint, twin_hash varchar,
    twin_key varchar, twin_type varchar, twin_category integer, twin_status varchar
)
RETURNS TABLE (twin_id uuid, twin_importance double precision, twin_access_count integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_namespace, lock_key);
    RETURN QUERY
        SELECT m.id, m.importance, m.access_count FROM memory_memoryitem AS m
        WHERE m.scope_id = twin_scope AND m.content_hash = twin_hash
            AND m.key = twin_key AND m.memory_type = twin_type
            AND m.category = twin_category AND m.status = twin_status
        ORDER BY m.created_at
        LIMIT 1;
END
$$;
"""
SIGNATURE = (
    "memory_lock_and_find_twin(integer, integer, bigint, varchar, varchar, varchar, integer, "
    "varchar)"
)

# The five-argument function of 0006, restored when this migration is reversed.
_OLD = import_module("apps.memory.migrations.0006_dedupe_lock_and_twin_function")


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {_OLD.SIGNATURE}", params=None)
        schema_editor.execute(FUNCTION_SQL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}", params=None)
        schema_editor.execute(_OLD.FUNCTION_SQL, params=None)


class Migration(migrations.Migration):
    dependencies = [("memory", "0010_memoryitem_metadata_idempotentrequest")]

    operations = [migrations.RunPython(install, remove, elidable=False)]
