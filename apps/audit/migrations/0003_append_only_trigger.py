"""On PostgreSQL, refuse UPDATE, DELETE and TRUNCATE on the audit table at the database.

TRUNCATE alone passes when the session sets memory_console.audit_allow_truncate = on:
the test suite's flush between transactional tests needs it (tests/conftest.py sets it
on the throw-away test database only). Someone who can set it could as well disable the
trigger as table owner; what catches them is the hash chain and exported checkpoints.
"""

from django.db import migrations

TRIGGER_SQL = """
CREATE OR REPLACE FUNCTION audit_event_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND coalesce(current_setting('memory_console.audit_allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'audit_auditevent is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
DROP TRIGGER IF EXISTS audit_event_append_only ON audit_auditevent;
CREATE TRIGGER audit_event_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_auditevent
    FOR EACH STATEMENT EXECUTE FUNCTION audit_event_refuse_change();
"""

DROP_SQL = """
DROP TRIGGER IF EXISTS audit_event_append_only ON audit_auditevent;
DROP FUNCTION IF EXISTS audit_event_refuse_change();
"""


def install_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGER_SQL, params=None)


def remove_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_SQL, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_checkpoints_verifications")]

    operations = [migrations.RunPython(install_trigger, remove_trigger, elidable=False)]
