"""Benchmark: our remember and recall beside Mem0 OSS and LangGraph's PostgresStore, same run.

Targets (issue 18): remember through the whole gate ≥ 2× Mem0's bare `add(infer=False)`,
and our hybrid recall p95 ≤ Mem0's `search` p95, measured in the same run.

Needs the peers extra (heavy, so not part of `make test`) and pgvector in PostgreSQL:
    .venv/bin/pip install -e '.[peers]'
    createdb -h 127.0.0.1 -U postgres mc_bench_peers
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_peers \\
        .venv/bin/python bench/bench_peers.py [--writes 1500] [--users 10] [--queries 300]
(or `bench/run.py --only peers --database-url ...`).

All three stores get the same texts, the same 384-dimension embeddings and the same
queries, on the same PostgreSQL. The embeddings come from one deterministic stub
embedder (hashed words; every vector computed once, before timing, then looked up), so
no model time is measured on any side:
- ours: `remember()` through the whole gate (validation, sensitive data, injection,
  dedupe, conflict, item + version + audit event in one transaction) with the client's
  `embedding`, exactly as `POST /api/v1/memories/` minus HTTP; recall is
  `recall_memories` with the text query and its embedding (the access-recording task is
  kept off the measured path, as bench_recall does);
- Mem0 2.2: `Memory.from_config` on its pgvector store (HNSW), its embedder replaced by
  the stub, `add(text, user_id=..., infer=False)` (no LLM) and `search(query, top_k=10,
  filters={"user_id": ...})`;
- LangGraph: `PostgresStore` with a pgvector index (the stub as `embed`), `put` and
  `search(namespace, query=..., limit=10)`.
Each side writes and reads in turns (rounds), so a change of load on this shared machine
falls on all three. Any connection to a host other than the local database is refused
(and reported), so no telemetry or model call can happen: Mem0's is also switched off.
"""

import argparse
import logging
import os
import random
import socket
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported
sys.path.insert(0, str(Path(__file__).resolve().parent))
# Production settings and django.setup(), the payloads and the API's remember path.
import bench_remember
from django.conf import settings
from django.core.management import call_command
from django.db import connection

DIMENSIONS = 384
EMBEDDING_MODEL = f"stub-hash-{DIMENSIONS}"
TENANT = "bench-peers"
REMEMBER_RATIO_TARGET = 2.0
LOCAL_HOSTS = {"127.0.0.1", "::1", "localhost"}
QUERY_TEMPLATES = [
    "what does user {user} prefer",
    "{subject}",
    "did user {user} mention {subject}",
    "user {user} {verb}",
]


