"""On PostgreSQL, take the dedupe lock and find the write's twin in one round trip.

A VOLATILE PL/pgSQL function runs each statement with a fresh snapshot, so the lookup
after pg_advisory_xact_lock returns sees a twin that the previous lock holder committed
(one plain SELECT would keep the snapshot taken before it waited for the lock). The
same idea as audit.0004's audit_lock_chain_head.
"""

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION memory_lock_and_find_twin(
    lock_namespace integer, lock_key integer, twin_scope bigint, twin_hash varchar,
    twin_status varchar
)
RETURNS TABLE (twin_id uuid, twin_importance double precision, twin_access_count integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_namespace, lock_key);
    RETURN QUERY
        SELECT m.id, m.importance, m.access_count FROM memory_memoryitem AS m
        WHERE m.scope_id = twin_scope AND m.content_hash = twin_hash
            AND m.status = twin_status
        ORDER BY m.created_at
        LIMIT 1;
END
$$;
"""
SIGNATURE = "memory_lock_and_find_twin(integer, integer, bigint, varchar, varchar)"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION_SQL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}", params=None)


class Migration(migrations.Migration):
    dependencies = [("memory", "0005_writer_recent_covering_indexes")]

    operations = [migrations.RunPython(install, remove, elidable=False)]
