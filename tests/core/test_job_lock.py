"""Two runs of a job never overlap: the job's PostgreSQL advisory lock, held for the run."""

import threading
import time
import zlib

import psycopg
import pytest
from django.db import connection, connections

from apps.core.jobs import ALREADY_RUNNING, run_exclusive_job
from apps.core.models import JobOutcome, JobRun
from memory_console.db import _JOB_LOCK_NAMESPACE, _signed_int32, advisory_lock

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_two_runs_started_at_once_one_runs_and_the_other_records_skipped(postgres_only):
    inside = threading.Event()
    release = threading.Event()
    outcomes = {}

    def slow_work(run):
        inside.set()
        assert release.wait(timeout=30)
        return {"done": 1}

    def first():
        try:
            outcomes["first"] = run_exclusive_job("sweep", slow_work)
        finally:
            connections.close_all()

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(timeout=30)
    try:
        outcomes["second"] = run_exclusive_job("sweep", lambda run: {"done": 1})
    finally:
        release.set()
        thread.join(timeout=30)

    assert outcomes == {"first": {"done": 1}, "second": {"skipped": ALREADY_RUNNING}}
    runs = {run.outcome: run for run in JobRun.objects.filter(job="sweep")}
    assert set(runs) == {JobOutcome.SUCCEEDED, JobOutcome.SKIPPED}
    assert runs[JobOutcome.SKIPPED].error == "skipped: already running"
    assert runs[JobOutcome.SUCCEEDED].counts == {"done": 1}


def test_the_lock_is_freed_after_the_run_and_other_jobs_are_not_blocked(postgres_only):
    with advisory_lock("job:sweep") as held:
        assert held
        assert run_exclusive_job("other", lambda run: {"n": 1}) == {"n": 1}
    assert run_exclusive_job("sweep", lambda run: {"n": 2}) == {"n": 2}


def test_a_run_whose_worker_died_is_marked_interrupted_by_the_next_run(postgres_only):
    dead = JobRun.objects.create(job="sweep", trigger="scheduled", outcome=JobOutcome.RUNNING)
    run_exclusive_job("sweep", lambda run: {"n": 1})
    dead.refresh_from_db()
    assert dead.outcome == JobOutcome.FAILED
    assert dead.error.startswith("interrupted")


def test_a_worker_killed_while_holding_the_lock_frees_it_with_its_connection(postgres_only):
    settings_dict = connection.settings_dict
    worker = psycopg.connect(
        host=settings_dict["HOST"] or "127.0.0.1",
        port=settings_dict["PORT"] or 5432,
        user=settings_dict["USER"] or "postgres",
        dbname=settings_dict["NAME"],
        autocommit=True,
    )
    key = _signed_int32(zlib.crc32(b"job:sweep"))
    worker.execute("SELECT pg_advisory_lock(%s, %s)", [_JOB_LOCK_NAMESPACE, key])
    assert run_exclusive_job("sweep", lambda run: {"n": 1}) == {"skipped": ALREADY_RUNNING}
    pid = worker.info.backend_pid
    worker.close()  # the process dies: PostgreSQL drops its session locks
    with connection.cursor() as cursor:
        for _ in range(100):  # the server notices the closed connection a moment later
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
    assert run_exclusive_job("sweep", lambda run: {"n": 1}) == {"n": 1}


def test_the_conflict_scan_takes_the_same_lock(postgres_only):
    from apps.conflicts.tasks import detect_conflicts_task

    done = threading.Event()
    acquired = threading.Event()

    def hold():
        with advisory_lock("job:conflict_scan") as held:
            assert held
            acquired.set()
            done.wait(timeout=30)
        connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert acquired.wait(timeout=30)
    try:
        assert detect_conflicts_task() == {"skipped": ALREADY_RUNNING}
    finally:
        done.set()
        thread.join(timeout=30)
    assert JobRun.objects.get(job="conflict_scan").outcome == JobOutcome.SKIPPED
    assert "groups" in detect_conflicts_task()
