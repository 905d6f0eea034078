"""Fast synthetic memory items for benchmarks (CONTRACT: `generate_memories`).

Tenants and scopes are created the normal way; items are streamed into PostgreSQL
with COPY (psycopg 3) in one transaction, or bulk_create batches on SQLite. Each row
is consistent with what the remember path would store: `text` and `content_hash`
from apps.memory.content, `half_life_days` and `archive_due_at` from
apps.memory.scoring. The command adds rows every time it runs (tenants and scopes
are reused by slug / key), so benches can grow a dataset step by step.
"""

import hashlib
import json
import math
import random
import secrets
import time
from bisect import bisect
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from apps.memory.content import normalise_for_hash, render_text
from apps.memory.demo import SOURCES, SyntheticTemplate, synthetic_templates
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType, MemoryVersion, SourceKind
from apps.memory.scoring import compute_archive_due_at, default_half_life
from apps.tenancy.models import Scope, ScopeKind, Tenant

# Mostly active, as in a healthy installation; every status appears.
STATUS_WEIGHTS = {
    MemoryStatus.ACTIVE: 85.0,
    MemoryStatus.ARCHIVED: 6.0,
    MemoryStatus.SUPERSEDED: 4.0,
    MemoryStatus.QUARANTINED: 2.0,
    MemoryStatus.PENDING_REVIEW: 1.5,
    MemoryStatus.REJECTED: 1.5,
}
SOURCE_KIND_WEIGHTS = {
    SourceKind.EXPLICIT_STATEMENT: 45.0,
    SourceKind.INFERRED: 25.0,
    SourceKind.AGENT: 15.0,
    SourceKind.TOOL: 10.0,
    SourceKind.EXTERNAL: 3.0,
    SourceKind.IMPORT: 2.0,
}
# Share of each scope kind among generated scopes; sessions share their user's subject.
SCOPE_KIND_SHARES = [
    (ScopeKind.USER, 0.6),
    (ScopeKind.SESSION, 0.3),
    (ScopeKind.AGENT, 0.07),
    (ScopeKind.GLOBAL, 0.03),
]
HISTORY_DAYS = 365
WORKING_MEMORY_TTL = timedelta(days=7)
COPY_CHUNK_ROWS = 20_000
# Loads at least this large (and ≥ half the table) drop and rebuild secondary indexes.
REBUILD_MIN_ROWS = 100_000
TABLE = MemoryItem._meta.db_table
BULK_BATCH_ROWS = 2_000
# Columns written by COPY, in order; checked against the model so a new column fails loudly.
COPY_COLUMNS = [
    "id", "tenant_id", "scope_id", "memory_type", "category", "key", "content", "text",
    "source", "source_kind", "created_by_id", "api_key_prefix", "run_id", "importance",
    "half_life_days", "last_access_at", "access_count", "archive_due_at", "confidence",
    "status", "superseded_by_id", "expires_at", "version", "content_hash", "sensitive",
    "flags", "sealed_content", "embedding", "embedding_model", "created_at", "updated_at",
]  # fmt: skip
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})
_TOKEN_SENTINEL = "\ue000"  # noqa: S105 - a private-use character, never in the vocabulary


@dataclass(frozen=True)
class PreparedTemplate:
    """A template split around the per-row token, pre-escaped for COPY."""

    memory_type: str
    category: int
    key: str
    json_head: str
    json_tail: str
    text_head: str
    text_tail: str
    hash_head: str  # normalised rendering before the token
    needs_escape: bool  # holds a character COPY's text format must escape


@dataclass(frozen=True)
class ScopeTarget:
    scope_id: int
    tenant_id: int
    threshold: float
    half_life_overrides: dict


def prepare_template(template: SyntheticTemplate) -> PreparedTemplate:
    """Split content JSON and rendered text around the token slot so rows only concatenate."""
    content = dict(template.content)
    content[template.token_field] = f"{content[template.token_field]}{_TOKEN_SENTINEL}"
    json_head, json_tail = json.dumps(content, ensure_ascii=False).split(_TOKEN_SENTINEL)
    text_head, text_tail = render_text(content).split(_TOKEN_SENTINEL)
    if text_tail:
        raise ValueError("The token field must be rendered last.")
    return PreparedTemplate(
        memory_type=template.memory_type,
        category=template.category,
        key=template.key,
        json_head=json_head,
        json_tail=json_tail,
        text_head=text_head,
        text_tail=text_tail,
        hash_head=normalise_for_hash(text_head),
        needs_escape=any(c in json_head + json_tail + text_head for c in "\\\n\r\t"),
    )


def row_token(sequence: int) -> str:
    """A short reference that keeps rows distinct; invariant under normalise_for_hash."""
    return f" (ref {sequence})"


