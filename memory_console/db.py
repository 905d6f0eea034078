"""Database helpers for the paths that run on every memory write, recall and API call.

Django compiles a query anew every time it runs one, which on these paths cost more CPU
than the database spent answering. Here the compiling is done once per process:

- `insert_rows`: each model's INSERT, filled as the compiler fills it (`pre_save` for
  auto_now fields, `get_db_prep_save` for JSON, UUIDs, foreign keys); on PostgreSQL
  related rows (an item and its first version) go as one statement, one round trip.
  It sends no model signals: this project keeps no logic in signals (ARCHITECTURE §1).
- `PrecompiledQuery`: a lookup written as a queryset, run with each call's values.

`advisory_lock` is the one lock that keeps two runs of a periodic job from overlapping.

`planned_for_each_call` undoes one side effect of prepared statements where it hurts.
`delete_by_keys` deletes a batch of rows set-based, one bound array per statement.
`relation_present` tells whether an optional extension's table or index was created.
"""

import threading
import zlib
from collections.abc import Collection, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.models import CASCADE, DEFERRED, SET_NULL, Field, Model, QuerySet


@cache
def _column(field: Field) -> str:
    """A concrete field's column name (only fields without a column have None)."""
    if field.column is None:
        raise ValueError(f"{field} has no database column.")
    return field.column


@cache
def _insert_plan(model: type[Model], using: str) -> tuple[str, str, tuple[Field, ...]]:
    """The INSERT of `model` (every concrete column but a database-generated key) and the
    placeholders of one row of its VALUES, built once per process."""
    meta = model._meta
    fields = tuple(
        field
        for field in meta.concrete_fields
        if not (field.primary_key and field.db_returning)  # AutoField: the sequence fills it
    )
    ops = connections[using].ops
    columns = ", ".join(ops.quote_name(_column(field)) for field in fields)
    table = ops.quote_name(meta.db_table)
    # Only the model's own table and column names are interpolated, quoted.
    sql = f"INSERT INTO {table} ({columns}) VALUES "  # noqa: S608
    return sql, "(" + ", ".join(["%s"] * len(fields)) + ")", fields


@cache
def _insert_many_plan(model: type[Model], using: str) -> tuple[str, tuple[Field, ...]]:
    """The INSERT of many rows of `model` on PostgreSQL, one typed array per column, built
    once per process. Its text does not grow with the rows: psycopg rewrites the `%s` of
    a query on every execute, and for a VALUES list of a hundred rows that took longer
    than everything else the insert costs."""
    sql, _, fields = _insert_plan(model, using)
    connection = connections[using]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
    # As Django's own bulk_create does on PostgreSQL; only the model's names and column
    # types are interpolated.
    insert = sql.removesuffix(" VALUES ")
    return f"{insert} SELECT * FROM unnest({arrays})", fields  # noqa: S608


def _insert_statements(
    instances: Sequence[Model], using: str
) -> list[tuple[str, list[Any], list[Model]]]:
    """(sql, values, rows) of each INSERT of these instances: consecutive instances of one
    model share one (on PostgreSQL, of one array per column)."""
    connection = connections[using]
    groups: list[tuple[type[Model], list[Model]]] = []
    for instance in instances:
        if groups and type(instance) is groups[-1][0]:
            groups[-1][1].append(instance)
        else:
            groups.append((type(instance), [instance]))
    statements: list[tuple[str, list[Any], list[Model]]] = []
    for model, rows in groups:
        if len(rows) > 1 and connection.vendor == "postgresql":
            sql, fields = _insert_many_plan(model, using)
            columns = [
                [
                    field.get_db_prep_save(
                        field.pre_save(instance, add=True), connection=connection
                    )
                    for instance in rows
                ]
                for field in fields
            ]
            statements.append((sql, columns, rows))
            continue
        sql, row_placeholders, fields = _insert_plan(model, using)
        values = [
            field.get_db_prep_save(field.pre_save(instance, add=True), connection=connection)
            for instance in rows
            for field in fields
        ]
        statements.append((sql + ", ".join([row_placeholders] * len(rows)), values, rows))
    return statements


