#!/usr/bin/env python
"""Run every benchmark in bench/ and print one table of figures (`make bench`).

Each bench/bench_*.py runs as its own process with DEBUG=true and DATABASE_URL set
(default: a PostgreSQL database `memory_console_bench` on 127.0.0.1, created and
migrated here). A benchmark reports each headline figure as one line

    RESULT<TAB>name<TAB>value<TAB>unit<TAB>target

and this script collects those lines into the final table.

    python bench/run.py                    # everything
    python bench/run.py --only generate    # scripts whose name contains "generate"
"""

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/memory_console_bench"


@dataclass
class Figure:
    name: str
    value: str
    unit: str
    target: str
    script: str


def ensure_database(url: str) -> None:
    """Create the benchmark database when missing, then migrate it."""
    parts = urlsplit(url)
    if parts.scheme.startswith("postgres"):
        import psycopg

        name = parts.path.lstrip("/")
        admin = parts._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
                print(f"created database {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=bench_environment(url),
        check=True,
    )


def bench_environment(url: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DEBUG"] = "true"
    env["DATABASE_URL"] = url
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}".rstrip(os.pathsep)
    return env


def run_script(script: Path, url: str) -> tuple[list[Figure], int, float]:
    """Run one benchmark, echoing its report; return its figures, exit code and duration."""
    print(f"\n=== {script.name} ===", flush=True)
    started = time.perf_counter()
    figures: list[Figure] = []
    with subprocess.Popen(  # noqa: S603 - runs our own bench scripts
        [sys.executable, str(script)],
        cwd=ROOT,
        env=bench_environment(url),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            if line.startswith("RESULT\t"):
                fields = line.rstrip("\n").split("\t")[1:]
                fields += [""] * (4 - len(fields))
                figures.append(Figure(*fields[:4], script=script.name))
    return figures, process.returncode, time.perf_counter() - started


def print_table(figures: list[Figure], failures: list[tuple[str, int]]) -> None:
    headers = ("benchmark", "value", "unit", "target", "script")
    rows = [(f.name, f.value, f.unit, f.target, f.script) for f in figures]
    widths = [
        max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)
    ]
    print("\n" + "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths, strict=True)))
    for script, code in failures:
        print(f"FAILED: {script} exited with {code}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="Substring of script names.")
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    )
    args = parser.parse_args()
    scripts = sorted((ROOT / "bench").glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if any(part in s.name for part in args.only)]
    if not scripts:
        print("no benchmark matched")
        return 1
    ensure_database(args.database_url)
    figures: list[Figure] = []
    failures: list[tuple[str, int]] = []
    for script in scripts:
        found, code, seconds = run_script(script, args.database_url)
        figures += found
        print(f"--- {script.name}: {seconds:.1f} s, exit {code}", flush=True)
        if code:
            failures.append((script.name, code))
    print_table(figures, failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
