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


if __name__ == "__main__":
    main()