def _ahead_of(statements: list[tuple[str, list[Any], list[Model]]], last: str) -> str:
    """`last` preceded by the INSERTs as data-modifying CTEs (PostgreSQL): one statement.

    They all run to completion, as one statement that fails or succeeds whole; Django
    declares foreign keys DEFERRABLE INITIALLY DEFERRED, so the rows may refer to each other.
    """
    head = ", ".join(f"row_{n} AS ({sql})" for n, (sql, _, _) in enumerate(statements))
    return f"WITH {head} {last}"


def _saved(instances: Sequence[Model], using: str) -> None:
    """Mark inserted instances as saved, so a later `save()` updates them."""
    for instance in instances:
        instance._state.adding = False
        instance._state.db = using


def insert_rows(*instances: Model, using: str = DEFAULT_DB_ALIAS) -> None:
    """Insert new model instances; on PostgreSQL all of them in one statement.

    Consecutive instances of one model go as one multi-row INSERT. Database-generated
    keys (an AutoField) are read back onto the rows of the last INSERT; on PostgreSQL the
    rows sent ahead of it in the one statement keep None, so put first only rows whose key
    the caller sets (a UUID) or does not need.
    """
    connection = connections[using]
    statements = _insert_statements(instances, using)
    if connection.vendor == "postgresql" and len(statements) > 1:
        *ahead, (last, _, last_rows) = statements
        values = [value for _, part, _ in statements for value in part]
        statements = [(_ahead_of(ahead, last), values, last_rows)]
    with connection.cursor() as cursor:
        # Each statement ends with the rows of its last INSERT.
        for sql, values, rows in statements:
            pk = rows[0]._meta.pk
            if pk.db_returning:  # PostgreSQL and SQLite ≥ 3.35 return columns from an insert
                cursor.execute(f"{sql} RETURNING {connection.ops.quote_name(_column(pk))}", values)
                # In the order of the VALUES, as Django's bulk_create relies on too.
                for instance, (key,) in zip(rows, cursor.fetchall(), strict=True):
                    instance.pk = key
            else:
                cursor.execute(sql, values)
    _saved(instances, using)


def insert_rows_then(
    query: str,
    params: Sequence[Any],
    *instances: Model,
    inserts: Sequence[tuple[str, Sequence[Any]]] = (),
    using: str = DEFAULT_DB_ALIAS,
) -> list[tuple]:
    """Insert new model instances, then run `query` (a SELECT) and return its rows; on
    PostgreSQL all in one statement (one round trip). No generated key is read back.

    `inserts`: (sql, params) of INSERTs into tables without a model (a derived index),
    run after the instances' and in the same statement.
    """
    connection = connections[using]
    statements = _insert_statements(instances, using)
    statements += [(sql, list(values), []) for sql, values in inserts]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and statements:
            values = [value for _, part, _ in statements for value in part]
            cursor.execute(_ahead_of(statements, query), [*values, *params])
        else:
            for sql, values, _ in statements:
                cursor.execute(sql, values)
            cursor.execute(query, params)
        rows = cursor.fetchall()
    _saved(instances, using)
    return rows


