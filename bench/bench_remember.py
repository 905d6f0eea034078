"""Benchmark: remember through the whole gate, in one process (target ≥ 300 writes/s).

Run on a PostgreSQL benchmark database (or through `bench/run.py --only remember`):
    createdb -h 127.0.0.1 -U postgres mc_bench_api
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_api \
        .venv/bin/python bench/bench_remember.py [--phase gate] [--writes 3000] [--threads 4]

Every write is built into a NewMemory by the API's builder (validation, scope lookup) and
goes through apps.memory.services.remember: sensitive data, injection, dedupe, conflict,
then item + version + audit event in one transaction, exactly as
`POST /api/v1/memories/` does (minus HTTP). A share of writes repeat an
earlier memory, so the dedupe path is measured too.

The process runs with production settings (DEBUG off, so no query log; throwaway keys
unless the environment gives real ones); `--debug` measures with DEBUG on instead.
Phases: the whole gate on one thread; the same with `--threads` threads in this one
process (each its own connection, as a threaded app server runs); the whole request
through `POST /api/v1/memories/` with Django's in-process client; the memory app's
own stages alone; and batches (issue 18, target ≥ 1,000 items/s): `--batch-size` bodies
built by the API's builder and written through `remember_many` (`batch`), and the same
through `POST /api/v1/memories/batch/` (`batch_api`). `--profile` runs the batch phase
under cProfile and prints the share of the time spent in the injection detectors, the
other stages and the database.
"""

import argparse
import os
import random
import secrets
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")


def use_production_settings() -> None:
    """DEBUG off, as deployed; throwaway keys where the environment has none."""
    from cryptography.fernet import Fernet

    os.environ["DEBUG"] = "false"
    throwaway = {
        "SECRET_KEY": secrets.token_urlsafe(48),
        "MEMORY_CONSOLE_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "MEMORY_CONSOLE_HMAC_KEY": secrets.token_urlsafe(32),
        "MEMORY_CONSOLE_AUDIT_SIGNING_KEY": secrets.token_urlsafe(32),
    }
    for name, value in throwaway.items():
        os.environ.setdefault(name, value)
    # The API phase posts through Django's test client: its host, and a key budget that
    # the benchmark does not exhaust (the throttle still runs and is measured).
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("MEMORY_CONSOLE_API_KEY_RATE", "1000000/min")


if "--debug" not in sys.argv:
    use_production_settings()

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

TARGET_WRITES_PER_S = 300.0
TARGET_BATCH_ITEMS_PER_S = 1000.0
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


def remember_body(*, agent, body: dict, key_prefix: str = ""):
    """Remember a request body as the API does: the builder, then the gate."""
    from apps.memory.api.remember_body import new_memory_from_request
    from apps.memory.services import remember

    new = new_memory_from_request(body, actor=agent, api_key_prefix=key_prefix)
    return remember(new=new, actor=agent)


