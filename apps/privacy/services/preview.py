"""What an erasure will remove, counted per table, and the residue scan (ARCHITECTURE §8).

The target of an erasure is every scope of the tenant whose subject is the request's
subject (a user scope and that user's session scopes share it), plus the residue items
the officer chose. The residue scan looks for the subject and every identifier in the
content (its text rendering), key, source and run id of the tenant's items in other
scopes, through trigram indexes (memory.0002 on the text, privacy.0002 on the
provenance), so it stays fast on large tenants. Sealed originals cannot be searched:
the preview says how many there are.
"""

import uuid
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q

from apps.memory.models import MemoryItem
from apps.privacy.models import DeletionRequest
from apps.privacy.services.dependants import count_dependants
from apps.privacy.services.identifiers import mask, search_terms, subject_of
from apps.tenancy.models import Scope, ScopeKind

RESIDUE_LIMIT = 500
# The provenance columns the residue scan reads, in the order of its trigram index.
PROVENANCE_SQL = "(key || ' ' || source || ' ' || run_id)"


@dataclass(frozen=True)
class ErasureTarget:
    """The rows an erasure removes: the subject's scopes and the chosen residue items."""

    tenant_id: int
    scope_ids: tuple[int, ...]
    residue_ids: tuple[uuid.UUID, ...] = ()

    def items(self):
        """The target's memory items (any status)."""
        where = Q(scope_id__in=self.scope_ids)
        if self.residue_ids:
            where |= Q(id__in=self.residue_ids)
        return MemoryItem.objects.filter(Q(tenant_id=self.tenant_id) & where)


@dataclass
class Residue:
    memory_id: str
    scope: str
    matched: list[str]
    terms: list[str] = field(default_factory=list)


@dataclass
class Preview:
    tables: dict[str, int]
    residue: list[Residue]
    residue_truncated: bool
    sealed_unscannable: int
    notes: list[str]


def subject_scopes(*, tenant_id: int, subject: str):
    """Scopes of the tenant about this subject (a user scope is about its own id)."""
    return Scope.objects.filter(tenant_id=tenant_id).filter(
        Q(subject=subject) | Q(kind=ScopeKind.USER, external_id=subject)
    )


def parse_memory_id(value: str) -> uuid.UUID:
    """`mem_<hex>` or a plain UUID; raises ValueError otherwise."""
    text = str(value).strip()
    return uuid.UUID(text[4:] if text.startswith("mem_") else text)


def target_of(request: DeletionRequest) -> ErasureTarget:
    """The erasure target of an open request, as the database stands now."""
    scope_ids = subject_scopes(tenant_id=request.tenant_id, subject=subject_of(request))
    residue = tuple(parse_memory_id(value) for value in request.residue_ids)
    return ErasureTarget(
        tenant_id=request.tenant_id,
        scope_ids=tuple(scope_ids.values_list("pk", flat=True)),
        residue_ids=residue,
    )


def count_target(target: ErasureTarget) -> dict[str, int]:
    """Rows per table that hold the target's data (what the erasure will delete)."""
    items = target.items()
    return {
        MemoryItem._meta.db_table: items.count(),
        **count_dependants(items=items.values("pk"), scope_ids=target.scope_ids),
        Scope._meta.db_table: Scope.objects.filter(pk__in=target.scope_ids).count(),
    }


def table_counts(request: DeletionRequest) -> dict[str, int]:
    """Per-table counts for an open request (stored at approval and at execution)."""
    return count_target(target_of(request))


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _residue_rows(*, tenant_id: int, scope_ids: tuple[int, ...], terms: list[str]) -> list[tuple]:
    """Items of the tenant outside `scope_ids` mentioning any term (at most LIMIT + 1)."""
    table = MemoryItem._meta.db_table
    operator = "ILIKE" if connection.vendor == "postgresql" else "LIKE"  # SQLite: no case
    conditions, params = [], []
    for term in terms:
        pattern = _like_pattern(term)
        conditions.append(
            f"text {operator} %s ESCAPE '\\' OR {PROVENANCE_SQL} {operator} %s ESCAPE '\\'"
        )
        params += [pattern, pattern]
    outside = ""
    if scope_ids:
        outside = f"AND scope_id NOT IN ({', '.join(['%s'] * len(scope_ids))})"
    sql = (
        f"SELECT id, scope_id, text, key, source, run_id FROM {table} "  # noqa: S608 - own table
        f"WHERE tenant_id = %s {outside} AND ({' OR '.join(conditions)}) "
        f"ORDER BY id LIMIT {RESIDUE_LIMIT + 1}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, *scope_ids, *params])
        return cursor.fetchall()


def residue_scan(*, tenant_id: int, scope_ids: tuple[int, ...], terms: list[str]):
    """(residue found, whether the list was cut at RESIDUE_LIMIT)."""
    if not terms:
        return [], False
    rows = _residue_rows(tenant_id=tenant_id, scope_ids=scope_ids, terms=terms)
    truncated = len(rows) > RESIDUE_LIMIT
    rows = rows[:RESIDUE_LIMIT]
    scopes = dict(
        (pk, f"{kind}:{external_id}")
        for pk, kind, external_id in Scope.objects.filter(
            pk__in={row[1] for row in rows}
        ).values_list("pk", "kind", "external_id")
    )
    found = []
    for item_id, scope_id, text, key, source, run_id in rows:
        columns = {"content": text, "key": key, "source": source, "run_id": run_id}
        matched, matched_terms = [], []
        for term in terms:
            needle = term.lower()
            hits = [name for name, value in columns.items() if needle in (value or "").lower()]
            if hits:
                matched_terms.append(mask(term))
                matched += [name for name in hits if name not in matched]
        if matched:
            memory_id = f"mem_{uuid.UUID(str(item_id)).hex}"
            found.append(Residue(memory_id, scopes.get(scope_id, ""), matched, matched_terms))
    return found, truncated


def sealed_outside(*, tenant_id: int, scope_ids: tuple[int, ...], cap: int = 10_000) -> int:
    """Sealed items of the tenant outside the target (capped): their originals are not
    searched, only their redacted rendering."""
    sealed = MemoryItem.objects.filter(tenant_id=tenant_id, sensitive=True).exclude(
        sealed_content=""
    )
    if scope_ids:
        sealed = sealed.exclude(scope_id__in=scope_ids)
    return sealed.order_by().values("pk")[:cap].count()


def preview_request(request: DeletionRequest) -> Preview:
    """Per-table counts and the residue scan for an open request."""
    if not request.subject_sealed:  # closed: nothing left to find
        return Preview(request.erased_counts or request.preview_counts, [], False, 0, [])
    target = target_of(request)
    residue, truncated = residue_scan(
        tenant_id=target.tenant_id, scope_ids=target.scope_ids, terms=search_terms(request)
    )
    sealed = sealed_outside(tenant_id=target.tenant_id, scope_ids=target.scope_ids)
    notes = []
    if sealed:
        notes.append(
            f"{sealed} sealed (encrypted) item(s) in other scopes were searched through their "
            "redacted text only: their encrypted originals cannot be scanned."
        )
    if truncated:
        notes.append(f"Only the first {RESIDUE_LIMIT} residue items are listed.")
    return Preview(count_target(target), residue, truncated, sealed, notes)
