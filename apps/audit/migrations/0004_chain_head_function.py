"""On PostgreSQL, take the chain lock and read the head in one round trip.

A VOLATILE PL/pgSQL function runs each statement with a fresh snapshot, so the head it
reads after pg_advisory_xact_lock returns is the one the previous lock holder committed
(a single plain SELECT would keep the snapshot taken before it waited for the lock).
"""

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION audit_lock_chain_head(lock_key bigint)
RETURNS TABLE (head_sequence bigint, head_hash varchar)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    RETURN QUERY
        SELECT e.sequence, e.hash FROM audit_auditevent AS e ORDER BY e.sequence DESC LIMIT 1;
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION_SQL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_lock_chain_head(bigint)", params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_append_only_trigger")]

    operations = [migrations.RunPython(install, remove, elidable=False)]
