"""Benchmark: the audit log at 1,000,000 events (issue 3 targets).

    createdb -h 127.0.0.1 -U postgres mc_bench_audit
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_audit \
        .venv/bin/python manage.py migrate
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_audit \
        .venv/bin/python bench/bench_audit.py [--events 1000000] [--appends 2000]

1. Fill: the table is topped up to --events chained events. The chain is computed in
   Python (the same canonical form and hash record() uses) and streamed in with COPY,
   continuing whatever head is already there, so the result verifies end to end.
2. record() append latency with the table full (target p95 <= 2 ms), each call its own
   transaction (advisory lock, head read, insert, commit), as a request would pay it.
3. audit_verify throughput: a full walk from the genesis (target >= 100,000 events/s),
   plus the resumed walk after a checkpoint that the weekly job does.
4. Viewer: first page of /audit/ for a logged-in compliance officer through the Django
   test client (target p95 <= 100 ms), and the API's first page for reference.
"""

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from apps.access.roles import Role  # noqa: E402
from apps.access.services import grant_role  # noqa: E402
from apps.audit.models import (  # noqa: E402
    EVENT_COLUMNS,
    Action,
    ActorKind,
    AuditCheckpoint,
    AuditEvent,
)
from apps.audit.services import create_checkpoint, record, verify_chain  # noqa: E402
from apps.audit.verification import GENESIS_HASH, canonical, link_hash  # noqa: E402
from apps.tenancy.models import Scope, Tenant  # noqa: E402

TENANTS = 10
SCOPES_PER_TENANT = 50
COPY_COLUMNS = EVENT_COLUMNS
ACTIONS = [
    Action.MEMORY_CREATED,
    Action.MEMORY_UPDATED,
    Action.MEMORY_RECALLED,
    Action.MEMORY_FEEDBACK,
    Action.QUARANTINE_FLAGGED,
    Action.CONFLICT_OPENED,
    Action.AUTH_LOGIN,
]


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def result(name: str, value: float, unit: str, target: str) -> None:
    print(f"RESULT\t{name}\t{value:.3f}\t{unit}\t{target}", flush=True)


def setup_world():
    """Tenants, scopes and a compliance officer granted on two of the tenants."""
    from django.contrib.auth import get_user_model

    tenants = []
    for n in range(TENANTS):
        tenant, _ = Tenant.objects.get_or_create(
            slug=f"bench-audit-{n}", defaults={"name": f"Bench audit {n}"}
        )
        tenants.append(tenant)
        have = Scope.objects.filter(tenant=tenant).count()
        Scope.objects.bulk_create(
            Scope(tenant=tenant, kind="user", external_id=f"u_{s:04d}", subject=f"s{s}")
            for s in range(have, SCOPES_PER_TENANT)
        )
    officer, created = get_user_model().objects.get_or_create(username="bench-audit-officer")
    if created:
        for tenant in tenants[:2]:
            grant_role(user=officer, role=Role.COMPLIANCE_OFFICER, target=tenant, actor="bench")
    scopes = {
        t.pk: list(Scope.objects.filter(tenant=t).values_list("pk", flat=True)) for t in tenants
    }
    return officer, scopes


def fill(target: int, scopes: dict[int, list[int]]) -> None:
    """Top the table up to `target` events, continuing the current head's chain."""
    head = AuditEvent.objects.order_by("-sequence").values("sequence", "hash").first()
    start = head["sequence"] if head else 0
    prev = head["hash"] if head else GENESIS_HASH
    missing = target - start
    if missing <= 0:
        print(f"fill: {start:,} events already present, nothing to add")
        return
    rng = random.Random(start)
    tenant_ids = list(scopes)
    began = time.perf_counter()
    moment = timezone.now() - timedelta(days=365)
    step = timedelta(days=365) / missing
    fields = dict.fromkeys(COPY_COLUMNS[:-2])
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY audit_auditevent ({', '.join(COPY_COLUMNS)}) FROM STDIN") as copy:
            for sequence in range(start + 1, target + 1):
                tenant_id = tenant_ids[sequence % len(tenant_ids)]
                scope_id = rng.choice(scopes[tenant_id])
                moment += step
                action = ACTIONS[sequence % len(ACTIONS)]
                fields.update(
                    sequence=sequence,
                    occurred_at=moment.isoformat(timespec="microseconds"),
                    actor_kind=ActorKind.SERVICE_ACCOUNT,
                    actor_id=None,
                    actor_label=f"agent-{sequence % 17}",
                    action=action.value,
                    target_type="memory.memoryitem",
                    target_id=f"{rng.getrandbits(128):032x}",
                    tenant_id=tenant_id,
                    scope_id=scope_id,
                    ip=f"10.0.{sequence % 250}.{sequence % 199 + 1}",
                    request_id=f"{rng.getrandbits(64):016x}",
                    metadata={"status": "active", "version": sequence % 5 + 1},
                )
                digest = link_hash(prev, canonical(fields))
                copy.write_row(
                    (
                        *(fields[name] for name in COPY_COLUMNS[:-3]),
                        json.dumps(fields["metadata"]),
                        prev,
                        digest,
                    )
                )
                prev = digest
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE audit_auditevent")
    seconds = time.perf_counter() - began
    print(f"fill: added {missing:,} chained events in {seconds:.1f} s ({missing / seconds:,.0f}/s)")


