#!/usr/bin/env python
"""Benchmark: MemoryPackage export and restore (issue 16 targets: export ≥ 30,000 items/s,
restore ≥ 10,000 items/s through the gate's stages that apply, and flat memory: peak RSS
at 1,000,000 items ≤ 1.3 × that at 100,000).

    createdb -h 127.0.0.1 -U postgres mc_bench_snap
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_snap \
        .venv/bin/python bench/bench_snapshots.py [--sizes 100000,1000000] [--restore-sizes …]

For each size N, a tenant `snapbench<N>` is filled once with N generated items over 200
scopes (generate_memories, COPY; later runs reuse it). Then each measured step runs in a
child process of its own, which reports its wall time, CPU time (its own plus its
workers': a restore judges in a pool of forked processes), its database session's server
CPU (PostgreSQL on this machine) and peak RSS (VmHWM of /proc/self/status, and the
largest worker's), so the small and the large run compare:
- export: `export_snapshot`'s service writing the whole tenant to a file (installation key);
- restore: `restore_snapshot`'s service (pass 1: decrypt, parse, judge with the validate,
  sensitive-data and injection stages, stage; dry-run classification; pass 2: one
  transaction of INSERT … SELECT) into a fresh tenant, which is dropped afterwards.
Restore sizes default to the export sizes; restoring 1,000,000 items takes several
minutes of CPU (see docs/benchmarks.md).

A restore also reports the CPU its judging spent in the injection detectors (`assess`,
timed in whichever process judged: the workers write their totals to a file each), so the
detectors' share and the rest are seen apart.

`--split N` instead times each part of a restore of the N-item package in one process
(decrypt, parse, validate, each gate stage, the detectors alone, staging, dry run, apply).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
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


# This process's detector CPU (a forked worker starts its own count), and the directory
# where each worker leaves its count when it exits (restore only).
_detectors: dict = {"pid": os.getpid(), "cpu": 0.0, "totals": None}


def _time_detectors() -> None:
    """Wrap the injection stage's `assess` so every judging process counts its CPU; a
    worker writes its count to a file when it exits (not per call: that would cost)."""
    import multiprocessing.util

    import apps.quarantine.gate as injection

    assess = injection.assess

    def write_count() -> None:
        (_detectors["totals"] / str(os.getpid())).write_text(str(_detectors["cpu"]))

    def timed(*args, **kwargs):
        if _detectors["pid"] != os.getpid():
            _detectors.update(pid=os.getpid(), cpu=0.0)
            multiprocessing.util.Finalize(None, write_count, exitpriority=20)
        started = time.process_time()
        try:
            return assess(*args, **kwargs)
        finally:
            _detectors["cpu"] += time.process_time() - started

    _detectors["totals"] = Path(tempfile.mkdtemp(prefix="bench-snapshots-"))
    injection.assess = timed


def _detector_cpu() -> float:
    """The detectors' CPU in this process and its finished workers (files removed)."""
    total = _detectors["cpu"]
    for path in _detectors["totals"].glob("*"):
        total += float(path.read_text())
        path.unlink()
    _detectors["totals"].rmdir()
    return total


def child(step: str, size: int) -> None:
    """One measured step in this process; prints its figures as JSON on the last line."""
    _setup()
    from apps.snapshots.services import export_snapshot, restore_snapshot
    from apps.tenancy.models import Tenant

    source = Tenant.objects.get(slug=f"snapbench{size}-000")
    path = PACKAGES / f"snapbench{size}.mcpkg"
    server_cpu = _server_cpu()
    started, cpu, workers_cpu = time.perf_counter(), time.process_time(), _children_cpu()
    if step == "export":
        with path.open("wb") as out:
            result = export_snapshot(tenant=source, out=out, actor="bench")
        items = result.items
    else:
        _time_detectors()
        target, _ = Tenant.objects.get_or_create(slug=f"snaprestore{size}", defaults={"name": "r"})
        with path.open("rb") as stream:
            restored = restore_snapshot(stream=stream, tenant=target, actor="bench")
        assert restored.outcome is not None
        items = restored.report["package"]["items"]
        print(json.dumps({"outcome": restored.outcome}), file=sys.stderr)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    workers_cpu = _children_cpu() - workers_cpu
    server_cpu = _server_cpu() - server_cpu
    rss_kib = _peak_rss_kib()
    worker_rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures = {"items": items, "elapsed": elapsed, "cpu": cpu + workers_cpu, "rss_kib": rss_kib}
    figures.update(own_cpu=cpu, workers_cpu=workers_cpu, worker_rss_kib=worker_rss_kib)
    figures.update(server_cpu=server_cpu)
    if step == "restore":
        figures.update(detector_cpu=_detector_cpu())
    print(json.dumps(figures))


