"""Every record of a package, checked, in order: the first pass of a restore.

Scope records are kept (a few per scope); items are yielded one at a time. At the end the
counts are checked against the scope records and the header, so a package whose chunks
were dropped at a chunk boundary and re-authenticated cannot pass either.
"""

from collections.abc import Iterator

from apps.snapshots.package import PackageError
from apps.snapshots.package.records import (
    ItemRecord,
    Malformed,
    ScopeRecord,
    V1Upgrader,
    decode_line,
    malformed,
    parse_item,
    parse_scope,
)
from apps.snapshots.package.stream import PackageReader


def _int_count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PackageError(f"The header's {what} count is missing or invalid.")
    return value


def validated_records(reader: PackageReader) -> Iterator[ScopeRecord | ItemRecord]:
    """Scope and item records, each checked; raises PackageError naming the first problem."""
    counts = reader.header.get("counts")
    if not isinstance(counts, dict):
        raise PackageError("The header has no counts.")
    expected_items = _int_count(counts.get("items"), "items")
    upgrader = V1Upgrader() if reader.version == 1 else None
    scopes: dict[int, ScopeRecord] = {}
    seen: dict[int, int] = {}
    total = 0
    for chunk, line, raw in reader.lines():
        try:
            data = decode_line(raw)
            records = upgrader.upgrade(data) if upgrader else [data]
            for record in records:
                kind = record.get("t")
                if kind == "scope":
                    scope = parse_scope(record)
                    if scope.number in scopes:
                        raise Malformed(f"scope {scope.number} is declared twice")
                    scopes[scope.number] = scope
                    seen[scope.number] = 0
                    yield scope
                elif kind == "item":
                    item = parse_item(record)
                    if item.scope not in scopes:
                        raise Malformed(f"the item names scope {item.scope}, not declared before")
                    seen[item.scope] += 1
                    total += 1
                    yield item
                else:
                    raise Malformed(f"unknown record type {kind!r}")
        except Malformed as error:
            raise malformed(error, chunk=chunk, line=line) from None
    if total != expected_items:
        raise PackageError(
            f"The package holds {total} items but its header counts {expected_items}: "
            "items are missing or were added.",
            code="count_mismatch",
        )
    if reader.version >= 2:
        expected_scopes = _int_count(counts.get("scopes"), "scopes")
        if len(scopes) != expected_scopes:
            raise PackageError(
                f"The package declares {len(scopes)} scopes but its header counts "
                f"{expected_scopes}.",
                code="count_mismatch",
            )
    for number, scope in scopes.items():
        if scope.items >= 0 and seen[number] != scope.items:
            raise PackageError(
                f"Scope record {number} counts {scope.items} items but the package holds "
                f"{seen[number]}.",
                code="count_mismatch",
            )