def _latencies(appends: int, *, own_transaction: bool) -> list[float]:
    timings = []
    for n in range(appends):
        if own_transaction:  # autocommit: the call opens and commits its own transaction
            began = time.perf_counter()
            record(actor="bench", action=Action.JOB_RUN, data={"n": n})
            timings.append((time.perf_counter() - began) * 1000)
            continue
        with transaction.atomic():  # as services call it: last step of the change's transaction
            began = time.perf_counter()
            record(actor="bench", action=Action.JOB_RUN, data={"n": n})
            timings.append((time.perf_counter() - began) * 1000)
    return sorted(timings)


def bench_append(appends: int) -> None:
    inside = _latencies(appends, own_transaction=False)
    p50, p95, p99 = (percentile(inside, f) for f in (0.5, 0.95, 0.99))
    print(
        f"append inside the caller's transaction: {appends} record() calls, "
        f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, p99 {p99:.2f} ms "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    result("audit append p50", p50, "ms", "")
    result("audit append p95", p95, "ms", "<= 2")
    result("audit append p99", p99, "ms", "")
    own = _latencies(appends, own_transaction=True)
    p50, p95 = percentile(own, 0.5), percentile(own, 0.95)
    print(f"append as its own transaction (with commit): p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    result("audit append incl. own commit p95", p95, "ms", "")


def bench_verify() -> None:
    AuditCheckpoint.objects.all().delete()
    began, cpu_began = time.perf_counter(), time.process_time()
    full = verify_chain(actor="bench", full=True)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu_began
    rate = full.checked / seconds
    print(
        f"verify --full: {'OK' if full.ok else 'BROKEN ' + full.detail}, "
        f"{full.checked:,} events in {seconds:.2f} s = {rate:,.0f} events/s "
        f"(verifier CPU {cpu:.2f} s = {full.checked / cpu:,.0f} events per CPU-second; "
        f"load average {os.getloadavg()[0]:.1f})"
    )
    result("audit_verify full walk", rate, "events/s", ">= 100000")
    result("audit_verify per verifier CPU-second", full.checked / cpu, "events/s", "")
    checkpoint = create_checkpoint(actor="bench")
    for n in range(1000):
        record(actor="bench", action=Action.JOB_RUN, data={"n": n})
    began = time.perf_counter()
    resumed = verify_chain(actor="bench")
    seconds = time.perf_counter() - began
    print(
        f"verify (resume after checkpoint #{checkpoint.sequence}): "
        f"{'OK' if resumed.ok else 'BROKEN'}, {resumed.checked:,} events in {seconds * 1000:.0f} ms"
    )
    result("audit_verify resumed from checkpoint (1k new events)", seconds * 1000, "ms", "")


def bench_viewer(officer, requests: int) -> None:
    client = Client(SERVER_NAME="localhost")
    client.force_login(officer)
    for url, name, target in (
        ("/audit/", "audit viewer first page p95", "<= 100"),
        ("/api/v1/audit-events/", "audit API first page p95", ""),
        ("/audit/?action=conflict.opened&tenant=bench-audit-1", "audit viewer filtered p95", ""),
    ):
        for _ in range(5):  # warm up
            assert client.get(url).status_code == 200
        timings, cpu_timings = [], []
        for _ in range(requests):
            began, cpu_began = time.perf_counter(), time.process_time()
            response = client.get(url)
            timings.append((time.perf_counter() - began) * 1000)
            cpu_timings.append((time.process_time() - cpu_began) * 1000)
            assert response.status_code == 200
        timings.sort()
        cpu_timings.sort()
        p50, p95 = percentile(timings, 0.5), percentile(timings, 0.95)
        print(
            f"{url}: {requests} requests, p50 {p50:.1f} ms, p95 {p95:.1f} ms "
            f"(Django process CPU p50 {percentile(cpu_timings, 0.5):.1f} ms, "
            f"p95 {percentile(cpu_timings, 0.95):.1f} ms; load average {os.getloadavg()[0]:.1f})"
        )
        result(name, p95, "ms", target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench_audit needs PostgreSQL (set DATABASE_URL).")
    print(f"machine: {os.cpu_count()} cores; database {connection.settings_dict['NAME']}")
    officer, scopes = setup_world()
    fill(args.events, scopes)
    print(f"events in table: {AuditEvent.objects.order_by('-sequence').first().sequence:,}")
    bench_append(args.appends)
    bench_verify()
    bench_viewer(officer, args.requests)


if __name__ == "__main__":
    main()
