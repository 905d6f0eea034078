"""Several OS processes appending at once keep one valid, gapless chain (PostgreSQL)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from apps.audit.models import AuditEvent
from apps.audit.services import verify_chain

PROCESSES = 4
EVENTS_EACH = 40
REPO = Path(__file__).resolve().parents[2]

WRITER = """
import os, sys
sys.path.insert(0, os.environ["REPO"])
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
import django
django.setup()
from apps.audit.models import Action
from apps.audit.services import record
worker = sys.argv[1]
print("ready", flush=True)
sys.stdin.readline()  # start together
for n in range(int(sys.argv[2])):
    record(actor=f"writer-{worker}", action=Action.JOB_RUN, data={"worker": worker, "n": n})
"""


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_in_several_processes_keep_one_valid_chain(postgres_only):
    env = {**os.environ, "DATABASE_URL": _database_url(), "REPO": str(REPO), "DEBUG": "true"}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(worker), str(EVENTS_EACH)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for worker in range(PROCESSES)
    ]
    for writer in writers:
        assert writer.stdout.readline().strip() == "ready"
    for writer in writers:  # release them all at once
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer in writers:
        writer.stdin.close()
        assert writer.wait(timeout=120) == 0

    sequences = list(AuditEvent.objects.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, PROCESSES * EVENTS_EACH + 1))
    writers_seen = set(AuditEvent.objects.values_list("actor_label", flat=True))
    assert writers_seen == {f"writer-{worker}" for worker in range(PROCESSES)}
    result = verify_chain(actor="test", full=True)
    assert result.ok, result.detail
    assert result.checked == PROCESSES * EVENTS_EACH