def ensure_scopes(*, prefix: str, tenants: int, scopes_per_tenant: int) -> list[ScopeTarget]:
    """Create (or reuse) the bench tenants and their scopes; return where items may go."""
    targets: list[ScopeTarget] = []
    for tenant_index in range(tenants):
        tenant, _ = Tenant.objects.get_or_create(
            slug=f"{prefix}-{tenant_index:03d}",
            defaults={"name": f"Benchmark tenant {tenant_index}"},
        )
        wanted = []
        for kind, share in SCOPE_KIND_SHARES:
            for number in range(max(1, round(scopes_per_tenant * share))):
                if kind == ScopeKind.SESSION:
                    subject = f"u_{number // 3:06d}"  # a few sessions per user
                else:
                    subject = f"u_{number:06d}" if kind == ScopeKind.USER else ""
                wanted.append(
                    Scope(
                        tenant=tenant,
                        kind=kind,
                        external_id=f"{kind[0]}_{number:06d}",
                        subject=subject,
                    )
                )
        Scope.objects.bulk_create(
            wanted[:scopes_per_tenant], ignore_conflicts=True, batch_size=2000
        )
        for scope_id in Scope.objects.filter(tenant=tenant).values_list("pk", flat=True):
            targets.append(
                ScopeTarget(
                    scope_id, tenant.pk, tenant.archive_threshold, tenant.half_life_overrides
                )
            )
    return targets


class RowFactory:
    """Draws synthetic rows; one instance per run so caches (half-lives) are shared."""

    def __init__(self, *, seed: int, targets: list[ScopeTarget], run_tag: str):
        self.rng = random.Random(seed)
        # Ids never repeat across runs, even with the same --seed (one syscall, not one per row).
        self.id_rng = random.Random(secrets.randbits(128))
        self.targets = targets
        self.templates = [prepare_template(t) for t in synthetic_templates()]
        # Row tokens start at a random offset so repeated runs do not duplicate content.
        self.sequence = self.rng.randrange(10**9)
        self.run_tag = run_tag
        self.now = timezone.now()
        self._statuses = list(STATUS_WEIGHTS)
        self._status_cum = _cumulative(STATUS_WEIGHTS.values())
        self._kinds = list(SOURCE_KIND_WEIGHTS)
        self._kind_cum = _cumulative(SOURCE_KIND_WEIGHTS.values())
        self._half_lives: dict[tuple, float] = {}

    def half_life(self, template: PreparedTemplate, target: ScopeTarget) -> float:
        cache_key = (template.memory_type, template.category, target.tenant_id)
        if cache_key not in self._half_lives:
            self._half_lives[cache_key] = default_half_life(
                memory_type=template.memory_type,
                category=template.category,
                overrides=target.half_life_overrides,
            )
        return self._half_lives[cache_key]

    def draw(self) -> dict:
        """One row as {column: python value}; text columns unescaped."""
        rng = self.rng
        self.sequence += 1
        template = self.templates[rng.randrange(len(self.templates))]
        target = self.targets[rng.randrange(len(self.targets))]
        token = row_token(self.sequence)
        created_at = self.now - timedelta(seconds=rng.random() * HISTORY_DAYS * 86_400)
        last_access_at = created_at + (self.now - created_at) * rng.random() ** 3
        importance = round(0.05 + 0.95 * rng.random(), 2)
        half_life = self.half_life(template, target)
        status = self._statuses[bisect(self._status_cum, rng.random() * self._status_cum[-1])]
        identifier = f"{self.id_rng.getrandbits(128):032x}"
        return {
            "id": f"{identifier[:12]}4{identifier[13:16]}a{identifier[17:]}",
            "tenant_id": target.tenant_id,
            "scope_id": target.scope_id,
            "memory_type": template.memory_type,
            "category": template.category,
            "key": template.key,
            "content": template.json_head + token + template.json_tail,
            "text": template.text_head + token + template.text_tail,
            "source": SOURCES[rng.randrange(len(SOURCES))],
            "source_kind": self._kinds[bisect(self._kind_cum, rng.random() * self._kind_cum[-1])],
            "run_id": f"gen_{self.run_tag}_{self.sequence // 40}",
            "importance": importance,
            "half_life_days": half_life,
            "last_access_at": last_access_at,
            "access_count": int(rng.expovariate(0.3)),
            "archive_due_at": compute_archive_due_at(
                importance=importance,
                half_life_days=half_life,
                last_access_at=last_access_at,
                threshold=target.threshold,
            ),
            "confidence": round(0.5 + 0.5 * rng.random(), 2),
            "status": status,
            "expires_at": (
                created_at + WORKING_MEMORY_TTL
                if template.memory_type == MemoryType.WORKING
                else None
            ),
            "content_hash": _sha256(template.hash_head + token),
            "created_at": created_at,
            "needs_escape": template.needs_escape,
        }


