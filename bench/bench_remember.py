"""Benchmark: remember through the whole gate, in one process (target ≥ 300 writes/s).

Run on a PostgreSQL benchmark database:
    createdb -h 127.0.0.1 -U postgres mc_bench_api
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_api \
        .venv/bin/python bench/bench_remember.py [--writes 3000] [--scopes 200]

Every write goes through apps.memory.services.remember: validation, sensitive data,
injection, dedupe, conflict, then item + version + audit event in one transaction,
exactly as `POST /api/v1/memories/` does (minus HTTP). A share of writes repeat an
earlier memory, so the dedupe path is measured too.
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

TARGET_WRITES_PER_S = 300.0
SUBJECTS = ["window seats", "green tea", "metric units", "dark mode", "morning meetings"]
VERBS = ["prefers", "asked about", "dislikes", "mentioned", "booked"]


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def payload(n: int, scopes: int, rng: random.Random, run: int = 0) -> dict:
    # One write in ten repeats an earlier one in the same scope (the dedupe path).
    seed = rng.randrange(max(n, 1)) if n and rng.random() < 0.1 else n
    user = seed % scopes
    return {
        "tenant": "bench-remember",
        "scope": f"user:u_{seed % scopes:05d}",
        "memory_type": rng.choice(["semantic", "episodic", "procedural", "working"]),
        "category": seed % 100,
        "content": {"text": f"User {user} {VERBS[seed % 5]} {SUBJECTS[seed % 5]} ({run}-{seed})."},
        "source": "bench@1",
        "source_kind": "explicit_statement",
        "importance": 0.3 + (seed % 7) / 10,
    }


CORE_STAGES = ["apps.memory.gate.stages.ValidateStage", "apps.memory.gate.stages.DedupeStage"]


def run_phase(*, name: str, agent, key_prefix: str, writes: int, scopes: int, seed: int) -> None:
    """Time `writes` calls of remember() with the currently configured stages; report them."""
    from apps.memory.gate import configured_stages
    from apps.memory.services import remember

    rng = random.Random(seed)
    latencies: list[float] = []
    outcomes = {"created": 0, "merged": 0, "held": 0}
    started = time.perf_counter()
    cpu_started = time.process_time()
    for n in range(writes):
        body = payload(n, scopes, rng, run=seed)
        t0 = time.perf_counter()
        result = remember(actor=agent, payload=body, api_key_prefix=key_prefix)
        latencies.append((time.perf_counter() - t0) * 1000)
        if result.merged:
            outcomes["merged"] += 1
        elif result.status == "active":
            outcomes["created"] += 1
        else:
            outcomes["held"] += 1
    elapsed = time.perf_counter() - started
    cpu_ms = (time.process_time() - cpu_started) * 1000 / writes

    latencies.sort()
    rate = writes / elapsed
    p50, p95, p99 = (percentile(latencies, f) for f in (0.50, 0.95, 0.99))
    stages = ", ".join(stage.name for stage in configured_stages())
    print(f"{name}: remember() in-process, one thread")
    print(f"  stages          {stages}")
    print(f"  database        {connection.vendor} ({connection.settings_dict['NAME']})")
    print(f"  writes          {writes} over {scopes} scopes")
    print(f"  outcomes        {outcomes}")
    print(f"  elapsed         {elapsed:.2f} s")
    print(f"  throughput      {rate:.0f} writes/s   (target ≥ {TARGET_WRITES_PER_S:.0f})")
    print(f"  latency ms      p50 {p50:.2f}  p95 {p95:.2f}  p99 {p99:.2f}")
    print(f"                  mean {statistics.fmean(latencies):.2f}  max {latencies[-1]:.2f}")
    print(f"  client CPU      {cpu_ms:.2f} ms per write (the rest of the latency is DB waits)")
    print(f"  load average    {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"RESULT\t{name}_writes_per_s\t{rate:.0f}\twrites/s\t>={TARGET_WRITES_PER_S:.0f}")
    print(f"RESULT\t{name}_p50\t{p50:.2f}\tms\t-")
    print(f"RESULT\t{name}_p95\t{p95:.2f}\tms\t-")
    print(f"RESULT\t{name}_p99\t{p99:.2f}\tms\t-")
    print(f"RESULT\t{name}_client_cpu_per_write\t{cpu_ms:.2f}\tms\t-")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--scopes", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument(
        "--phase",
        choices=["all", "gate", "core"],
        default="all",
        help="gate: every configured stage; core: validate + dedupe only (the memory app's "
        "own cost, without the quarantine/sensitive/conflict stages).",
    )
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    from django.conf import settings

    from apps.access.api_keys import create_api_key
    from apps.access.models import AgentAPIKey
    from apps.memory.gate import configured_stages
    from apps.memory.models import MemoryItem, Tenant
    from apps.memory.services import remember

    tenant, _ = Tenant.objects.get_or_create(slug="bench-remember", defaults={"name": "Bench"})
    MemoryItem.objects.filter(tenant=tenant).delete()
    key = AgentAPIKey.objects.filter(user__username="bench-agent", revoked=False).first()
    if key is None:
        key, _ = create_api_key(username="bench-agent", tenant=tenant, actor="bench")
    agent = key.user
    warm = random.Random(7)
    for n in range(args.warmup):
        remember(actor=agent, payload=payload(n, args.scopes, warm, run=-1))

    full_gate = list(settings.MEMORY_CONSOLE_GATE_STAGES)
    phases = {"gate": ("remember", full_gate), "core": ("remember_core_stages", CORE_STAGES)}
    for phase, (name, stages) in phases.items():
        if args.phase not in ("all", phase):
            continue
        settings.MEMORY_CONSOLE_GATE_STAGES = stages
        configured_stages.cache_clear()
        run_phase(
            name=name,
            agent=agent,
            key_prefix=key.prefix,
            writes=args.writes,
            scopes=args.scopes,
            seed=len(name),
        )


if __name__ == "__main__":
    main()
