"""On PostgreSQL, append audit events in one round trip: lock, head, links and inserts.

`audit_append_events` takes the chain's lock, reads the head with a fresh snapshot (a
VOLATILE PL/pgSQL function, like audit_lock_chain_head of 0004), stamps the events with
one time, links each to the one before and inserts it. The client sends the events as
one JSON array, each with its canonical text in three pieces around what only the
function knows: the time (rendered as the chain walk renders it) and the sequence. So
the hash is sha256(prev_hash ‖ canonical(event)) exactly as apps.audit.verification
computes it, which the tests check.
"""

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION audit_append_events(lock_key bigint, events jsonb)
RETURNS TABLE (
    event_id bigint, event_sequence bigint, event_occurred_at timestamptz,
    event_prev_hash varchar, event_hash varchar
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    head_sequence bigint;
    head_hash varchar;
    stamp_text text;
    e jsonb;
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT a.sequence, a.hash INTO head_sequence, head_hash
        FROM audit_auditevent AS a ORDER BY a.sequence DESC LIMIT 1;
    head_sequence := coalesce(head_sequence, 0);
    head_hash := coalesce(head_hash, repeat('0', 64));
    -- Stamped under the lock, so time follows the sequence; microseconds, as stored.
    event_occurred_at := date_trunc('microseconds', clock_timestamp());
    stamp_text := to_char(
        event_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'
    );
    FOR i IN 0 .. jsonb_array_length(events) - 1 LOOP
        e := events -> i;
        event_sequence := head_sequence + i + 1;
        event_prev_hash := head_hash;
        event_hash := encode(sha256(convert_to(
            head_hash || (e ->> 'before_time') || stamp_text || (e ->> 'before_sequence')
            || event_sequence::text || (e ->> 'after_sequence'),
            'UTF8'
        )), 'hex');
        INSERT INTO audit_auditevent (
            sequence, occurred_at, actor_kind, actor_id, actor_label, action, target_type,
            target_id, tenant_id, scope_id, ip, request_id, metadata, prev_hash, hash
        ) VALUES (
            event_sequence, event_occurred_at, e ->> 'actor_kind', (e ->> 'actor_id')::bigint,
            e ->> 'actor_label', e ->> 'action', e ->> 'target_type', e ->> 'target_id',
            (e ->> 'tenant_id')::bigint, (e ->> 'scope_id')::bigint, (e ->> 'ip')::inet,
            e ->> 'request_id', e -> 'metadata', event_prev_hash, event_hash
        ) RETURNING id INTO event_id;
        head_hash := event_hash;
        RETURN NEXT;
    END LOOP;
END
$$;
"""
SIGNATURE = "audit_append_events(bigint, jsonb)"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION_SQL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}", params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0006_denial_counter")]

    operations = [migrations.RunPython(install, remove, elidable=False)]