def _cumulative(weights) -> list[float]:
    total, out = 0.0, []
    for weight in weights:
        total += weight
        out.append(total)
    return out


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _ts(value: datetime | None) -> str:
    return "\\N" if value is None else value.isoformat()  # already aware, in UTC


def copy_line(row: dict) -> str:
    """The row in PostgreSQL COPY text format, columns in COPY_COLUMNS order."""
    created = _ts(row["created_at"])
    return "\t".join(
        (
            row["id"],
            str(row["tenant_id"]),
            str(row["scope_id"]),
            row["memory_type"],
            str(row["category"]),
            row["key"],
            row["content"].translate(_COPY_ESCAPES) if row["needs_escape"] else row["content"],
            row["text"].translate(_COPY_ESCAPES) if row["needs_escape"] else row["text"],
            row["source"],
            row["source_kind"],
            "\\N",
            "",
            row["run_id"],
            repr(row["importance"]),
            repr(row["half_life_days"]),
            _ts(row["last_access_at"]),
            str(row["access_count"]),
            _ts(row["archive_due_at"]),
            repr(row["confidence"]),
            row["status"],
            "\\N",
            _ts(row["expires_at"]),
            "1",
            row["content_hash"],
            "f",
            "[]",  # flags: generated rows are clean
            "",
            "\\N",
            "",
            created,
            created,
        )
    )


def model_instance(row: dict) -> MemoryItem:
    """The row as an unsaved MemoryItem, for the bulk_create path."""
    return MemoryItem(
        id=row["id"],
        tenant_id=row["tenant_id"],
        scope_id=row["scope_id"],
        memory_type=row["memory_type"],
        category=row["category"],
        key=row["key"],
        content=json.loads(row["content"]),
        text=row["text"],
        source=row["source"],
        source_kind=row["source_kind"],
        run_id=row["run_id"],
        importance=row["importance"],
        half_life_days=row["half_life_days"],
        last_access_at=row["last_access_at"],
        access_count=row["access_count"],
        archive_due_at=row["archive_due_at"],
        confidence=row["confidence"],
        status=row["status"],
        expires_at=row["expires_at"],
        content_hash=row["content_hash"],
    )


def check_copy_columns() -> None:
    """Refuse to run when the model gained a column the COPY path does not fill."""
    model_columns = {f.column for f in MemoryItem._meta.concrete_fields}
    if model_columns != set(COPY_COLUMNS):
        raise CommandError(
            "generate_memories is out of date with MemoryItem: "
            f"missing {sorted(model_columns - set(COPY_COLUMNS))}, "
            f"extra {sorted(set(COPY_COLUMNS) - model_columns)}."
        )


def table_row_estimate(cursor) -> int:
    """The planner's row estimate for the items table: never a COUNT over millions."""
    cursor.execute(
        "SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = %s::regclass", [TABLE]
    )
    return int(cursor.fetchone()[0])


