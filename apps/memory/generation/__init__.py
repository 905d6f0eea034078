"""Fast synthetic memory items for benchmarks (the `generate_memories` command's work).

Tenants and scopes are created the normal way; items are streamed into PostgreSQL
with COPY (psycopg 3) in one transaction, or bulk_create batches on SQLite. Each row
is consistent with what the remember path would store: `text` and `content_hash`
from apps.memory.content, `half_life_days` and `archive_due_at` from
apps.memory.scoring. Each run adds rows (tenants and scopes are reused by slug / key),
so benches can grow a dataset step by step.
"""

from apps.memory.generation.writers import Generated, generate

__all__ = ["Generated", "generate"]
