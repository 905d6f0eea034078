#!/usr/bin/env python
"""Benchmark: `generate_memories --count 1000000` into an empty PostgreSQL table (≤ 60 s).

Runs against its own database (DATABASE_URL's name + "_generate", dropped and
re-created each run) so the figure always means "one million rows into an empty,
fully indexed table", whatever other benchmarks left behind.

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_gen \
        .venv/bin/python bench/bench_generate.py [--count 1000000]
"""

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DEBUG", "true")
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/memory_console_bench"
TARGET_SECONDS = 60.0


def fresh_database(base_url: str) -> str:
    """Drop and create `<name>_generate` beside the given database; return its URL."""
    import psycopg

    parts = urlsplit(base_url)
    name = f"{parts.path.lstrip('/')}_generate"
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parts._replace(path=f"/{name}").geturl()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1_000_000)
    args = parser.parse_args()
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not base_url.startswith("postgres"):
        sys.exit("bench_generate needs PostgreSQL (set DATABASE_URL).")
    os.environ["DATABASE_URL"] = fresh_database(base_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    print(
        f"database {urlsplit(os.environ['DATABASE_URL']).path.lstrip('/')}, {os.cpu_count()} cores"
    )
    started = time.perf_counter()
    call_command("generate_memories", count=args.count, tenants=5, scopes=200, seed=1)
    seconds = time.perf_counter() - started
    rate = args.count / seconds
    print(f"generate_memories --count {args.count:,}: {seconds:.1f} s ({rate:,.0f} rows/s)")
    print(
        f"RESULT\tgenerate_memories {args.count:,} items\t{seconds:.1f}\ts\t<= {TARGET_SECONDS:.0f}"
    )
    print(f"RESULT\tgenerate_memories throughput\t{rate:,.0f}\trows/s\t>= 16,667")
    measure_pages()


def _median_ms(action, repeat: int = 5) -> float:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)[len(timings) // 2]


def measure_pages() -> None:
    """The console pages that face the generated table: dashboard and memory browser."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.test import Client

    from apps.access.roles import Role
    from apps.access.services import grant_role
    from apps.memory.models import MemoryItem
    from apps.reports.selectors import _group_counts
    from apps.tenancy.models import Tenant

    users = get_user_model().objects
    admin = users.create_superuser("bench-admin", password="x")
    operator = users.create_user("bench-operator", password="x")
    grant_role(
        user=operator,
        role=Role.OPERATOR,
        target=Tenant.objects.get(slug="bench-001"),
        actor="bench",
    )

    def page(user, url, **params):
        client = Client(SERVER_NAME="localhost")
        client.force_login(user)

        def get():
            response = client.get(url, params)
            assert response.status_code == 200, response.status_code

        return get

    figures = [
        (
            "dashboard GROUP BY over 1M (exact, uncached)",
            lambda: _group_counts(MemoryItem.objects.all()),
            "<= 300",
        ),
        ("dashboard page, admin (summary cached)", page(admin, "/"), "<= 300"),
        ("memories page 1, admin, unfiltered", page(admin, "/memories/"), "<= 300"),
        ("memories page 1, operator (1 of 5 tenants)", page(operator, "/memories/"), "<= 300"),
        (
            "memories page 1, operator, status=quarantined",
            page(operator, "/memories/", status="quarantined"),
            "<= 300",
        ),
        (
            "memories page 1, operator, text contains 顺丰",
            page(operator, "/memories/", q="顺丰"),
            "<= 300",
        ),
    ]
    cache.clear()
    for name, action, target in figures:
        action()  # warm-up (and, for the dashboard, fills the summary)
        ms = _median_ms(action)
        print(f"{name}: median {ms:.0f} ms")
        print(f"RESULT\t{name}\t{ms:.0f}\tms\t{target}")


if __name__ == "__main__":
    main()