def api_writer(plaintext_key: str):
    """A function posting one body to `POST /api/v1/memories/` in-process (middleware,
    authentication, throttling, parsing, the view and rendering; no network)."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {plaintext_key}")

    def post(body: dict) -> tuple[bool, str]:
        response = client.post("/api/v1/memories/", body, format="json", secure=True)
        if response.status_code not in (200, 201):
            raise SystemExit(f"POST answered {response.status_code}: {response.content[:200]}")
        answer = response.json()
        return answer["merged"], answer["status"]

    return post


def write_share(
    *,
    agent,
    key_prefix: str,
    numbers: range,
    scopes: int,
    seed: int,
    latencies: list,
    outcomes,
    plaintext_key: str = "",
) -> None:
    """One thread's writes: time each remember() call (or API request, given a key) and
    tally what it produced."""
    from django.db import connection as thread_connection

    def call_remember(body: dict) -> tuple[bool, str]:
        result = remember_body(agent=agent, body=body, key_prefix=key_prefix)
        return result.merged, result.status

    write = api_writer(plaintext_key) if plaintext_key else call_remember
    rng = random.Random(seed)
    try:
        for n in numbers:
            body = payload(n, scopes, rng, run=seed)
            t0 = time.perf_counter()
            merged, status = write(body)
            latencies.append((time.perf_counter() - t0) * 1000)
            if merged:
                outcomes["merged"] += 1
            elif status == "active":
                outcomes["created"] += 1
            else:
                outcomes["held"] += 1
    finally:
        if threading.current_thread() is not threading.main_thread():
            thread_connection.close()


def run_phase(
    *,
    name: str,
    agent,
    key_prefix: str,
    writes: int,
    scopes: int,
    seed: int,
    threads: int = 1,
    plaintext_key: str = "",
) -> None:
    """Time `writes` calls of remember() (or API requests, given a key) with the configured
    stages, spread over `threads` threads of this process (each its own connection)."""
    from apps.memory import wiring

    latencies: list[float] = []  # list.append is atomic; the tallies are per thread
    tallies = [{"created": 0, "merged": 0, "held": 0} for _ in range(threads)]
    shares = [range(first, writes, threads) for first in range(threads)]
    started = time.perf_counter()
    cpu_started = time.process_time()
    if threads == 1:
        write_share(
            agent=agent,
            key_prefix=key_prefix,
            numbers=shares[0],
            scopes=scopes,
            seed=seed,
            latencies=latencies,
            outcomes=tallies[0],
            plaintext_key=plaintext_key,
        )
    else:
        workers = [
            threading.Thread(
                target=write_share,
                kwargs={
                    "agent": agent,
                    "key_prefix": key_prefix,
                    "numbers": share,
                    "scopes": scopes,
                    "seed": seed * 100 + index,
                    "latencies": latencies,
                    "outcomes": tallies[index],
                    "plaintext_key": plaintext_key,
                },
            )
            for index, share in enumerate(shares)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    elapsed = time.perf_counter() - started
    cpu_ms = (time.process_time() - cpu_started) * 1000 / writes
    outcomes = {outcome: sum(tally[outcome] for tally in tallies) for outcome in tallies[0]}
    if len(latencies) != writes:
        raise SystemExit(f"{name}: only {len(latencies)} of {writes} writes succeeded")

    latencies.sort()
    rate = writes / elapsed
    p50, p95, p99 = (percentile(latencies, f) for f in (0.50, 0.95, 0.99))
    stages = ", ".join(stage.name for stage in wiring.current().gate_stages)
    what = "POST /api/v1/memories/ (in-process client)" if plaintext_key else "remember()"
    print(f"{name}: {what} in one process, {threads} thread(s)")
    print(f"  stages          {stages}")
    print(f"  database        {connection.vendor} ({connection.settings_dict['NAME']})")
    print(f"  settings        DEBUG={'on' if settings.DEBUG else 'off'}")
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


def batch_writer(*, agent, key_prefix: str, plaintext_key: str):
    """A function writing a list of bodies as one batch: through the API's builder and
    remember_many (or, given a key, `POST /api/v1/memories/batch/` in-process)."""
    from apps.memory.api.remember_body import new_memories_from_request
    from apps.memory.services import remember_many

    if plaintext_key:
        from rest_framework.test import APIClient

        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Api-Key {plaintext_key}")

        def post(bodies: list[dict]) -> list[str]:
            response = client.post(
                "/api/v1/memories/batch/", {"items": bodies}, format="json", secure=True
            )
            if response.status_code != 200:
                raise SystemExit(f"batch answered {response.status_code}: {response.content[:300]}")
            return [row["outcome"] for row in response.json()["results"]]

        return post

    def write(bodies: list[dict]) -> list[str]:
        news = new_memories_from_request(bodies, actor=agent, api_key_prefix=key_prefix)
        if any(isinstance(new, Exception) for new in news):
            raise SystemExit("a batch item was refused by the builder")
        outcomes = []
        for answer in remember_many(news, actor=agent):  # type: ignore[arg-type]
            if isinstance(answer, Exception):
                raise SystemExit(f"a batch item was refused: {answer}")
            outcomes.append("merged" if answer.merged else answer.status)
        return outcomes

    return write


def run_batch_phase(
    *,
    name: str,
    agent,
    key_prefix: str,
    batches: int,
    batch_size: int,
    scopes: int,
    seed: int,
    plaintext_key: str = "",
    profile: bool = False,
) -> None:
    """Time `batches` batches of `batch_size` writes; print items/s and CPU per item."""
    write = batch_writer(agent=agent, key_prefix=key_prefix, plaintext_key=plaintext_key)
    rng = random.Random(seed)
    bodies = [
        [payload(b * batch_size + n, scopes, rng, run=seed) for n in range(batch_size)]
        for b in range(batches)
    ]
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU time: steadier under load
        profiler.enable()
    started, cpu_started = time.perf_counter(), time.process_time()
    for batch in bodies:
        t0 = time.perf_counter()
        for outcome in write(batch):
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        latencies.append((time.perf_counter() - t0) * 1000)
    elapsed = time.perf_counter() - started
    cpu_ms = (time.process_time() - cpu_started) * 1000 / (batches * batch_size)
    if profiler is not None:
        profiler.disable()
    items = batches * batch_size
    rate = items / elapsed
    cpu_rate = 1000 / cpu_ms if cpu_ms else float("inf")
    latencies.sort()
    p50, p95 = (percentile(latencies, f) for f in (0.50, 0.95))
    what = (
        "POST /api/v1/memories/batch/ (in-process client)" if plaintext_key else "remember_many()"
    )
    print(f"{name}: {what}, {batches} batches of {batch_size}")
    print(f"  database        {connection.vendor} ({connection.settings_dict['NAME']})")
    print(f"  outcomes        {outcomes}")
    print(f"  elapsed         {elapsed:.2f} s")
    print(f"  throughput      {rate:.0f} items/s   (target ≥ {TARGET_BATCH_ITEMS_PER_S:.0f})")
    print(f"  client CPU      {cpu_ms:.3f} ms per item = {cpu_rate:.0f} items/s per core")
    print(f"  batch latency   p50 {p50:.1f} ms  p95 {p95:.1f} ms")
    print(f"  load average    {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if profiler is not None:
        detectors = print_time_shares(profiler)["injection detectors (assess)"]
        # The CPU above ran under the profiler; apply this to an unprofiled run's figure.
        print(
            f"  without detectors {100 * (1 - detectors):.1f} % of the CPU per item"
            " (of an unprofiled run: the profiler slows everything)"
        )
    target = f">={TARGET_BATCH_ITEMS_PER_S:.0f}"
    print(f"RESULT\t{name}_items_per_s\t{rate:.0f}\titems/s\t{target}")
    print(f"RESULT\t{name}_items_per_s_per_core_cpu\t{cpu_rate:.0f}\titems/s\t{target}")
    print(f"RESULT\t{name}_batch_p95\t{p95:.1f}\tms\t-")
    print()


# Where the batch's time goes (cumulative, so nested entries overlap): the functions
# whose total time is worth knowing, by a readable name.
_PROFILED = {
    "injection detectors (assess)": ("apps/quarantine/detectors/__init__.py", "assess"),
    "injection stage (detectors + signals)": ("apps/quarantine/gate.py", "inspect"),
    "sensitive-data stage": ("apps/memory/gate/sensitive.py", "inspect"),
    "conflict stage": ("apps/conflicts/gate.py", "inspect"),
    "dedupe stage": ("apps/memory/gate/stages.py", "inspect"),
    "batch lookups (prepare)": ("apps/memory/gate/stages.py", "prepare"),
    "request builder (validation, scopes)": (
        "apps/memory/api/remember_body.py",
        "new_memories_from_request",
    ),
    "build item + version + event (new_item_rows)": (
        "apps/memory/services/items.py",
        "new_item_rows",
    ),
    "store items + versions + events (store_items)": (
        "apps/memory/services/items.py",
        "store_items",
    ),
    "merge into a twin (update_item)": ("apps/memory/services/items.py", "update_item"),
    "database round trips (psycopg execute)": ("psycopg/cursor.py", "execute"),
}


def print_time_shares(profiler) -> dict[str, float]:
    """Print the profiled phase's time per named function, as a share of the whole;
    return the shares."""
    import pstats

    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"  profile         {total:.2f} s of CPU under cProfile (slower than unprofiled)")
    shares = {}
    for label, (path, function) in _PROFILED.items():
        cumulative = sum(
            row[3]
            for (filename, _, name), row in stats.stats.items()  # type: ignore[attr-defined]
            if filename.endswith(path) and name == function
        )
        print(f"    {label:<46} {cumulative:7.2f} s  {100 * cumulative / total:5.1f} %")
        shares[label] = cumulative / total
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--scopes", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--threads", type=int, default=4, help="threads of the threaded phase")
    parser.add_argument("--debug", action="store_true", help="measure with DEBUG on")
    parser.add_argument(
        "--phase",
        choices=["all", "gate", "threads", "api", "core", "batch", "batch_api"],
        default="all",
        help="gate: every configured stage, one thread; threads: the same on --threads "
        "threads; api: the whole request through the API on one thread; core: validate + "
        "dedupe only (the memory app's own cost, without the quarantine/sensitive/conflict "
        "stages); batch / batch_api: --batches batches of --batch-size items.",
    )
    parser.add_argument("--batches", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--profile", action="store_true", help="cProfile the batch phase")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    from apps.access.api_keys import create_api_key
    from apps.access.models import AgentAPIKey
    from apps.memory import wiring
    from apps.memory.gate.stages import DedupeStage, ValidateStage
    from apps.memory.models import MemoryItem, MemoryVersion
    from apps.tenancy.models import Tenant
    from memory_console import pipeline

    tenant, _ = Tenant.objects.get_or_create(slug="bench-remember", defaults={"name": "Bench"})
    MemoryItem.objects.filter(tenant=tenant).delete()
    AgentAPIKey.objects.filter(user__username="bench-agent", revoked=False).update(revoked=True)
    key, plaintext_key = create_api_key(username="bench-agent", tenant=tenant, actor="bench")
    agent = key.user
    warm = random.Random(7)
    for n in range(args.warmup):
        remember_body(agent=agent, body=payload(n, args.scopes, warm, run=-1))
    # The earlier runs' rows were just deleted: vacuum them away (each run starts from the
    # same state, not from a table bloated by the last) and give the planner statistics,
    # as a live table has them.
    with connection.cursor() as cursor:
        for model in (MemoryItem, MemoryVersion):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")

    full_gate = pipeline.GATE_STAGES
    core_stages = (ValidateStage(), DedupeStage())
    phases = {
        "gate": ("remember", full_gate, 1, ""),
        "threads": (f"remember_{args.threads}_threads", full_gate, args.threads, ""),
        "api": ("remember_api", full_gate, 1, plaintext_key),
        "core": ("remember_core_stages", core_stages, 1, ""),
    }
    batch_phases = {
        "batch": ("remember_batch", ""),
        "batch_api": ("remember_batch_api", plaintext_key),
    }
    for phase, (name, api_key) in batch_phases.items():
        if args.phase not in ("all", phase):
            continue
        run_batch_phase(
            name=name,
            agent=agent,
            key_prefix=key.prefix,
            batches=args.batches,
            batch_size=args.batch_size,
            scopes=args.scopes,
            seed=len(name),
            plaintext_key=api_key,
            profile=args.profile and phase == "batch",
        )
    for phase, (name, stages, threads, api_key) in phases.items():
        if args.phase not in ("all", phase):
            continue
        with wiring.overridden(gate_stages=stages):
            run_phase(
                name=name,
                agent=agent,
                key_prefix=key.prefix,
                writes=args.writes,
                scopes=args.scopes,
                seed=len(name),
                threads=threads,
                plaintext_key=api_key,
            )


if __name__ == "__main__":
    main()