def split(size: int) -> None:
    """Where a restore's CPU goes: pass 1's parts, timed one by one over the package in
    this process (no pool), then the dry run and pass 2; prints a table."""
    _setup()
    from collections import Counter

    from apps.memory.gate import GateRejected
    from apps.quarantine.detectors import assess
    from apps.snapshots.package.records import decode_line, parse_item, parse_scope
    from apps.snapshots.package.stream import PackageReader
    from apps.snapshots.services import screening, staging
    from apps.snapshots.services.apply import apply_staged
    from apps.snapshots.services.mapping import Mapping
    from apps.snapshots.services.restore import ScopeResolver, Staged, classify
    from apps.tenancy.models import Tenant

    cpu: Counter = Counter()
    wall: Counter = Counter()

    def timed(part, function, *args, **kwargs):
        started, clock = time.perf_counter(), time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            cpu[part] += time.process_time() - clock
            wall[part] += time.perf_counter() - started

    tenant, _ = Tenant.objects.get_or_create(slug=f"snaprestore{size}", defaults={"name": "r"})
    stages = screening.judging_stages()
    # Loading the detectors (model, pattern tables) happens once per process, on the first
    # item; timed apart so the injection stage's line is its per-item cost.
    timed("load detectors (once)", assess, "warm-up", source_kind="explicit_statement")
    path = PACKAGES / f"snapbench{size}.mcpkg"
    with path.open("rb") as stream, staging.staging_tables() as writer:
        reader = timed("open package (unwrap key)", PackageReader, stream, passphrase=None)
        staged = Staged(header=reader.header, version=reader.version)
        resolver = ScopeResolver(tenant=tenant, mapping=Mapping(), source_slug="")
        batch = screening.Batch(tenant=tenant, actor="bench", restore="split")
        chunks = reader.chunks()
        while (plain := timed("decrypt + decompress", next, chunks, None)) is not None:
            for line in timed("split lines", plain.split, b"\n"):
                if not line:
                    continue
                data = timed("JSON parse", decode_line, line)
                if data.get("t") == "scope":
                    scope = timed("scope records + denylist", parse_scope, data)
                    timed("scope records + denylist", resolver.add, scope)
                    continue
                item = timed("validate records", parse_item, data)
                staged.items += 1
                target = timed("scope records + denylist", resolver.target_of, item.scope)
                target = target.landing()
                scope = screening._scope_cache.scope_of(target, batch)
                draft = timed("draft", screening._judge, item, target, scope=scope,
                              tenant=tenant, actor="bench", stages=())  # fmt: skip
                try:
                    for stage in stages:
                        timed(f"stage: {stage.name}", stage.inspect, draft)
                except GateRejected as refusal:
                    staged.refused[refusal.code] += 1
                    continue
                # The detectors alone, run again on the same text (not in the total; a
                # lower bound: the folded text of the stage's run is still remembered).
                timed("  (of which detectors)", assess, draft.memory.text,
                      source_kind=draft.memory.source_kind)  # fmt: skip
                row = timed("staging row", screening._row, item, draft, seq=staged.items,
                            target=target, tenant=tenant)  # fmt: skip
                block = timed("staging row", staging.row_block, [row])
                timed("COPY to staging", writer.add, block)
        timed("COPY to staging", writer.finish)
        scopes = [(t.number, t.kind, t.external_id, t.subject, t.scope.pk)
                  for t in resolver.targets.values()]  # fmt: skip
        timed("staging scopes + index", staging.add_scopes, scopes)
        timed("staging scopes + index", staging.index_tables)
        staged.targets, staged.resolver = resolver.targets, resolver
        timed("dry run: classify", classify)
        timed("pass 2: apply", apply_staged, staged=staged, tenant=tenant, on_conflict="skip",
              actor="bench", reference="bench", audit_data={"mapping": Mapping()})  # fmt: skip
    total = sum(v for k, v in cpu.items() if not k.startswith(" "))
    print(f"restore split, {staged.items:,} items, load {os.getloadavg()[0]:.1f}")
    print(f"{'part':32} {'CPU s':>8} {'µs/item':>8} {'share':>6} {'wall s':>8}")
    for part, seconds in cpu.items():
        share = f"{seconds / total:6.1%}" if not part.startswith(" ") else ""
        per_item = seconds / staged.items * 1e6
        print(f"{part:32} {seconds:8.2f} {per_item:8.0f} {share:>6} {wall[part]:8.2f}")
    print(f"{'total':32} {total:8.2f} {total / staged.items * 1e6:8.0f}")


def _peak_rss_kib() -> int:
    """This process's peak RSS since it started (VmHWM: ru_maxrss would carry over the
    launching bench process's peak across exec, e.g. after it generated the data)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _server_cpu() -> float:
    """CPU time of this process's database session (its PostgreSQL backend, when the
    server runs on this machine; else 0): the COPY, the dry run's SQL and the whole
    apply run there, outside the figures above. The workers' sessions are not counted."""
    from django.db import connection

    connection.ensure_connection()
    pid = getattr(connection.connection.info, "backend_pid", None)
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
    if "detector_cpu" in figures:
        detectors = figures["detector_cpu"]
        workers = f" (detectors {detectors:.1f} s, the rest {figures['cpu'] - detectors:.1f} s)"
    if figures["workers_cpu"]:
        workers = (
            f"{workers} (this process {figures['own_cpu']:.1f} s + workers "
            f"{figures['workers_cpu']:.1f} s, largest worker's peak RSS "
            f"{figures['worker_rss_kib'] / 1024:.0f} MiB)"
        )
    print(
        f"{step:8} {size:>9,} items: {figures['elapsed']:.1f} s wall, {figures['cpu']:.1f} s "
        f"CPU{workers}, server CPU {figures['server_cpu']:.1f} s, "
        f"peak RSS {figures['rss_kib'] / 1024:.0f} MiB, "
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
    parser.add_argument("--split", type=int, metavar="N", help="where a restore's CPU goes")
    parser.add_argument("--size", type=int)
    options = parser.parse_args()
    if options.child:
        child(options.child, options.size)
        return
    if options.split:
        split(options.split)
        drop_restored(options.split)
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