@contextmanager
def planned_for_each_call(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Statements in the block are planned by PostgreSQL for their actual values, every time.

    psycopg prepares the statements a connection repeats (DATABASE_PREPARE_THRESHOLD),
    and PostgreSQL may then settle on one generic plan: right for the gate's key lookups,
    wrong where the best plan depends on the values, as recall's text patterns over a
    large scope (the generic plan doubled the 50,000-item scope's p95). In the block
    psycopg prepares nothing, and an unnamed statement is planned with the values bound
    to it. It costs no statement (a transaction and a setting cost recall three round
    trips); blocks may nest.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    raw = connection.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = None
    try:
        yield
    finally:
        raw.prepare_threshold = threshold


def parse_timestamps_natively(cursor: Any) -> None:
    """Have this cursor (Django's, on PostgreSQL) parse `timestamptz` columns in C.

    Django pins the time zone with a subclass of psycopg's pure-Python loader
    (psycopg_any.BaseTzLoader); recall parses a few hundred last-access times per call,
    and that was a tenth of its client CPU. The C loader's datetimes carry the session's
    zone (UTC, which Django sets) instead of Django's tzinfo object: the same instants,
    so only for columns used in arithmetic, never handed to a model.
    """
    raw = getattr(cursor, "cursor", cursor)
    if _native_timestamptz_loader is not None and hasattr(raw, "adapters"):
        raw.adapters.register_loader("timestamptz", _native_timestamptz_loader)


def _find_native_timestamptz_loader() -> type | None:
    try:
        import psycopg
        from psycopg.pq import Format
    except ImportError:  # SQLite-only installs
        return None
    return psycopg.adapters.get_loader(psycopg.adapters.types["timestamptz"].oid, Format.TEXT)


_native_timestamptz_loader = _find_native_timestamptz_loader()


class Parameter(str):
    """Stands for a per-call value while a PrecompiledQuery's queryset is compiled."""


class PrecompiledQuery:
    """A queryset compiled by the ORM once per process, run with each call's values.

    Django compiles a queryset anew every time it is evaluated; for the lookups made on
    every request (the API key, the writable scope) that cost several times the query.
    The queryset is written as usual, so the rules stay the ORM's, with Parameter("name")
    where a per-call value goes; a value the ORM would refuse as a string (a user's
    integer key, a UUID) is given as a sentinel that `stand_ins` names, as the database
    receives it, and so is the call's value. Rows come back converted as the ORM converts
    them and split into instances of `models` (each with its join path), followed by the
    `extra` values; `deferred` fields are left out of the SELECT, as `QuerySet.defer` does.
    """

    def __init__(
        self,
        queryset: QuerySet,
        *,
        models: Sequence[tuple[type[Model], str]],
        extra: Sequence[str] = (),
        stand_ins: dict[Any, str] | None = None,
        deferred: Collection[str] = (),
        using: str = DEFAULT_DB_ALIAS,
    ):
        self.using = using
        # Each model's fields, in the order its slice of the row holds them, and the
        # places of its deferred fields among all of them.
        self.fields_of: list[tuple[type[Model], list[str], list[int]]] = []
        columns: list[str] = []
        for model, path in models:
            concrete = [field.attname for field in model._meta.concrete_fields]
            names = [name for name in concrete if name not in deferred]
            gaps = [place for place, name in enumerate(concrete) if name in deferred]
            self.fields_of.append((model, names, gaps))
            columns += [f"{path}{name}" for name in names]
        compiler = queryset.order_by().values_list(*columns, *extra).query.get_compiler(using)
        self.sql, template = compiler.as_sql()
        self.converters = compiler.get_converters([column for column, _, _ in compiler.select])
        stand_ins = stand_ins or {}
        # Each parameter becomes the name of the value it takes, or stays a constant.
        self.template = [
            (str(p), True)
            if isinstance(p, Parameter)
            else (stand_ins[p], True)
            if isinstance(p, Hashable) and p in stand_ins
            else (p, False)
            for p in template
        ]
        self.names = {name for name, named in self.template if named}
        # A stand-in may compile away (an admin's grant filter has no user in it).
        self.accepted = self.names | set(stand_ins.values())

    def bound(self, **values: Any) -> tuple[str, list[Any]]:
        """The query's SQL and its parameters for these values (to send it with others)."""
        # An unexpected name is also how a Parameter lost in compilation shows.
        if not self.names <= values.keys() <= self.accepted:
            raise TypeError(f"Expected values for {sorted(self.names)}, got {sorted(values)}.")
        return self.sql, [values[p] if named else p for p, named in self.template]

    def first(self, **values: Any) -> tuple | None:
        """The first row for these values: its model instances, then the extra values."""
        with connections[self.using].cursor() as cursor:
            cursor.execute(*self.bound(**values))
            row = cursor.fetchone()
        return None if row is None else self.loaded(row)

    def all(self, **values: Any) -> list[tuple]:
        """Every row for these values, each as `first` gives it."""
        with connections[self.using].cursor() as cursor:
            cursor.execute(*self.bound(**values))
            rows = cursor.fetchall()
        return [self.loaded(row) for row in rows]

    def loaded(self, row: Sequence[Any]) -> tuple:
        """A row of this query as `first` gives it: its model instances, then the extras."""
        connection = connections[self.using]
        row = list(row)
        for index, (functions, expression) in self.converters.items():
            for convert in functions:
                row[index] = convert(row[index], expression, connection)
        loaded, start = [], 0
        for model, names, gaps in self.fields_of:
            values = row[start : start + len(names)]
            # Every field's value, DEFERRED for those left out, as Model.from_db builds it
            # itself with a list search per field (most of loading a wide row).
            for place in gaps:
                values.insert(place, DEFERRED)
            loaded.append(model.from_db(self.using, names, values))
            start += len(names)
        return (*loaded, *row[start:])


def delete_by_keys(
    model: type[Model], keys: Sequence[Any], using: str = DEFAULT_DB_ALIAS
) -> int | None:
    """Delete rows by primary key on PostgreSQL as Django would, in one array-bound
    statement per incoming foreign key: CASCADE deletes, SET_NULL clears the link.

    Django's collector fetches the rows and binds one placeholder per key in each of its
    statements, which made a GDPR erasure batch five times slower (bench_privacy). Returns
    the rows deleted, or None where the collector is needed after all (another database,
    a cascade that itself has dependants, any other on_delete): the caller falls back.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    statements = []
    for relation in model._meta.related_objects:
        if relation.many_to_many or relation.field.model._meta.proxy:
            return None
        # Table and column names come from the models' own metadata, never from input.
        table, column = relation.related_model._meta.db_table, relation.field.column
        if relation.on_delete is SET_NULL:
            statements.append(f'UPDATE "{table}" SET "{column}" = NULL WHERE "{column}" = ANY(%s)')  # noqa: S608
        elif relation.on_delete is CASCADE and not relation.related_model._meta.related_objects:
            statements.append(f'DELETE FROM "{table}" WHERE "{column}" = ANY(%s)')  # noqa: S608
        else:
            return None
    meta = model._meta
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement, [list(keys)])
        cursor.execute(
            f'DELETE FROM "{meta.db_table}" WHERE "{meta.pk.column}" = ANY(%s)',  # noqa: S608
            [list(keys)],
        )
        return cursor.rowcount


# The first key of every job lock (two-key advisory locks live apart from the audit
# chain's one-key lock); the second key is a checksum of the lock's name.
_JOB_LOCK_NAMESPACE = 0x4D434A42  # "MCJB"
_local_locks: dict[str, threading.Lock] = {}
_local_locks_guard = threading.Lock()


def _signed_int32(value: int) -> int:
    return value - (1 << 32) if value >= 1 << 31 else value


@contextmanager
def advisory_lock(name: str, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[bool]:
    """Hold the lock called `name` for the body if no one else holds it; yield whether it did.

    On PostgreSQL a session-level advisory lock (pg_try_advisory_lock): it survives the
    body's own commits (a batched job commits per batch), never waits, and is released
    by the database when the holder's connection ends, so a killed worker leaves no
    stale lock. SQLite (the embedded default, tasks run in-process) gets a lock per
    process.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        with _local_locks_guard:
            lock = _local_locks.setdefault(name, threading.Lock())
        acquired = lock.acquire(blocking=False)
        try:
            yield acquired
        finally:
            if acquired:
                lock.release()
        return
    keys = [_JOB_LOCK_NAMESPACE, _signed_int32(zlib.crc32(name.encode()))]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", keys)
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", keys)
            except DatabaseError:
                # A broken transaction or connection: closing the connection frees it.
                connection.close()


_relations_present: dict[tuple[str, str], bool] = {}


def relation_present(relation: str, *, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether this PostgreSQL database holds the table or index `relation`, checked once per
    database and name: the objects migrations create only where an extension exists."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return False
    key = (connection.settings_dict["NAME"], relation)
    if key not in _relations_present:
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [relation])
            _relations_present[key] = bool(cursor.fetchone()[0])
    return _relations_present[key]
