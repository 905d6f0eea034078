#!/usr/bin/env python
"""Benchmark: the conflicts review queue with 50,000 open conflicts (target p95 <= 150 ms).

    createdb -h 127.0.0.1 -U postgres mc_bench_conflicts
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_conflicts \
        .venv/bin/python bench/bench_conflicts.py [--conflicts 50000] [--requests 200]

Migrates the database, then (once; later runs reuse the rows) COPYs two items per
conflict (an active existing value and a pending_review incoming one) and the open
conflicts themselves, over 2,000 scopes of the operator's tenant, plus 10,000 more in
a tenant the operator may not see (so the grant filter has something to exclude).
Requests go through Django's test client as a logged-in operator: the real view,
selectors, grants, nav count and templates.
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
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

TARGET_P95_MS = 150.0
SCOPES_PER_TENANT = 2000
FOREIGN_CONFLICTS = 10_000
KEYS = ["preference.drink", "preference.food", "profile.job", "task.deadline", "style.tone"]
ITEM_COLUMNS = (
    "id, tenant_id, scope_id, memory_type, category, key, content, text, source, source_kind, "
    "api_key_prefix, run_id, importance, half_life_days, last_access_at, access_count, "
    "confidence, status, version, content_hash, sensitive, sealed_content, embedding_model, "
    "created_at, updated_at"
)
CONFLICT_COLUMNS = (
    "tenant_id, scope_id, key, existing_item_id, incoming_item_id, status, resolution, reason, "
    "detected_by, created_at"
)


def result(name: str, value: float, unit: str, target: str) -> None:
    """One machine-readable line for bench/run.py."""
    print(f"RESULT\t{name}\t{value:.4g}\t{unit}\t{target}")


def ensure_data(conflicts: int) -> tuple:
    """Tenants, scopes, operator; COPY items and conflicts unless they are already there."""
    from apps.access.roles import Role
    from apps.access.services import grant_role
    from apps.conflicts.models import Conflict
    from apps.tenancy.models import Scope, Tenant
    from tests.factories import UserFactory

    mine, _ = Tenant.objects.get_or_create(slug="bench-conflicts", defaults={"name": "Bench"})
    foreign, _ = Tenant.objects.get_or_create(slug="bench-foreign", defaults={"name": "Foreign"})
    operator = UserFactory(username="bench-operator")
    if not operator.has_perm("review_memories", mine):
        grant_role(user=operator, role=Role.OPERATOR, target=mine, actor="bench")
    wanted = {mine: conflicts, foreign: FOREIGN_CONFLICTS}
    for tenant, count in wanted.items():
        have = Conflict.objects.filter(tenant=tenant, status="open").count()
        if have >= count:
            continue
        Scope.objects.bulk_create(
            [Scope(tenant=tenant, kind="user", external_id=f"u_{n:05d}", subject=f"u_{n:05d}")
             for n in range(SCOPES_PER_TENANT)],
            ignore_conflicts=True,
        )  # fmt: skip
        scope_ids = list(Scope.objects.filter(tenant=tenant).values_list("pk", flat=True))
        started = time.perf_counter()
        copy_conflicts(tenant.pk, scope_ids, count - have)
        print(f"  generated {count - have:,} conflicts in {tenant.slug} "
              f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memory_memoryitem")
        cursor.execute("VACUUM ANALYZE conflicts_conflict")
    return mine, operator


def copy_conflicts(tenant_id: int, scope_ids: list[int], count: int) -> None:
    rng = random.Random(tenant_id)
    now = datetime.now(UTC)
    conflict_rows = []
    with connection.cursor() as cursor, cursor.cursor.copy(
        f"COPY memory_memoryitem ({ITEM_COLUMNS}) FROM STDIN"
    ) as copy:  # fmt: skip
        for n in range(count):
            scope_id = rng.choice(scope_ids)
            key = f"{rng.choice(KEYS)}.{n % 50}"
            created = now - timedelta(days=rng.uniform(0, 180))
            pair = []
            for status, word in (("active", "tea"), ("pending_review", "coffee")):
                item_id = uuid.uuid4()
                content = {"value": f"{word} #{n}", "note": "the user said so"}
                text = f"value: {word} #{n}\nnote: the user said so"
                copy.write_row((
                    item_id, tenant_id, scope_id, "semantic", 60, key, json.dumps(content), text,
                    "bench@1", "explicit_statement", "", "", 0.5, 30.0, created, 0, 1.0, status,
                    1, uuid.uuid4().hex + uuid.uuid4().hex, False, "", "", created, created,
                ))  # fmt: skip
                pair.append(item_id)
            conflict_rows.append(
                (tenant_id, scope_id, key, pair[0], pair[1], "open", "", "", "bulk_scan", created)
            )
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY conflicts_conflict ({CONFLICT_COLUMNS}) FROM STDIN") as copy,
    ):
        for row in conflict_rows:
            copy.write_row(row)


def timed(client: Client, url: str, requests: int, **params) -> tuple[list[float], int]:
    """Latencies (ms) of `requests` GETs after a warm-up, and the query count of one."""
    for _ in range(5):
        assert client.get(url, params).status_code == 200
    executed: list[str] = []

    def count(execute, sql, *rest):
        executed.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(count):
        client.get(url, params)
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url, params)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return samples, len(executed)


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--conflicts", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench_conflicts needs PostgreSQL (set DATABASE_URL).")
    call_command("migrate", "--noinput", verbosity=0)
    from django.conf import settings

    # Not setup_test_environment(): its template instrumentation would inflate the figures.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False  # as in production: no per-query logging
    from apps.conflicts.models import Conflict
    from apps.conflicts.selectors import open_conflicts_for, queue_page

    tenant, operator = ensure_data(args.conflicts)
    open_mine = Conflict.objects.filter(tenant=tenant, status="open").count()
    open_all = Conflict.objects.filter(status="open").count()
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[0]
    print(f"conflicts benchmark: {open_mine:,} open conflicts visible to the operator "
          f"({open_all:,} in all), {os.cpu_count()} cores, load average {load}")  # fmt: skip
    client = Client()
    client.force_login(operator)
    deep = queue_page(open_conflicts_for(operator), size=open_mine // 2).next_cursor
    sample = Conflict.objects.filter(tenant=tenant, status="open").order_by("?").first()
    cases = [
        ("list page (first, oldest)", "/conflicts/", {}),
        ("list page (cursor at the middle)", "/conflicts/", {"after": deep}),
        ("list filtered by key pattern", "/conflicts/", {"key": "profile.*"}),
        ("list filtered by scope", "/conflicts/", {"scope": "user:u_00042"}),
        ("list filtered by age > 30 days", "/conflicts/", {"older_than": "30"}),
        ("detail (side-by-side)", f"/conflicts/{sample.pk}/", {}),
        ("API list", "/api/v1/conflicts/", {}),
    ]
    print(f"\n{'case':<36} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'queries':>8}")
    figures = {}
    for label, url, params in cases:
        samples, queries = timed(client, url, args.requests, **params)
        p50, p95 = statistics.median(samples), percentile(samples, 95)
        figures[label] = (p50, p95)
        print(f"{label:<36} {p50:8.1f} {p95:8.1f} {max(samples):8.1f} {queries:8d}")
    p50, p95 = figures["list page (first, oldest)"]
    verdict = "meets" if p95 <= TARGET_P95_MS else "MISSES"
    print(f"\nlist page p95 {p95:.1f} ms {verdict} the target of {TARGET_P95_MS:.0f} ms")
    result("conflicts_list_p50", p50, "ms", "-")
    result("conflicts_list_p95", p95, "ms", f"<= {TARGET_P95_MS:.0f}")
    result("conflicts_list_deep_p95", figures["list page (cursor at the middle)"][1], "ms",
           f"<= {TARGET_P95_MS:.0f}")  # fmt: skip
    result("conflicts_detail_p95", figures["detail (side-by-side)"][1], "ms", "-")
    result("conflicts_api_list_p95", figures["API list"][1], "ms", "-")


if __name__ == "__main__":
    main()
