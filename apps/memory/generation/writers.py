"""Writing synthetic rows: COPY on PostgreSQL (optionally around rebuilt indexes),
bulk_create elsewhere. With an embedding model, each row carries the deterministic
embedder's vector (apps.memory.generation.embedding), and on PostgreSQL with pgvector
its vector-index row goes in by a second COPY per chunk (the HNSW index rebuilt after),
for the rows recall can return (apps.memory.vectors.indexed). Where recall's lexeme
column exists (migration 0014), each row carries its lexemes, computed here
(apps.memory.recall.lexemes.stored_lexemes), and a load that rebuilds the indexes (and so
holds the table alone already) disables the insert trigger meanwhile: any BEFORE ROW
trigger makes COPY insert row by row."""

import json
import math
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.core.management.base import CommandError
from django.db import connection, transaction

from apps.memory.generation.embedding import DIMENSIONS
from apps.memory.generation.rows import RowFactory, ensure_scopes
from apps.memory.models import MemoryItem, MemoryVersion
from apps.memory.recall.lexemes import LEXEMES_COLUMN, stored_lexemes, stored_lexemes_agree
from apps.memory.vectors import TABLE as VECTOR_TABLE
from apps.memory.vectors import indexed, vector_search_available

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
    "metadata",
]  # fmt: skip
LEXEMES_TRIGGER = "memory_recall_lexemes_on_insert"  # migrations 0014, 0016
VECTOR_COPY = f"COPY {VECTOR_TABLE} (item_id, scope_id, model, dims, embedding) FROM STDIN"
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})


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
            row.get("embedding_copy", "\\N"),
            row.get("embedding_model", ""),
            created,
            created,
            "{}",  # metadata
        )
    )


def with_lexemes(rows: list[dict]) -> tuple[list[str], int]:
    """The rows' COPY lines with their recall lexemes last, and how many rows left them to
    the database (\\N: see stored_lexemes)."""
    lines, missing = [], 0
    for row in rows:
        lexemes = stored_lexemes(row["scope_id"], row["text"])
        if lexemes is None:
            lexemes, missing = "\\N", missing + 1
        lines.append(f"{copy_line(row)}\t{lexemes}")
    return lines, missing


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
        embedding=bytes.fromhex(row["embedding_copy"][3:]) if "embedding_copy" in row else None,
        embedding_model=row.get("embedding_model", ""),
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


def vector_copy_lines(rows: list[dict], *, now: datetime) -> Iterator[str]:
    """The vector-index rows (apps.memory.vectors) of those rows that have one (`indexed`:
    active, unexpired), in COPY text format, each ending in a newline."""
    for row in rows:
        if indexed(status=row["status"], expires_at=row["expires_at"], embedded=True, now=now):
            yield (
                f"{row['id']}\t{row['scope_id']}\t{row['embedding_model']}\t{DIMENSIONS}\t"
                f"{row['vector']}\n"
            )


def detach_vector_indexes(cursor) -> list[str]:
    """Drop the vector table's secondary indexes (the HNSW graph is built once, after the
    load, far faster than row by row); return the DDL that restores them."""
    cursor.execute(
        "SELECT c.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x "
        "JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = %s::regclass "
        "AND NOT x.indisprimary",
        [VECTOR_TABLE],
    )
    indexes = cursor.fetchall()
    for name, _ in indexes:
        cursor.execute(f'DROP INDEX "{name}"')
    return [definition for _, definition in indexes]


def write_with_copy(factory: RowFactory, count: int, *, rebuild: bool | None) -> str:
    """Stream rows into PostgreSQL through COPY on the raw psycopg connection.

    With `rebuild` (default: when the load is large next to the table), secondary
    indexes and foreign keys are dropped first and rebuilt after. Returns the strategy.
    """
    check_copy_columns()
    lexemes = stored_lexemes_agree()
    columns = [*COPY_COLUMNS, LEXEMES_COLUMN] if lexemes else COPY_COLUMNS
    statement = f"COPY {TABLE} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        if rebuild is None:
            rebuild = count >= REBUILD_MIN_ROWS and count * 2 >= table_row_estimate(cursor)
        restore = detach_secondary_structures(cursor) if rebuild else []
        vectors = bool(factory.embedding_model) and vector_search_available()
        if rebuild and vectors:
            restore += detach_vector_indexes(cursor)
        if rebuild and lexemes:  # the table is this transaction's alone already
            cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER {LEXEMES_TRIGGER}")
            restore.insert(0, f"ALTER TABLE {TABLE} ENABLE TRIGGER {LEXEMES_TRIGGER}")
        load_started = time.perf_counter()
        remaining, lexemes_missing = count, 0
        while remaining:
            chunk = min(remaining, COPY_CHUNK_ROWS)
            rows = [factory.draw() for _ in range(chunk)]
            if lexemes:
                lines, missing = with_lexemes(rows)
                lexemes_missing += missing
            else:
                lines = list(map(copy_line, rows))
            with cursor.cursor.copy(statement) as copy:
                copy.write("\n".join(lines) + "\n")
            if vectors:
                with cursor.cursor.copy(VECTOR_COPY) as copy:
                    copy.write("".join(vector_copy_lines(rows, now=factory.now)))
            remaining -= chunk
        if lexemes_missing and rebuild:  # the trigger was off for these rows
            cursor.execute(
                f"UPDATE {TABLE} SET {LEXEMES_COLUMN} = memory_recall_lexemes(scope_id, text) "  # noqa: S608
                f"WHERE {LEXEMES_COLUMN} IS NULL"
            )
        rebuild_started = time.perf_counter()
        # An HNSW build over a million vectors wants its graph in memory (pgvector warns
        # and slows down when it spills): a generous budget for this transaction only.
        cursor.execute("SET LOCAL maintenance_work_mem = '4GB'" if vectors else "SELECT 1")
        hnsw_seconds = 0.0
        for ddl in restore:
            ddl_started = time.perf_counter()
            cursor.execute(ddl)
            if "USING hnsw" in ddl:
                hnsw_seconds += time.perf_counter() - ddl_started
        cursor.execute(f"ANALYZE {TABLE}")
        if vectors:
            cursor.execute(f"ANALYZE {VECTOR_TABLE}")
        load, rebuilt = rebuild_started - load_started, time.perf_counter() - rebuild_started
    if rebuild:
        hnsw = f" (of which the HNSW index {hnsw_seconds:.1f} s)" if hnsw_seconds else ""
        return f"COPY {load:.1f} s, indexes and foreign keys rebuilt {rebuilt:.1f} s{hnsw}"
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


@dataclass(frozen=True)
class Generated:
    """What one generation run wrote, for the command's summary line."""

    scopes: int
    strategy: str
    elapsed: float
    rate: float


def generate(
    *,
    count: int,
    tenants: int,
    scopes: int,
    tenant_prefix: str,
    seed: int | None,
    with_versions: bool,
    index_strategy: str,
    embedding_model: str = "",
) -> Generated:
    """Add `count` synthetic items to the prefixed tenants' scopes in one transaction."""
    started = time.perf_counter()
    targets = ensure_scopes(prefix=tenant_prefix, tenants=tenants, scopes_per_tenant=scopes)
    factory = RowFactory(
        seed=seed if seed is not None else secrets.randbits(32),
        targets=targets,
        run_tag=secrets.token_hex(3),
        embedding_model=embedding_model,
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
    return Generated(scopes=len(targets), strategy=strategy, elapsed=elapsed, rate=rate)
