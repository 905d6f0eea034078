"""The vector index of recall: `memory_itemembedding` (pgvector, HNSW), where it exists.

MemoryItem.embedding (float32 bytes) is the source of truth on every database. Where the
pgvector extension was available when migration 0010 ran, each embedded item also has one
row in `memory_itemembedding` (item, scope, model, dims, vector), which an HNSW index on
the INDEXED_DIMENSIONS-dimension vectors serves (cosine distance); other dimensions are
searched exactly within the scope by the (scope, model, dims) index. Rows follow their
item: written with it (one INSERT, `store_vector`), replaced when its embedding changes,
deleted with it (triggers on the items table's DELETE and TRUNCATE). Where the table does
not exist, recall searches the bytes exactly in Python (apps.memory.recall.vectors):
correct, and slow on big scopes.

Only an item recall can return has a row (`indexed`: active, not expired, embedded):
the walk of an HNSW graph rejects each entry recall's filter refuses after handing it out,
and expired working memories and non-active items of the same template sat nearest (on
the 50,000-item bench scope, 1,800–2,400 entries handed out to keep 100, each a key
lookup of its item). So a row is written only for such an item (`store_vector`,
`new_vectors_insert`, the generator's COPY), written again when an item returns to
active (update_item), and deleted when its item leaves active or loses its embedding,
by whatever statement (migration 0015's trigger on the items table: the sweeps' and the
restore's set-based UPDATEs included). An item that expires while active keeps its row
until the hourly expiry job ends it (archived: the trigger; deleted: the DELETE one);
until then recall's filter rejects it, as before.

A scope of SCOPE_INDEX_MIN_ROWS vectors or more gets an HNSW index of its own
(`index_large_scopes`, a maintenance step): walking the table-wide graph for one scope
that holds 5 % of it visits ~20 entries of other scopes per entry of its own, each a
random page of a 2 GB index (300 ms and more on CPU at 1,000,000 rows, and short of
neighbours once hnsw.max_scan_tuples is reached); its own graph is a twentieth of the
size and every entry is one of its own (12 ms). Recall uses it by itself: the planner
picks the partial index whose predicate the scope matches.
"""

import json
import math
from array import array
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from apps.memory.models import MemoryStatus
from memory_console.db import relation_present

TABLE = "memory_itemembedding"
INDEXED_DIMENSIONS = 384  # migration 0010's partial HNSW index serves this dimension
SCOPE_INDEX_MIN_ROWS = 10_000
SCOPE_INDEX_PREFIX = f"{TABLE}_hnsw_scope_"
# An HNSW build is far faster with its graph in memory (a 50,000-vector scope: ~100 MB).
SCOPE_INDEX_BUILD_MEMORY = "512MB"


def vector_search_available() -> bool:
    """Whether this database has the pgvector table (migration 0013 creates it only there)."""
    return relation_present(TABLE)


def decode_embedding(raw: bytes | memoryview | None) -> array | None:
    """float32 bytes (as stored in MemoryItem.embedding) into an array of floats."""
    if not raw:
        return None
    values = array("f")
    values.frombytes(bytes(raw))
    return values


def to_float32_bytes(vector: Sequence[float]) -> bytes:
    """float32 bytes (native order, as numpy's float32 reads it); ValueError on overflow."""
    packed = array("f", vector)
    # A value beyond float32 became an infinity, which makes the sum one; finite float32
    # values (≤ 3.4e38 each) cannot overflow a double's sum.
    if not math.isfinite(sum(packed)):
        raise ValueError("embedding values overflow float32")
    return packed.tobytes()


def vector_literal(values: Sequence[float]) -> str:
    """pgvector's text form of a vector: `[0.1,0.2,…]`."""
    return "[" + ",".join(map(repr, map(float, values))) + "]"


def indexed(*, status: str, expires_at: datetime | None, embedded: bool, now: datetime) -> bool:
    """Whether an item with these values has a row in the vector index: recall could
    return it (active, not expired at `now`) and it is embedded."""
    active = status == MemoryStatus.ACTIVE
    return active and embedded and (expires_at is None or expires_at > now)


def _indexed_vector(item: Any, *, now: datetime) -> array | None:
    """The MemoryItem's embedding as the vector index holds it, or None when `indexed`
    says it has no row."""
    vector = decode_embedding(item.embedding)
    embedded = vector is not None and bool(item.embedding_model)
    if not indexed(status=item.status, expires_at=item.expires_at, embedded=embedded, now=now):
        return None
    return vector


