"""The restore's staging area: two temporary tables of the database session.

Pass 1 writes every judged item here (COPY on PostgreSQL, batched inserts elsewhere), so
the package is read once and held on disk, not in memory; the dry run classifies the
rows with set-based SQL against the tenant's items, and the apply copies them into the
items and versions tables with INSERT … SELECT. The tables live only as long as the
database session (and are dropped when the restore ends), so no staged content outlives
it: an erasure never has to look here.

Column types come from the MemoryItem fields they feed, so the apply's INSERT … SELECT
copies them unchanged. On PostgreSQL a batch of judged rows travels as the text of a COPY
(formatted where it was judged, in a worker process: the restoring process only passes
it on); elsewhere rows are prepared by the fields themselves (`get_db_prep_save`).
"""

import json
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any

from django.db import connection, models

from apps.memory.models import MemoryItem

STAGING, SCOPES = "snapshot_staging", "snapshot_scopes"
_BATCH = 2000

_ITEM_COLUMNS = (
    "id", "memory_type", "category", "key", "content", "text", "content_hash", "source",
    "source_kind", "run_id", "importance", "half_life_days", "confidence", "last_access_at",
    "access_count", "archive_due_at", "expires_at", "status", "created_at", "sensitive",
    "sealed_content", "flags", "metadata",
)  # fmt: skip
_EXTRA: dict[str, models.Field] = {
    "seq": models.BigIntegerField(),
    "scope_no": models.IntegerField(),
    "old_id": models.UUIDField(),
    "superseded_old": models.UUIDField(null=True),
    "outcome": models.CharField(max_length=16),
    # Recall's lexemes with the scope left as a placeholder (the scope may not exist yet):
    # apps.memory.recall.lexemes.stored_lexemes; NULL where that index is absent.
    "recall_lexemes": models.TextField(null=True),
}


def _item_field(name: str) -> models.Field:
    field = MemoryItem._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


# Staged columns in COPY order: the extras, then the item's own (its id is the new id).
COLUMNS: tuple[str, ...] = (*_EXTRA, *_ITEM_COLUMNS)
_FIELDS: dict[str, models.Field] = {
    **_EXTRA,
    **{name: _item_field(name) for name in _ITEM_COLUMNS},
}
_JSON_COLUMNS = frozenset({"content", "flags", "metadata"})
_JOINED_COLUMNS = (
    "seq", "scope_no", "old_id", "superseded_old", "outcome", "id", "memory_type", "category",
    "key", "content_hash", "status",
)  # fmt: skip
SCOPE_COLUMNS = ("scope_no", "kind", "external_id", "subject", "scope_id")


def _column_type(field: models.Field) -> str:
    db_type = field.db_type(connection)
    assert db_type is not None
    return db_type


def _create_tables() -> None:
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(name)} {_column_type(_FIELDS[name])}" for name in COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {STAGING}")
        cursor.execute(f"DROP TABLE IF EXISTS {SCOPES}")
        cursor.execute(f"CREATE TEMPORARY TABLE {STAGING} ({columns})")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {SCOPES} (scope_no integer PRIMARY KEY, "
            "kind varchar(16), external_id varchar(200), subject varchar(200), scope_id bigint)"
        )


def _drop_tables() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {STAGING}")
        cursor.execute(f"DROP TABLE IF EXISTS {SCOPES}")


