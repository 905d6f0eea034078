"""On PostgreSQL, append audit events in one round trip: lock, head, links and inserts.

`audit_append_events` takes the chain's lock, reads the head with a fresh snapshot (a
VOLATILE PL/pgSQL function, like audit_lock_chain_head of 0004), stamps the events with
one time, links each to the one before and inserts it. The client sends each event's
canonical text in three pieces around what only the function knows: the time (rendered
as the chain walk renders it) and the sequence. So the hash is sha256(prev_hash ‖
canonical(event)) exactly as apps.audit.verification computes it, which the tests check.
"""

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION audit_append_events(
    lock_key bigint, before_time bytea[], before_sequence bytea[], after_sequence bytea[],
    actor_kinds varchar[], actor_ids bigint[], actor_labels varchar[], actions varchar[],
    target_types varchar[], target_ids varchar[], tenant_ids bigint[], scope_ids bigint[],
    ips inet[], request_ids varchar[], metadatas jsonb[]
)
RETURNS TABLE (
    event_id bigint, event_sequence bigint, event_occurred_at timestamptz, event_prev_hash varchar,
    event_hash varchar
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    head_sequence bigint;
    head_hash varchar;
    stamp_text text;
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT e.sequence, e.hash INTO head_sequence, head_hash
        FROM audit_auditevent AS e ORDER BY e.sequence DESC LIMIT 1;
    head_sequence := coalesce(head_sequence, 0);
    head_hash := coalesce(head_hash, repeat('0', 64));
    -- Stamped under the lock, so time follows the sequence; microseconds, as stored.
    event_occurred_at := date_trunc('microseconds', clock_timestamp());
    stamp_text := to_char(
        event_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'
    );
    FOR i IN 1 .. coalesce(array_length(actions, 1), 0) LOOP
        event_sequence := head_sequence + i;
        event_prev_hash := head_hash;
        event_hash := encode(sha256(
            convert_to(head_hash, 'UTF8') || before_time[i] || convert_to(stamp_text, 'UTF8')
            || before_sequence[i] || convert_to(event_sequence::text, 'UTF8')
            || after_sequence[i]
        ), 'hex');
        INSERT INTO audit_auditevent (
            sequence, occurred_at, actor_kind, actor_id, actor_label, action, target_type,
            target_id, tenant_id, scope_id, ip, request_id, metadata, prev_hash, hash
        ) VALUES (
            event_sequence, event_occurred_at, actor_kinds[i], actor_ids[i], actor_labels[i],
            actions[i], target_types[i], target_ids[i], tenant_ids[i], scope_ids[i], ips[i],
            request_ids[i], metadatas[i], event_prev_hash, event_hash
        ) RETURNING id INTO event_id;
        head_hash := event_hash;
        RETURN NEXT;
    END LOOP;
END
$$;
"""
SIGNATURE = (
    "audit_append_events(bigint, bytea[], bytea[], bytea[], varchar[], bigint[], varchar[], "
    "varchar[], varchar[], varchar[], bigint[], bigint[], inet[], varchar[], jsonb[])"
)


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION_SQL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}", params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0006_denial_counter")]

    operations = [migrations.RunPython(install, remove, elidable=False)]
