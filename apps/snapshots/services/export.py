"""Export: a tenant's memory (or chosen scopes) written as a MemoryPackage, streamed.

The counts in the header and the rows after it come from one read-only REPEATABLE READ
transaction, so they agree even while agents keep writing. On PostgreSQL the database
renders each item's JSON line itself (json_build_object) and streams them with COPY,
which is what lets export keep ahead of 30,000 items/s (bench/bench_snapshots.py).
Sealed content (encrypt policy) is unsealed into the package, which is itself encrypted;
the target's policy seals it again on restore. Embeddings are never exported.
"""

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from typing import IO, Any

from django.db import connection, transaction
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.errors import ServiceError
from apps.core.types import Actor
from apps.memory import crypto
from apps.memory.models import MemoryItem
from apps.snapshots.package import FORMAT_NAME, FORMAT_VERSION
from apps.snapshots.package.records import EXPORTED_STATUSES
from apps.snapshots.package.stream import PackageWriter
from apps.tenancy.models import Scope, Tenant

Progress = Callable[[int, int], None]
_FETCH = 5000
# (JSON member, column) of an item record, in order; json_build_object takes ≤ 100 args.
_ITEM_MEMBERS = (
    ("s", "scope_id"), ("id", "id"), ("memory_type", "memory_type"), ("category", "category"),
    ("key", "key"), ("content", "content"), ("source", "source"),
    ("source_kind", "source_kind"), ("run_id", "run_id"), ("importance", "importance"),
    ("half_life_days", "half_life_days"), ("confidence", "confidence"),
    ("last_access_at", "last_access_at"), ("access_count", "access_count"),
    ("expires_at", "expires_at"), ("status", "status"), ("superseded_by", "superseded_by_id"),
    ("created_at", "created_at"), ("sensitive", "sensitive"), ("metadata", "metadata"),
)  # fmt: skip


