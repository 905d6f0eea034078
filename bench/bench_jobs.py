#!/usr/bin/env python
"""Benchmark: the scheduled jobs over a large table (issue 15's targets).

    createdb -h 127.0.0.1 -U postgres mc_bench_jobs
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_jobs \\
        .venv/bin/python bench/bench_jobs.py [--items 5000000] [--due 0.1] [--requests 100]

Grows the table to --items with generate_memories (later runs reuse it), then makes a
fixed --due share of all items (active ones, chosen by a hash of their id) due at one
marker instant (2000-01-01) and pushes every other active item that is due a year ahead.
Only rows that must change are written: a full-table UPDATE of 5,000,000 rows (every
index touched, since the column is indexed) took longer than the benchmark itself. Then,
each time from the same state (reset and VACUUM ANALYZE first):

1. the decay job (decay_task: advisory lock, JobRun, batches, one audit event per batch)
   against one hand-written `UPDATE … SET status = 'archived' WHERE status = 'active' AND
   archive_due_at <= now()` doing the same archival (target: ratio <= 1.5);
2. the decay job with nothing due (target <= 50 ms);
3. the weekly audit: chain verify + every report figure (target <= 60 s);
4. the report page as an analyst, p95 over --requests (target <= 200 ms).
"""

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

TABLE = "memory_memoryitem"
# The bench's own due rows carry this instant, so a reset reactivates exactly them and never
# an item the generator wrote as archived.
MARKER = datetime(2000, 1, 1, tzinfo=UTC)
# Items the generator made due within the month are pushed too: a long run must not see
# items fall due while it measures (the job and the UPDATE would archive different sets).
UNMARK_NATURAL = f"""
UPDATE {TABLE} SET archive_due_at = now() + interval '365 days'
WHERE status = 'active' AND archive_due_at <= now() + interval '30 days' AND archive_due_at <> %s
"""
MARK = f"""
UPDATE {TABLE} SET archive_due_at = %s
WHERE status = 'active' AND (hashtext(id::text) & 1048575) < %s
  AND archive_due_at IS DISTINCT FROM %s
"""
UNMARK_OUTSIDE = f"""
UPDATE {TABLE} SET archive_due_at = now() + interval '365 days'
WHERE archive_due_at = %s AND (hashtext(id::text) & 1048575) >= %s
"""
RESET = f"UPDATE {TABLE} SET status = 'active' WHERE status = 'archived' AND archive_due_at = %s"
HAND_WRITTEN = (
    f"UPDATE {TABLE} SET status = 'archived' WHERE status = 'active' AND archive_due_at <= now()"
)


def result(name: str, value: float, unit: str, target: str) -> None:
    """One machine-readable line for bench/run.py."""
    print(f"RESULT\t{name}\t{value:.4g}\t{unit}\t{target}", flush=True)


def execute(sql: str, params=None) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def vacuum() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {TABLE}")


def ensure_items(wanted: int) -> int:
    from apps.memory.models import MemoryItem

    have = MemoryItem.objects.count()
    if have < wanted:
        started = time.perf_counter()
        call_command("generate_memories", "--count", str(wanted - have), "--tenants", "5",
                     "--seed", "15", verbosity=0)  # fmt: skip
        print(f"  generated {wanted - have:,} items in {time.perf_counter() - started:.1f} s")
    return max(have, wanted)


