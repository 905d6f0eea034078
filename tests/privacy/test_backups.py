"""Erasure survives a database backup: restore, replay the erasure log, the subject is gone
again (issue 14 §6). Real pg_dump / psql into a second database, and the real commands."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from apps.audit.hashing import keyed_hash
from apps.privacy import services
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.privacy.factories import approved_request

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("postgres_only"),
    pytest.mark.slow,
]
ROOT = Path(__file__).resolve().parents[2]


def _dsn(name: str) -> dict:
    db = connection.settings_dict
    return {
        "host": db["HOST"] or "127.0.0.1",
        "port": str(db["PORT"] or 5432),
        "user": db["USER"] or "postgres",
        "dbname": name,
    }


def _pg(tool: str, *args: str, name: str) -> None:
    dsn = _dsn(name)
    base = [tool, "-h", dsn["host"], "-p", dsn["port"], "-U", dsn["user"]]
    subprocess.run([*base, *args], check=True, capture_output=True)


def _manage(*args: str, database: str) -> str:
    dsn = _dsn(database)
    url = f"postgres://{dsn['user']}@{dsn['host']}:{dsn['port']}/{database}"
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _one(cursor, sql: str, params=()) -> int:
    cursor.execute(sql, params)
    return cursor.fetchone()[0]


def test_after_restoring_a_backup_replaying_the_erasure_log_erases_the_subject_again(
    tenant_a, officer, officer2, tmp_path
):
    user_scope = ScopeFactory(tenant=tenant_a, external_id="u_bk", subject="u_bk")
    session_scope = ScopeFactory(
        tenant=tenant_a, kind="session", external_id="s_bk", subject="u_bk"
    )
    MemoryItemFactory.create_batch(3, scope=user_scope)
    MemoryItemFactory(scope=session_scope)
    residue = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_friend"))
    MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_stays", subject="u_stays"))
    request = approved_request(tenant=tenant_a, subject="u_bk", by=officer, second=officer2)

    source = connection.settings_dict["NAME"]
    backup = tmp_path / "backup.sql"
    _pg("pg_dump", "--no-owner", "-f", str(backup), source, name=source)  # the nightly backup

    services.start_erasure(
        request_id=request.pk, actor=officer, residue_ids=[residue.public_id], residue_reason="r"
    )
    services.execute_erasure(request_id=request.pk)
    log = tmp_path / "erasure-log.json"
    call_command("export_erasure_log", out=str(log))
    assert "u_bk" not in log.read_text()

    restored = f"{source}_restored"
    _pg("dropdb", "--if-exists", restored, name="postgres")
    _pg("createdb", restored, name="postgres")
    try:
        _pg("psql", "-q", "-v", "ON_ERROR_STOP=1", "-f", str(backup), restored, name=restored)
        with psycopg.connect(**_dsn(restored), autocommit=True) as db, db.cursor() as cursor:
            # The backup brought the subject back, and rolled the denylist back too.
            assert _one(cursor, "SELECT count(*) FROM memory_scope WHERE subject = 'u_bk'") == 2
            assert _one(cursor, "SELECT count(*) FROM privacy_denylistentry") == 0

        output = _manage("replay_erasures", str(log), database=restored)
        assert "replayed" in output and "request closed" in output
        assert "memory_memoryitem 5" in output and "memory_scope 2" in output

        with psycopg.connect(**_dsn(restored), autocommit=True) as db, db.cursor() as cursor:
            assert _one(cursor, "SELECT count(*) FROM memory_scope WHERE subject = 'u_bk'") == 0
            assert (
                _one(
                    cursor,
                    "SELECT count(*) FROM memory_memoryitem WHERE id = %s",
                    [residue.pk],
                )
                == 0
            )
            assert _one(cursor, "SELECT count(*) FROM memory_memoryitem") == 1  # u_stays
            digests = {row[0] for row in cursor.execute("SELECT digest FROM privacy_denylistentry")}
            assert keyed_hash("u_bk") in digests and keyed_hash("session:s_bk") in digests
            status, sealed, receipt = cursor.execute(
                "SELECT status, subject_sealed, receipt FROM privacy_deletionrequest WHERE id = %s",
                [request.pk],
            ).fetchone()
            assert status == "completed" and sealed == "" and receipt["subject_hash"]
        again = _manage("replay_erasures", str(log), database=restored)
        assert "already applied" in again and "0 of 1 erasures re-applied" in again
    finally:
        _pg("dropdb", "--if-exists", restored, name="postgres")


def test_a_tampered_erasure_log_is_refused(tenant_a, tmp_path):
    log = tmp_path / "log.json"
    call_command("export_erasure_log", out=str(log))
    document = json.loads(log.read_text())
    document["erasures"].append({"reference": "x", "tenant": "tenant-a", "subject_hash": "0"})
    log.write_text(json.dumps(document))
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="signature"):
        call_command("replay_erasures", str(log))
