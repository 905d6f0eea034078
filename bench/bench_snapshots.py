#!/usr/bin/env python
"""Benchmark: MemoryPackage export and restore (issue 16 targets: export ≥ 30,000 items/s,
restore ≥ 10,000 items/s through the gate's stages that apply, and flat memory: peak RSS
at 1,000,000 items ≤ 1.3 × that at 100,000).

    createdb -h 127.0.0.1 -U postgres mc_bench_snap
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_snap \
        .venv/bin/python bench/bench_snapshots.py [--sizes 100000,1000000] [--restore-sizes …]

For each size N, a tenant `snapbench<N>` is filled once with N generated items over 200
scopes (generate_memories, COPY; later runs reuse it). Then each measured step runs in a
child process of its own, which reports its wall time, CPU time and peak RSS
(resource.getrusage ru_maxrss), so the RSS of the small and the large run are comparable:
- export: `export_snapshot`'s service writing the whole tenant to a file (installation key);
- restore: `restore_snapshot`'s service (pass 1: decrypt, parse, judge with the validate,
  sensitive-data and injection stages, stage; dry-run classification; pass 2: one
  transaction of INSERT … SELECT) into a fresh tenant, which is dropped afterwards.
Restore sizes default to the export sizes; restoring 1,000,000 items is long while the
injection detectors run at about 2,000 items/s per core (see docs/benchmarks.md).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
os.environ.setdefault("DEBUG", "true")

TARGET_EXPORT = 30_000
TARGET_RESTORE = 10_000
TARGET_RSS_RATIO = 1.3
SCOPES = 200
PACKAGES = ROOT / "var" / "bench-snapshots"


def _setup():
    import django

    django.setup()


def child(step: str, size: int) -> None:
    """One measured step in this process; prints its figures as JSON on the last line."""
    _setup()
    from apps.snapshots.services import export_snapshot, restore_snapshot
    from apps.tenancy.models import Tenant

    source = Tenant.objects.get(slug=f"snapbench{size}-000")
    path = PACKAGES / f"snapbench{size}.mcpkg"
    started, cpu, workers_cpu = time.perf_counter(), time.process_time(), _children_cpu()
    if step == "export":
        with path.open("wb") as out:
            result = export_snapshot(tenant=source, out=out, actor="bench")
        items = result.items
    else:
        target, _ = Tenant.objects.get_or_create(slug=f"snaprestore{size}", defaults={"name": "r"})
        with path.open("rb") as stream:
            restored = restore_snapshot(stream=stream, tenant=target, actor="bench")
        assert restored.outcome is not None
        items = restored.report["package"]["items"]
        print(json.dumps({"outcome": restored.outcome}), file=sys.stderr)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    workers_cpu = _children_cpu() - workers_cpu
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    worker_rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures = {"items": items, "elapsed": elapsed, "cpu": cpu + workers_cpu, "rss_kib": rss_kib}
    figures.update(own_cpu=cpu, workers_cpu=workers_cpu, worker_rss_kib=worker_rss_kib)
    print(json.dumps(figures))


def _children_cpu() -> float:
    """CPU time of this process's finished children (a restore's judging workers)."""
    times = os.times()
    return times.children_user + times.children_system


def run_child(step: str, size: int) -> dict:
    done = subprocess.run(  # noqa: S603 - this script, as a child
        [sys.executable, __file__, "--child", step, "--size", str(size)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        print(done.stdout, done.stderr, file=sys.stderr)
        raise SystemExit(f"{step} {size} failed")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    workers = ""
    if figures["workers_cpu"]:
        workers = (
            f" (this process {figures['own_cpu']:.1f} s + workers {figures['workers_cpu']:.1f} s"
            f", largest worker's peak RSS {figures['worker_rss_kib'] / 1024:.0f} MiB)"
        )
    print(
        f"{step:8} {size:>9,} items: {figures['elapsed']:.1f} s wall, {figures['cpu']:.1f} s "
        f"CPU{workers}, peak RSS {figures['rss_kib'] / 1024:.0f} MiB, "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    return figures


def ensure_data(size: int) -> None:
    from django.core.management import call_command

    from apps.tenancy.models import Tenant

    if Tenant.objects.filter(slug=f"snapbench{size}-000").exists():
        return
    call_command(
        "generate_memories", count=size, tenants=1, scopes=SCOPES,
        tenant_prefix=f"snapbench{size}", seed=size,
    )  # fmt: skip


def drop_restored(size: int) -> None:
    from django.db import connection

    from apps.tenancy.models import Tenant

    tenant = Tenant.objects.filter(slug=f"snaprestore{size}").first()
    if tenant is None:
        return
    with connection.cursor() as cursor:  # the bench's own rows, set-based
        cursor.execute("DELETE FROM memory_memoryversion v USING memory_memoryitem m "
                       "WHERE v.item_id = m.id AND m.tenant_id = %s", [tenant.pk])  # fmt: skip
        cursor.execute("DELETE FROM quarantine_quarantineentry WHERE tenant_id = %s", [tenant.pk])
        cursor.execute("DELETE FROM memory_memoryitem WHERE tenant_id = %s", [tenant.pk])
        cursor.execute("DELETE FROM memory_scope WHERE tenant_id = %s", [tenant.pk])


def rate(figures: dict) -> float:
    return figures["items"] / figures["elapsed"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--restore-sizes", default=None)
    parser.add_argument("--child", choices=["export", "restore"])
    parser.add_argument("--size", type=int)
    options = parser.parse_args()
    if options.child:
        child(options.child, options.size)
        return
    _setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    PACKAGES.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in options.sizes.split(",")]
    restore_sizes = [int(s) for s in (options.restore_sizes or options.sizes).split(",")]
    exports, restores = {}, {}
    for size in sorted(set(sizes) | set(restore_sizes)):
        ensure_data(size)
        figures = run_child("export", size)  # a restore reads the package exported here
        if size in sizes:
            exports[size] = figures
    for size in restore_sizes:
        drop_restored(size)
        restores[size] = run_child("restore", size)
        drop_restored(size)
    largest, big = max(sizes), max(restore_sizes)
    export, restore = exports[largest], restores[big]
    result(f"export_rate_{largest}", rate(export), "items/s", f">= {TARGET_EXPORT}")
    cpu_rate = export["items"] / export["cpu"]
    result(f"export_cpu_rate_{largest}", cpu_rate, "items/CPU-s", f">= {TARGET_EXPORT}")
    result(f"restore_rate_{big}", rate(restore), "items/s", f">= {TARGET_RESTORE}")
    cpu_rate = restore["items"] / restore["cpu"]
    result(f"restore_cpu_rate_{big}", cpu_rate, "items/CPU-s", f">= {TARGET_RESTORE}")
    for name, figures in (("export", exports), ("restore", restores)):
        if len(figures) >= 2:
            small, large = min(figures), max(figures)
            ratio = figures[large]["rss_kib"] / figures[small]["rss_kib"]
            result(f"{name}_rss_ratio_{large}_vs_{small}", ratio, "x", f"<= {TARGET_RSS_RATIO}")


def result(name: str, value: float, unit: str, target: str) -> None:
    shown = f"{value:.2f}" if unit == "x" else f"{value:.0f}"
    print(f"RESULT\t{name}\t{shown}\t{unit}\t{target}", flush=True)


if __name__ == "__main__":
    main()