def mark_due(items: int, due_share: float) -> int:
    """Make `due_share` of all items due (active ones only); returns how many are due."""
    from apps.memory.models import MemoryItem

    execute(RESET, [MARKER])  # rows an earlier run archived are the bench's own: active again
    active = MemoryItem.objects.filter(status="active").count()
    threshold = min(1048576, round(1048576 * due_share * items / max(active, 1)))
    started = time.perf_counter()
    unmarked = execute(UNMARK_NATURAL, [MARKER])
    marked = execute(MARK, [MARKER, threshold, MARKER])
    unmarked += execute(UNMARK_OUTSIDE, [MARKER, threshold])
    print(f"  set-up: {marked:,} rows made due, {unmarked:,} pushed a year ahead "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    vacuum()
    return execute(f"SELECT 1 FROM {TABLE} WHERE status = 'active' AND archive_due_at <= now()")


def timed_decay() -> tuple[float, dict]:
    from apps.memory.tasks import decay_task

    started = time.perf_counter()
    counts = decay_task()
    return time.perf_counter() - started, counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=5_000_000)
    parser.add_argument("--due", type=float, default=0.1)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument(
        "--steps",
        default="decay,nothing_due,weekly,page",
        help="comma-separated steps to run (decay, nothing_due, weekly, page; default all)",
    )
    args = parser.parse_args()
    steps = set(args.steps.split(","))
    if connection.vendor != "postgresql":
        sys.exit("bench_jobs needs PostgreSQL (set DATABASE_URL).")
    call_command("migrate", "--noinput", verbosity=0)
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    items = ensure_items(args.items)
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[0]
    print(f"jobs benchmark: {items:,} items, {args.due:.0%} due, "
          f"{os.cpu_count()} cores, load average {load}")  # fmt: skip

    if "decay" in steps:
        decay_against_hand_written(items, args.due)
    if "nothing_due" in steps:
        decay_with_nothing_due(items)
    if "weekly" in steps:
        weekly_audit(items)
    if "page" in steps:
        report_page(args.requests)


def decay_against_hand_written(items: int, due_share: float) -> None:
    """1. The decay job against one hand-written UPDATE, from the same state."""
    due = mark_due(items, due_share)
    job_seconds, counts = timed_decay()
    print(f"decay job: {counts['archived']:,} archived in {job_seconds:.2f} s")
    assert counts["archived"] == due, (counts["archived"], due)
    execute(RESET, [MARKER])
    vacuum()
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(HAND_WRITTEN)
        by_hand = cursor.rowcount
    hand_seconds = time.perf_counter() - started
    assert by_hand == due, (by_hand, due)
    ratio = job_seconds / hand_seconds
    print(f"decay job: {due:,} archived in {job_seconds:.2f} s ({counts['batches']} batches); "
          f"hand-written UPDATE {hand_seconds:.2f} s; ratio {ratio:.2f}")  # fmt: skip
    result(f"decay {due:,} due of {items:,} (job)", job_seconds, "s", "-")
    result("decay hand-written UPDATE", hand_seconds, "s", "-")
    result("decay job / hand-written UPDATE", ratio, "x", "<= 1.5")


def decay_with_nothing_due(items: int) -> None:
    """2. Nothing due: the job reads only what is due."""
    vacuum()
    samples = []
    for _ in range(20):
        seconds, counts = timed_decay()
        assert counts["archived"] == 0
        samples.append(seconds * 1000)
    nothing = statistics.median(samples)
    print(f"decay with nothing due: median {nothing:.1f} ms, max {max(samples):.1f} ms")
    result(f"decay nothing due over {items:,}", nothing, "ms", "<= 50")


def weekly_audit(items: int) -> None:
    """3. The weekly audit over the whole table."""
    from apps.reports.services import run_weekly_audit

    started = time.perf_counter()
    outcome = run_weekly_audit(actor="bench")
    weekly = time.perf_counter() - started
    print(f"weekly audit: {outcome['reports']} reports in {weekly:.1f} s "
          f"(chain: {outcome['events_checked']:,} events checked)")  # fmt: skip
    result(f"weekly report over {items:,}", weekly, "s", "<= 60")


def report_page(requests: int) -> None:
    """4. The report page as an analyst, p95 over `requests`."""
    from django.contrib.auth import get_user_model

    from apps.access.roles import Role
    from apps.access.services import grant_role
    from apps.reports.models import HealthReport
    from apps.tenancy.models import Tenant
    from tests.factories import UserFactory

    analyst = get_user_model().objects.filter(username="bench-analyst").first()
    analyst = analyst or UserFactory(username="bench-analyst")
    for tenant in Tenant.objects.all():
        grant_role(user=analyst, role=Role.ANALYST, target=tenant, actor="bench")
    report = HealthReport.objects.exclude(tenant=None).order_by("-week_start", "id").first()
    client = Client()
    client.force_login(analyst)
    url = f"/reports/{report.pk}/"
    for _ in range(5):
        assert client.get(url).status_code == 200
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        assert client.get(url).status_code == 200
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    print(f"report page: p50 {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms")
    result("report page p95", p95, "ms", "<= 200")


if __name__ == "__main__":
    main()