class UnknownScope(ServiceError):
    code = "not_found"
    status = 404


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote: counts and size, never content."""

    items: int
    scopes: int
    bytes: int
    key: str  # "installation" or "passphrase"


def exporter_version() -> str:
    try:
        return f"memory-console {metadata.version('memory-console')}"
    except metadata.PackageNotFoundError:
        return "memory-console"


def _chosen_scopes(tenant: Tenant, scope_keys: list[str]) -> list[int] | None:
    if not scope_keys:
        return None
    ids = []
    for key in scope_keys:
        kind, _, external_id = key.partition(":")
        found = Scope.objects.filter(tenant=tenant, kind=kind, external_id=external_id)
        scope_id = found.values_list("pk", flat=True).first()
        if scope_id is None:
            raise UnknownScope(f"The tenant {tenant.slug} has no scope {key!r}.")
        ids.append(scope_id)
    return ids


def _read_only_snapshot(*, outermost: bool) -> None:
    """One snapshot of the data for the counts and the rows (inside a caller's own
    transaction, that transaction's view is used as it is)."""
    if connection.vendor == "postgresql" and outermost:
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def _item_filter(tenant: Tenant, scope_ids: list[int] | None) -> tuple[str, list[Any]]:
    where = "tenant_id = %s AND status IN (" + ", ".join(["%s"] * len(EXPORTED_STATUSES)) + ")"
    params: list[Any] = [tenant.pk, *[str(status) for status in EXPORTED_STATUSES]]
    if scope_ids is not None:
        where += " AND scope_id IN (" + ", ".join(["%s"] * len(scope_ids)) + ")"
        params += scope_ids
    return where, params


def _item_lines(where: str, params: list[Any]) -> Iterator[bytes]:
    """Yield each exported item's JSON line, encoded and ending with a newline."""
    table = MemoryItem._meta.db_table
    postgresql = connection.vendor == "postgresql"
    if postgresql:
        yield from _copied_lines(where, params)
        # Sealed items, few: their content is unsealed here, so their lines are rebuilt.
        where += " AND sealed_content <> ''"
        members = ", ".join(f"'{name}', {column}" for name, column in _ITEM_MEMBERS)
        sql = (
            f"SELECT json_build_object('t', 'item', {members})::text, sealed_content "  # noqa: S608
            f"FROM {table} WHERE {where}"
        )
    else:
        columns = ", ".join(column for _, column in _ITEM_MEMBERS)
        sql = f"SELECT {columns}, sealed_content FROM {table} WHERE {where}"  # noqa: S608
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(_FETCH):
            for row in rows:
                if postgresql:
                    line, sealed = row
                else:
                    line, sealed = _portable_line(row[:-1]), row[-1]
                if sealed:
                    data = json.loads(line)
                    data["content"] = crypto.unseal_content(sealed)
                    line = json.dumps(data, ensure_ascii=False)
                yield (line + "\n").encode()


# COPY's text format puts a backslash before a backslash (and before the control
# characters, which JSON text never holds raw: its strings escape them).
_COPY_ESCAPED = re.compile(rb"\\(.)", re.DOTALL)
_COPY_UNESCAPED = {
    b"\\": b"\\", b"n": b"\n", b"t": b"\t", b"r": b"\r", b"b": b"\b", b"f": b"\f",
    b"v": b"\v",
}  # fmt: skip


def _copy_unescaped(match: re.Match) -> bytes:
    return _COPY_UNESCAPED[match[1]]


def _copied_lines(where: str, params: list[Any]) -> Iterator[bytes]:
    """The unsealed items' lines, rendered by PostgreSQL (json_build_object) and streamed
    by COPY: the server renders the next rows while this process packs the last ones,
    where a cursor's batches left each side waiting for the other."""
    members = ", ".join(f"'{name}', {column}" for name, column in _ITEM_MEMBERS)
    sql = (
        f"COPY (SELECT json_build_object('t', 'item', {members})::text "  # noqa: S608
        f"FROM {MemoryItem._meta.db_table} WHERE {where} AND sealed_content = '') TO STDOUT"
    )
    with connection.cursor() as cursor, cursor.cursor.copy(sql, params) as copy:
        for row in copy:
            line = bytes(row)
            yield _COPY_ESCAPED.sub(_copy_unescaped, line) if b"\\" in line else line


def _portable_line(values: tuple) -> str:
    """The item's JSON line built in Python (databases without json_build_object)."""
    data: dict[str, Any] = {"t": "item"}
    for (name, _), value in zip(_ITEM_MEMBERS, values, strict=True):
        if name in {"content", "metadata"} and isinstance(value, str):
            value = json.loads(value)
        elif hasattr(value, "isoformat"):
            value = value.isoformat()
        elif name in {"id", "superseded_by"} and value is not None:
            value = str(value)
        data[name] = value
    data["sensitive"] = bool(data["sensitive"])
    return json.dumps(data, ensure_ascii=False)


def export_snapshot(
    *,
    tenant: Tenant,
    out: IO[bytes],
    actor: Actor,
    scope_keys: list[str] | None = None,
    passphrase: str | None = None,
    progress: Progress | None = None,
) -> ExportResult:
    """Write the tenant's memory (all of it, or the chosen scopes) to `out` as a package."""
    scope_ids = _chosen_scopes(tenant, scope_keys or [])
    where, params = _item_filter(tenant, scope_ids)
    table = MemoryItem._meta.db_table
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        _read_only_snapshot(outermost=outermost)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT scope_id, count(*) FROM {table} WHERE {where} GROUP BY scope_id",  # noqa: S608
                params,
            )
            per_scope = dict(cursor.fetchall())
        total = sum(per_scope.values())
        header = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "exporter": exporter_version(),
            "created_at": timezone.now().isoformat(),
            "tenant": tenant.slug,
            "scopes": {"selection": "chosen" if scope_ids else "all", "count": len(per_scope)},
            "counts": {"items": total, "scopes": len(per_scope)},
            "statuses": [str(status) for status in EXPORTED_STATUSES],
            "chunks": {"compression": "zlib", "cipher": "AES-256-GCM", "nonce": "counter"},
        }
        writer = PackageWriter(out, header=header, passphrase=passphrase)
        scopes = Scope.objects.filter(pk__in=list(per_scope)).order_by("pk")
        for scope in scopes.only("pk", "kind", "external_id", "subject").iterator(_FETCH):
            record_line = {
                "t": "scope",
                "n": scope.pk,
                "kind": scope.kind,
                "external_id": scope.external_id,
                "subject": scope.subject,
                "items": per_scope[scope.pk],
            }
            writer.write_line(json.dumps(record_line, ensure_ascii=False))
        done = 0
        for line in _item_lines(where, params):
            writer.write_encoded(line)
            done += 1
            if progress is not None and done % _FETCH == 0:
                progress(done, total)
        writer.close()
    if progress is not None:
        progress(done, total)
    result = ExportResult(
        items=done,
        scopes=len(per_scope),
        bytes=writer.bytes_written,
        key=writer.header["key"]["wrap"],
    )
    with transaction.atomic():
        record(
            actor=actor,
            action=Action.SNAPSHOT_EXPORTED,
            target=tenant,
            tenant=tenant,
            data={
                "items": result.items,
                "scopes": result.scopes,
                "bytes": result.bytes,
                "key": result.key,
                "key_id": writer.header["key"].get("key_id", ""),
                "chosen_scopes": len(scope_ids or []),
            },
        )
    return result