def detach_secondary_structures(cursor) -> list[str]:
    """Drop the items table's secondary indexes and foreign keys; return the DDL to restore them.

    Bulk loads are several times faster into a table without them, and rebuilding an
    index (a sort) or validating a foreign key (one join) afterwards is cheaper than
    maintaining them row by row — PostgreSQL's "Populating a Database" advice. The
    caller runs this inside its transaction, so a failure restores everything.
    """
    cursor.execute(
        "SELECT c.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x "
        "JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = %s::regclass "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)",
        [TABLE],
    )
    indexes = cursor.fetchall()
    cursor.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass AND contype = 'f'",
        [TABLE],
    )
    foreign_keys = cursor.fetchall()
    restore = [definition for _, definition in indexes]
    restore += [
        f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" {definition}'
        for name, definition in foreign_keys
    ]
    for name, _ in foreign_keys:
        cursor.execute(f'ALTER TABLE {TABLE} DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        cursor.execute(f'DROP INDEX "{name}"')
    return restore


def write_with_copy(factory: RowFactory, count: int, *, rebuild: bool | None) -> str:
    """Stream rows into PostgreSQL through COPY on the raw psycopg connection.

    With `rebuild` (default: when the load is large next to the table), secondary
    indexes and foreign keys are dropped first and rebuilt after. Returns the strategy.
    """
    check_copy_columns()
    statement = f"COPY {TABLE} ({', '.join(COPY_COLUMNS)}) FROM STDIN"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        if rebuild is None:
            rebuild = count >= REBUILD_MIN_ROWS and count * 2 >= table_row_estimate(cursor)
        restore = detach_secondary_structures(cursor) if rebuild else []
        load_started = time.perf_counter()
        with cursor.cursor.copy(statement) as copy:
            remaining = count
            while remaining:
                chunk = min(remaining, COPY_CHUNK_ROWS)
                lines = [copy_line(factory.draw()) for _ in range(chunk)]
                copy.write("\n".join(lines) + "\n")
                remaining -= chunk
        rebuild_started = time.perf_counter()
        for ddl in restore:
            cursor.execute(ddl)
        cursor.execute(f"ANALYZE {TABLE}")
        load, rebuilt = rebuild_started - load_started, time.perf_counter() - rebuild_started
    if rebuild:
        return f"COPY {load:.1f} s, indexes and foreign keys rebuilt {rebuilt:.1f} s"
    return f"COPY with indexes kept {load:.1f} s"


def write_with_bulk_create(factory: RowFactory, count: int, *, with_versions: bool) -> None:
    """The portable path (SQLite): bulk_create in batches."""
    remaining = count
    while remaining:
        chunk = min(remaining, BULK_BATCH_ROWS)
        items = [model_instance(factory.draw()) for _ in range(chunk)]
        MemoryItem.objects.bulk_create(items, batch_size=BULK_BATCH_ROWS)
        if with_versions:
            MemoryVersion.objects.bulk_create([first_version(item) for item in items])
        remaining -= chunk


def first_version(item: MemoryItem) -> MemoryVersion:
    """The version-1 snapshot create_item would have written."""
    return MemoryVersion(
        item_id=item.pk,
        version=1,
        content=item.content,
        text=item.text,
        key=item.key,
        status=item.status,
        importance=item.importance,
        change="memory.created",
        reference="generated",
    )


def copy_versions(*, run_tag: str) -> int:
    """Write the version-1 snapshot of every item generated in this run, in SQL."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memory_memoryversion (item_id, version, content, text, key, status, "
            "importance, superseded_by_id, change, reference, changed_by_id, created_at) "
            "SELECT id, 1, content, text, key, status, importance, NULL, 'memory.created', "
            "'generated', NULL, created_at FROM memory_memoryitem "
            "WHERE run_id LIKE %s",
            [f"gen\\_{run_tag}\\_%"],
        )
        return cursor.rowcount


class Command(BaseCommand):
    help = "Write N synthetic memory items fast (COPY on PostgreSQL) for benchmarks."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, required=True, help="Items to add.")
        parser.add_argument("--tenants", type=int, default=5, help="Tenants (default 5).")
        parser.add_argument(
            "--scopes", type=int, default=200, help="Scopes per tenant (default 200)."
        )
        parser.add_argument(
            "--tenant-prefix",
            default="bench",
            help='Tenant slugs are "<prefix>-000", "<prefix>-001", … (default "bench").',
        )
        parser.add_argument("--seed", type=int, default=None, help="Random seed (repeatable).")
        parser.add_argument(
            "--with-versions",
            action="store_true",
            help="Also write each item's version-1 history row (slower; doubles the rows).",
        )
        parser.add_argument(
            "--index-strategy",
            choices=["auto", "rebuild", "keep"],
            default="auto",
            help="PostgreSQL: drop and rebuild secondary indexes around the load, keep them, "
            "or decide by size (default). Rebuilding locks the items table until the load "
            "commits: use it on benchmark databases, not on a live installation.",
        )

    def handle(
        self,
        *args,
        count,
        tenants,
        scopes,
        tenant_prefix,
        seed,
        with_versions,
        index_strategy,
        **opts,
    ):
        if count < 0 or tenants < 1 or scopes < 1:
            raise CommandError("--count must be ≥ 0, --tenants and --scopes ≥ 1.")
        started = time.perf_counter()
        targets = ensure_scopes(prefix=tenant_prefix, tenants=tenants, scopes_per_tenant=scopes)
        factory = RowFactory(
            seed=seed if seed is not None else secrets.randbits(32),
            targets=targets,
            run_tag=secrets.token_hex(3),
        )
        write_started = time.perf_counter()
        with transaction.atomic():
            if connection.vendor == "postgresql":
                rebuild = {"auto": None, "rebuild": True, "keep": False}[index_strategy]
                strategy = write_with_copy(factory, count, rebuild=rebuild)
                if with_versions:
                    copy_versions(run_tag=factory.run_tag)
            else:
                write_with_bulk_create(factory, count, with_versions=with_versions)
                strategy = "bulk_create"
        elapsed = time.perf_counter() - started
        write_elapsed = time.perf_counter() - write_started
        rate = count / write_elapsed if write_elapsed else math.inf
        self.stdout.write(
            f"Wrote {count:,} memory items into {len(targets):,} scopes of {tenants} tenant(s) "
            f'"{tenant_prefix}-*" in {elapsed:.1f} s ({rate:,.0f} rows/s, '
            f"{connection.vendor}: {strategy}{', with versions' if with_versions else ''})."
        )