def refuse_remote_connections() -> list[str]:
    """Make every socket connection to a non-local address fail, and list the attempts."""
    refused: list[str] = []
    original = socket.socket.connect

    def connect(sock, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and host not in LOCAL_HOSTS:
            refused.append(str(address))
            raise ConnectionRefusedError(f"bench_peers: no network ({address})")
        return original(sock, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    return refused


def stub_embedding(text: str) -> list[float]:
    """A deterministic unit vector: each word adds ±1 to a hashed dimension."""
    vector = [0.0] * DIMENSIONS
    for word in text.lower().replace(".", " ").replace("(", " ").replace(")", " ").split():
        digest = zlib.crc32(word.encode())
        vector[digest % DIMENSIONS] += 1.0 if digest & 0x8000_0000 else -1.0
    norm = sum(value * value for value in vector) ** 0.5 or 1.0
    return [value / norm for value in vector]


class StubEmbedder:
    """Every vector computed before timing; embedding is then a dictionary lookup."""

    def __init__(self, texts: list[str]) -> None:
        self.vectors = {text: stub_embedding(text) for text in texts}

    def __call__(self, texts: list[str]) -> list[list[float]]:  # LangGraph's `embed`
        return [self.embed(text) for text in texts]

    def embed(self, text: str, memory_action=None) -> list[float]:  # Mem0's EmbeddingBase
        vector = self.vectors.get(text)
        return vector if vector is not None else stub_embedding(text)


def percentile(sorted_values: list[float], fraction: float) -> float:
    return bench_remember.percentile(sorted_values, fraction)


def workload(writes: int, users: int, queries: int, seed: int = 18):
    """(user, text) writes in bench_remember's shape (one in ten repeats an earlier one)
    and (user, query) reads."""
    rng = random.Random(seed)
    written = []
    for n in range(writes):
        body = bench_remember.payload(n, users, rng, run=0)
        user = int(body["scope"].rsplit("_", 1)[1])
        written.append((user, body))
    reads = []
    for n in range(queries):
        user = n % users
        template = QUERY_TEMPLATES[n % len(QUERY_TEMPLATES)]
        reads.append(
            (
                user,
                template.format(
                    user=user,
                    subject=bench_remember.SUBJECTS[n % 5],
                    verb=bench_remember.VERBS[(n // 5) % 5],
                ),
            )
        )
    return written, reads


class Ours:
    name = "ours"

    def __init__(self, embedder: StubEmbedder) -> None:
        from apps.access.api_keys import create_api_key
        from apps.access.models import AgentAPIKey
        from apps.memory import tasks
        from apps.memory.models import MemoryItem
        from apps.tenancy.models import Tenant

        tenant, _ = Tenant.objects.get_or_create(slug=TENANT, defaults={"name": "Bench peers"})
        MemoryItem.objects.filter(tenant=tenant).delete()
        AgentAPIKey.objects.filter(user__username="bench-peers", revoked=False).update(revoked=True)
        key, _plaintext = create_api_key(username="bench-peers", tenant=tenant, actor="bench")
        self.agent, self.key_prefix, self.embedder = key.user, key.prefix, embedder
        # The access task runs on a worker in production: off the measured path.
        tasks.record_recall_accesses_task.apply_async = lambda *args, **kwargs: None

    def add(self, user: int, body: dict) -> None:
        text = body["content"]["text"]
        body = {
            **body,
            "tenant": TENANT,
            "embedding": self.embedder.embed(text),
            "embedding_model": EMBEDDING_MODEL,
        }
        bench_remember.remember_body(agent=self.agent, body=body, key_prefix=self.key_prefix)

    def search(self, user: int, query: str) -> int:
        from apps.memory.recall import recall_memories

        hits = recall_memories(
            actor=self.agent,
            tenant=TENANT,
            scope_key=f"user:u_{user:05d}",
            query=query,
            top_k=10,
            query_embedding=self.embedder.embed(query),
            embedding_model=EMBEDDING_MODEL,
        )
        return len(hits)


class Mem0:
    name = "mem0"

    def __init__(self, embedder: StubEmbedder, dsn: str, history_path: str) -> None:
        from mem0 import Memory
        from mem0.embeddings.base import EmbeddingBase

        class Mem0StubEmbedding(EmbeddingBase):
            def embed(self, text, memory_action=None):
                return embedder.embed(text)

        # Mem0's factories build an OpenAI client for the embedder and the LLM (no call is
        # made: infer=False never asks the LLM); the embedder is then replaced by the stub.
        os.environ.setdefault("OPENAI_API_KEY", "sk-bench-unused")
        config = {
            "vector_store": {
                "provider": "pgvector",
                "config": {
                    "connection_string": dsn,
                    "collection_name": "bench_peers_mem0",
                    "embedding_model_dims": DIMENSIONS,
                    "hnsw": True,
                },
            },
            "embedder": {"provider": "openai", "config": {"embedding_dims": DIMENSIONS}},
            "history_db_path": history_path,
        }
        self.memory = Memory.from_config(config)
        self.memory.vector_store.delete_col()
        self.memory = Memory.from_config(config)
        self.memory.embedding_model = Mem0StubEmbedding()

    def add(self, user: int, body: dict) -> None:
        self.memory.add(body["content"]["text"], user_id=f"u_{user:05d}", infer=False)

    def search(self, user: int, query: str) -> int:
        found = self.memory.search(query, top_k=10, filters={"user_id": f"u_{user:05d}"})
        return len(found["results"])


class LangGraphStore:
    name = "langgraph"

    def __init__(self, embedder: StubEmbedder, dsn: str) -> None:
        from langgraph.store.postgres import PostgresStore

        self._context = PostgresStore.from_conn_string(
            dsn, index={"dims": DIMENSIONS, "embed": embedder, "fields": ["text"]}
        )
        self.store = self._context.__enter__()
        self.store.setup()
        with self.store.conn.cursor() as cursor:
            cursor.execute("DELETE FROM store WHERE prefix LIKE 'bench_peers%%'")
        self.keys = 0

    def add(self, user: int, body: dict) -> None:
        self.keys += 1
        self.store.put(("bench_peers", f"u_{user:05d}"), f"m{self.keys}", body["content"])

    def search(self, user: int, query: str) -> int:
        return len(self.store.search(("bench_peers", f"u_{user:05d}"), query=query, limit=10))

    def close(self) -> None:
        self._context.__exit__(None, None, None)


def timed(calls, function) -> tuple[list[float], float, float, list]:
    """Latencies (ms), wall seconds and client CPU seconds of calling function(*call)."""
    latencies, answers = [], []
    wall, cpu = time.perf_counter(), time.process_time()
    for call in calls:
        started = time.perf_counter()
        answers.append(function(*call))
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies, time.perf_counter() - wall, time.process_time() - cpu, answers


def in_rounds(sides, calls, rounds: int, operation: str) -> dict[str, dict]:
    """Each side takes its share of the calls in turn, round after round."""
    figures = {
        side.name: {"latencies": [], "wall": 0.0, "cpu": 0.0, "answers": []} for side in sides
    }
    size = -(-len(calls) // rounds)
    for first in range(0, len(calls), size):
        chunk = calls[first : first + size]
        for side in sides:
            latencies, wall, cpu, answers = timed(chunk, getattr(side, operation))
            figure = figures[side.name]
            figure["latencies"] += latencies
            figure["wall"] += wall
            figure["cpu"] += cpu
            figure["answers"] += answers
    return figures


def report(operation: str, figures: dict[str, dict], count: int) -> None:
    print(f"{operation}: {count} calls per side")
    print(f"  {'side':<10}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'CPU ms':>9}")
    for name, figure in figures.items():
        latencies = sorted(figure["latencies"])
        figure["rate"] = count / figure["wall"]
        figure["p50"], figure["p95"], figure["p99"] = (
            percentile(latencies, f) for f in (0.5, 0.95, 0.99)
        )
        figure["cpu_ms"] = figure["cpu"] * 1000 / count
        print(
            f"  {name:<10}{figure['rate']:>9.0f}{figure['p50']:>9.2f}{figure['p95']:>9.2f}"
            f"{figure['p99']:>9.2f}{figure['cpu_ms']:>9.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=1500)
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    try:
        import langgraph.store.postgres  # noqa: F401
        import mem0  # noqa: F401
    except ImportError:
        raise SystemExit("bench_peers needs the peers extra: pip install -e '.[peers]'") from None
    refused = refuse_remote_connections()
    logging.getLogger("mem0").setLevel(logging.WARNING)  # it logs every insert at INFO
    call_command("migrate", verbosity=0)
    database = settings.DATABASES["default"]
    dsn = (
        f"postgresql://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS vector")

    written, reads = workload(args.writes, args.users, args.queries)
    texts = [body["content"]["text"] for _user, body in written] + [q for _u, q in reads]
    embedder = StubEmbedder(texts)
    history = tempfile.NamedTemporaryFile(suffix=".db", delete=False)  # noqa: SIM115
    sides = [Ours(embedder), Mem0(embedder, dsn, history.name), LangGraphStore(embedder, dsn)]
    print(f"database        {connection.vendor} ({database['NAME']}), pgvector")
    print(f"settings        DEBUG={'on' if settings.DEBUG else 'off'}")
    print(f"workload        {args.writes} writes over {args.users} users, {args.queries}")
    print(f"                queries, {DIMENSIONS}-dim stub embeddings, {args.rounds} rounds")
    print(f"load average    {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (start)\n")

    warm_user = args.users + 1  # first calls (connections, caches) off the measured path
    for side in sides:
        for n in range(5):
            side.add(warm_user, {**written[n][1], "scope": f"user:u_{warm_user:05d}"})
            side.search(warm_user, reads[n][1])
    writes = in_rounds(sides, written, args.rounds, "add")
    report(
        "write (ours: remember through the gate; mem0: add infer=False; langgraph: put)",
        writes,
        len(written),
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    queries = in_rounds(sides, reads, args.rounds, "search")
    report("read (ours: recall; mem0: search; langgraph: search)", queries, len(reads))
    for name, figure in queries.items():
        print(f"  {name}: mean results per query {statistics.fmean(figure['answers']):.1f}")
    print(f"load average    {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (end)")
    print(f"network         {len(refused)} remote connection(s) refused {refused[:3]}\n")
    sides[2].close()
    os.unlink(history.name)

    remember_ratio = writes["ours"]["rate"] / writes["mem0"]["rate"]
    recall_ratio = queries["ours"]["p95"] / queries["mem0"]["p95"]
    lg_write_ratio = writes["ours"]["rate"] / writes["langgraph"]["rate"]
    lg_read_ratio = queries["ours"]["p95"] / queries["langgraph"]["p95"]
    for name, figure in writes.items():
        print(f"RESULT\tpeers_{name}_writes_per_s\t{figure['rate']:.0f}\twrites/s\t-")
    for name, figure in queries.items():
        print(f"RESULT\tpeers_{name}_search_p95\t{figure['p95']:.2f}\tms\t-")
    print(f"RESULT\tpeers_remember_vs_mem0_add\t{remember_ratio:.2f}\t×\t>={REMEMBER_RATIO_TARGET}")
    print(f"RESULT\tpeers_recall_p95_vs_mem0_search_p95\t{recall_ratio:.2f}\t×\t<=1")
    print(f"RESULT\tpeers_remember_vs_langgraph_put\t{lg_write_ratio:.2f}\t×\t-")
    print(f"RESULT\tpeers_recall_p95_vs_langgraph_search_p95\t{lg_read_ratio:.2f}\t×\t-")
    if refused:
        raise SystemExit("a peer tried to reach the network; figures are not comparable")


if __name__ == "__main__":
    main()
