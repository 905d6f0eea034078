"""Test-database helpers for the audit log's PostgreSQL trigger."""

from contextlib import contextmanager

from django.db import connection

TRIGGER = "audit_event_append_only"


def allow_flush_of_test_database() -> None:
    """Let the suite's TRUNCATE-based flush through the trigger, on the test database only."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "DO $$ BEGIN EXECUTE format("
            "'ALTER DATABASE %I SET memory_console.audit_allow_truncate = on', "
            "current_database()); END $$"
        )
        cursor.execute("SET memory_console.audit_allow_truncate = on")


@contextmanager
def trigger_disabled():
    """Play a database superuser who switches the append-only trigger off to tamper."""
    if connection.vendor != "postgresql":  # SQLite has no trigger to switch off
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE audit_auditevent DISABLE TRIGGER {TRIGGER}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE audit_auditevent ENABLE TRIGGER {TRIGGER}")


def tamper(*statements: tuple[str, list]) -> None:
    """Run raw SQL against the audit table with the trigger off, as an attacker would."""
    with trigger_disabled(), connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