def index_tables() -> None:
    """Indexes for the dry run's and the apply's joins (built once, after the load)."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE INDEX snapshot_staging_hash ON {STAGING} (scope_no, content_hash)")
        cursor.execute(f"CREATE INDEX snapshot_staging_old ON {STAGING} (old_id)")
        if connection.vendor == "postgresql":
            # Statistics of the columns the dry run and the apply join and filter on; the
            # wide ones (content, text) would only cost the sampling.
            cursor.execute(f"ANALYZE {STAGING} ({', '.join(_JOINED_COLUMNS)})")


@contextmanager
def staging_tables() -> Iterator["StagingWriter"]:
    """Fresh staging tables for one restore; dropped when it ends, whatever happens."""
    _create_tables()
    writer = StagingWriter()
    try:
        yield writer
    finally:
        writer.abort()
        _drop_tables()


# COPY's text format: a backslash, tab, newline or carriage return in a value is escaped;
# \N is NULL.
_COPY_SPECIAL = re.compile(r"[\\\t\n\r]")
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_in_copy_order = itemgetter(*COLUMNS)


def _json_text(value: Any) -> str:
    """A JSON column's value as the text the field would write (empty ones without the
    encoder: most items have no metadata or flags)."""
    if not value:
        if value == {}:
            return "{}"
        if value == []:
            return "[]"
    return json.dumps(value)


def _json_field(value: Any) -> str:
    """A JSON column's value as COPY text: JSON text holds no raw tab or line break (the
    encoder escapes them), only the backslashes of its own escapes."""
    text = _json_text(value)
    return text.replace("\\", "\\\\") if "\\" in text else text


def _copy_text(value: Any) -> str:
    """A value of a type `_FORMAT` does not list as COPY text."""
    if isinstance(value, str):  # a str subclass: a choices enum, say
        return str.translate(str(value), _COPY_ESCAPES)
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)  # int, float (its repr), UUID


# The COPY text of the staged values' types other than str, looked up by exact type (an
# isinstance chain per value cost more than the formatting); the JSON columns hold dicts
# (content, metadata) and lists (flags), and no other column does. Other types, str
# subclasses among them, go through `_copy_text`.
_FORMAT: dict[type, Callable[[Any], str]] = {
    dict: _json_field,
    list: _json_field,
    int: int.__repr__,
    float: float.__repr__,
    bool: {True: "t", False: "f"}.__getitem__,
    datetime: datetime.isoformat,
    uuid.UUID: uuid.UUID.__str__,
}


def copy_line(values: dict[str, Any]) -> str:
    """One staged row as a line of COPY text, in COPY order (`values` holds every column)."""
    special = _COPY_SPECIAL.search
    format_of = _FORMAT.get
    fields = [
        (value.translate(_COPY_ESCAPES) if special(value) else value)
        if type(value) is str
        else "\\N"
        if value is None
        else (format_of(type(value)) or _copy_text)(value)
        for value in _in_copy_order(values)
    ]
    return "\t".join(fields) + "\n"


def prepared_row(values: dict[str, Any]) -> tuple[Any, ...]:
    """A staged row's values in COPY order, each prepared by its field for the database
    (the batched inserts of databases other than PostgreSQL)."""
    return tuple(
        _FIELDS[name].get_db_prep_save(values.get(name), connection=connection) for name in COLUMNS
    )


@dataclass
class RowBlock:
    """Judged rows ready for the staging table, as small to hand between processes as
    they can be: the text of a COPY on PostgreSQL, prepared tuples elsewhere."""

    copy_text: bytes = b""
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    count: int = 0


def row_block(rows: Iterable[dict[str, Any]]) -> RowBlock:
    """The staging rows (each with every column) as one block for `StagingWriter.add`."""
    if connection.vendor == "postgresql":
        lines = [copy_line(values) for values in rows]
        return RowBlock(copy_text="".join(lines).encode(), count=len(lines))
    prepared = [prepared_row(values) for values in rows]
    return RowBlock(rows=prepared, count=len(prepared))


class StagingWriter:
    """Appends blocks of rows: one COPY per few blocks on PostgreSQL (the connection stays
    free for the stages' own queries between them), batched inserts elsewhere."""

    def __init__(self) -> None:
        self.blocks: list[RowBlock] = []
        self.buffered = 0
        self.count = 0

    def add(self, block: RowBlock) -> None:
        """Stage a block of rows (from `row_block`)."""
        self.blocks.append(block)
        self.buffered += block.count
        self.count += block.count
        if self.buffered >= _BATCH:
            self.finish()

    def finish(self) -> None:
        """Write what is buffered (every few blocks, and at the end of pass 1)."""
        if not self.buffered:
            self.blocks = []
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                statement = f"COPY {STAGING} ({', '.join(COLUMNS)}) FROM STDIN"
                with cursor.cursor.copy(statement) as copy:
                    for block in self.blocks:
                        copy.write(block.copy_text)
            else:
                placeholders = ", ".join(["%s"] * len(COLUMNS))
                cursor.executemany(
                    f"INSERT INTO {STAGING} ({', '.join(COLUMNS)}) VALUES ({placeholders})",  # noqa: S608
                    [row for block in self.blocks for row in block.rows],
                )
        self.blocks, self.buffered = [], 0

    def abort(self) -> None:
        self.blocks, self.buffered = [], 0


def add_scopes(rows: Sequence[tuple[int, str, str, str, int | None]]) -> None:
    """The target scopes (number, kind, external id, subject, existing scope id or None)."""
    placeholders = ", ".join(["%s"] * len(SCOPE_COLUMNS))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), _BATCH):
            cursor.executemany(
                f"INSERT INTO {SCOPES} ({', '.join(SCOPE_COLUMNS)}) VALUES ({placeholders})",  # noqa: S608
                list(rows[start : start + _BATCH]),
            )


def fetch_in_batches(sql: str, params: Sequence[Any] = ()) -> Iterator[list[tuple]]:
    """Rows of a query, a batch at a time from a server-side cursor on PostgreSQL (memory
    stays flat however many rows match)."""
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while True:
            rows = cursor.fetchmany(_BATCH)
            if not rows:
                return
            yield rows