def store_vector(item: Any) -> None:
    """Make the vector index hold the row `indexed` says this saved item (a MemoryItem)
    has: written (or replaced, when its embedding changed), or deleted."""
    if not vector_search_available():
        return
    vector = _indexed_vector(item, now=timezone.now())
    with connection.cursor() as cursor:
        if vector is None:
            cursor.execute(f"DELETE FROM {TABLE} WHERE item_id = %s", [item.pk])  # noqa: S608
            return
        # An unchanged row is left alone: rewritten, its new version would enter every
        # HNSW index again (the embedding is indexed, so the update is not HOT).
        cursor.execute(
            f"INSERT INTO {TABLE} AS e (item_id, scope_id, model, dims, embedding) "  # noqa: S608
            "VALUES (%s, %s, %s, %s, %s::vector) ON CONFLICT (item_id) DO UPDATE SET "
            "scope_id = EXCLUDED.scope_id, model = EXCLUDED.model, dims = EXCLUDED.dims, "
            "embedding = EXCLUDED.embedding WHERE (e.scope_id, e.model, e.dims, e.embedding) "
            "IS DISTINCT FROM (EXCLUDED.scope_id, EXCLUDED.model, EXCLUDED.dims, "
            "EXCLUDED.embedding)",
            [item.pk, item.scope_id, item.embedding_model, len(vector), vector_literal(vector)],
        )


# The rows of new items, as one JSON array: a single parameter however many rows, so the
# statement of a write (item, version, audit event, vector) stays within the 50 parameters
# whose conversion psycopg caches (apps.audit.appending).
_INSERT_NEW_SQL = (
    f"INSERT INTO {TABLE} (item_id, scope_id, model, dims, embedding) "  # noqa: S608
    "SELECT (new->>'item_id')::uuid, (new->>'scope_id')::bigint, new->>'model', "
    "(new->>'dims')::smallint, (new->>'embedding')::vector "
    "FROM json_array_elements(%s::json) AS new"
)


def new_vectors_insert(items: Sequence[Any]) -> tuple[str, list[Any]] | None:
    """The INSERT (sql, params) of the vector rows of new items, for the statement that
    inserts the items themselves (one round trip); None when none is to be indexed."""
    if not vector_search_available():
        return None
    rows, now = [], timezone.now()
    for item in items:
        vector = _indexed_vector(item, now=now)
        if vector is None:
            continue
        rows.append(
            {
                "item_id": str(item.pk),
                "scope_id": item.scope_id,
                "model": item.embedding_model,
                "dims": len(vector),
                "embedding": vector_literal(vector),
            }
        )
    return (_INSERT_NEW_SQL, [json.dumps(rows)]) if rows else None


def index_large_scopes(*, min_rows: int | None = None) -> list[str]:
    """Give each scope holding min_rows (default SCOPE_INDEX_MIN_ROWS) or more
    INDEXED_DIMENSIONS-dimension vectors its own HNSW index (built concurrently: writes go
    on); the names of those created."""
    if not vector_search_available():
        return []
    min_rows = SCOPE_INDEX_MIN_ROWS if min_rows is None else min_rows
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT scope_id FROM {TABLE} WHERE dims = %s "  # noqa: S608
            "GROUP BY scope_id HAVING count(*) >= %s ORDER BY scope_id",
            [INDEXED_DIMENSIONS, min_rows],
        )
        large = [row[0] for row in cursor.fetchall()]
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = %s AND indexname LIKE %s",
            [TABLE, SCOPE_INDEX_PREFIX + "%"],
        )
        existing = {row[0] for row in cursor.fetchall()}
        created = []
        cursor.execute(
            "SELECT set_config('maintenance_work_mem', %s, false)", [SCOPE_INDEX_BUILD_MEMORY]
        )
        try:
            for scope_id in large:
                name = f"{SCOPE_INDEX_PREFIX}{int(scope_id):d}"
                if name in existing:
                    continue
                cursor.execute(
                    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {TABLE} USING hnsw "
                    f"((embedding::vector({INDEXED_DIMENSIONS:d})) vector_cosine_ops) "
                    f"WHERE dims = {INDEXED_DIMENSIONS:d} AND scope_id = {int(scope_id):d}"
                )
                created.append(name)
        finally:
            cursor.execute("RESET maintenance_work_mem")
    return created
