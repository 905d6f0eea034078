"""Restore, pass 1 and the dry run: read and check the whole package before anything is
written, judge every item with the gate's stages, stage it, and classify it.

Pass 1 decrypts and parses every chunk and record (a PackageError names the first
problem, and nothing has been written); applies the scope mapping; keeps out every
item whose original or mapped subject or scope key is on the denylist (of the target
tenant, and of the source tenant when it lives here too); and runs the remember gate's
validate stage and content stages (sensitive data, injection: the stage objects the
composition root installed) over each item, so a hostile text is held in quarantine
and a secret redacted or sealed exactly as on a write (services/screening.py: across a
pool of worker processes for a large package). The judged rows go to the staging
tables (services/staging.py); `classify` then marks each as new, duplicate or
conflicting with set-based SQL, and `dry_run_report` counts them per scope.
"""

import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import connection

from apps.audit.hashing import keyed_hash
from apps.core.types import Actor
from apps.memory.models import MemoryItem, MemoryStatus
from apps.privacy.selectors import denylisted_among
from apps.snapshots.package.read import validated_records
from apps.snapshots.package.records import ScopeRecord
from apps.snapshots.package.stream import PackageReader
from apps.snapshots.services import screening, staging
from apps.snapshots.services.mapping import Mapping
from apps.tenancy.models import Scope, ScopeKind, Tenant

Progress = Callable[[int, int], None]
# Scopes listed one by one in a dry-run report (the totals always count every scope).
REPORT_SCOPES = 500


@dataclass
class TargetScope:
    """Where a package scope lands: the mapped key, its subject, and whether it is erased."""

    number: int
    kind: str
    external_id: str
    subject: str
    scope: Scope  # saved when it exists already, else unsaved (created by the apply)
    denylisted: bool
    # Every subject and scope key, original and mapped, that lands here (denylist checks).
    identities: set[str] = field(default_factory=set)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.external_id}"

    def landing(self) -> screening.Landing:
        """What judging an item bound here needs to know of this target."""
        return screening.Landing(
            number=self.number,
            scope_id=self.scope.pk,
            kind=self.kind,
            external_id=self.external_id,
            subject=self.subject,
        )


@dataclass
class Staged:
    """What pass 1 read and staged (counts only; the rows are in the staging tables)."""

    header: dict[str, Any]
    version: int
    items: int = 0
    targets: dict[str, TargetScope] = field(default_factory=dict)
    resolver: "ScopeResolver | None" = None
    denylisted: int = 0
    refused: Counter = field(default_factory=Counter)


class ScopeResolver:
    """Maps package scopes onto the target tenant and checks them against the denylist.

    Scope records are resolved a run at a time, when the first item after them asks for
    its target: a package lists its scopes before their items, so the existing scopes
    and the denylist are asked once for all of them rather than once per scope (the
    restoring process waited on those round trips while the workers sat idle)."""

    def __init__(self, *, tenant: Tenant, mapping: Mapping, source_slug: str):
        self.tenant = tenant
        self.mapping = mapping
        self.tenant_ids = [tenant.pk]
        source = Tenant.objects.filter(slug=source_slug).exclude(pk=tenant.pk).first()
        if source is not None:
            # An erasure in the tenant the package came from keeps the person out too.
            self.tenant_ids.append(source.pk)
        self.targets: dict[str, TargetScope] = {}
        self.by_number: dict[int, TargetScope] = {}
        self.pending: list[ScopeRecord] = []

    def erased(self, targets: Iterable[TargetScope]) -> set[int]:
        """The numbers of the targets any of whose identities is denylisted (asked now)."""
        targets = list(targets)
        digest_of = {value: keyed_hash(value) for t in targets for value in t.identities if value}
        digests = sorted(set(digest_of.values()))
        found: set[str] = set()
        for tenant_id in self.tenant_ids:
            for start in range(0, len(digests), _DIGESTS_PER_QUERY):
                chunk = set(digests[start : start + _DIGESTS_PER_QUERY])
                found |= denylisted_among(tenant_id=tenant_id, digests=chunk)
        return {
            target.number
            for target in targets
            if any(digest_of[value] in found for value in target.identities if value)
        }

    def add(self, record: ScopeRecord) -> None:
        """Note a scope record; it is resolved with the rest of its run (a long run a
        thousand at a time, so memory stays bounded)."""
        self.pending.append(record)
        if len(self.pending) >= _SCOPES_PER_QUERY:
            self.resolve()

    def target_of(self, number: int) -> TargetScope:
        """Where the items of package scope `number` land."""
        if self.pending:
            self.resolve()
        return self.by_number[number]

    def resolve(self) -> None:
        """Map the pending scope records, find the scopes that exist already and ask the
        denylist about every identity landing in the targets they touch."""
        placed = [(record, *self._mapped(record)) for record in self.pending]
        self.pending = []
        new_targets = {(kind, ext) for _, key, kind, ext, _ in placed if key not in self.targets}
        existing = self._existing(new_targets)
        touched: dict[str, TargetScope] = {}
        for record, new_key, kind, external_id, subject in placed:
            target = self.targets.get(new_key)
            if target is None:
                scope = existing.get((kind, external_id)) or Scope(
                    tenant=self.tenant, kind=kind, external_id=external_id, subject=subject
                )
                target = TargetScope(
                    number=len(self.targets),
                    kind=kind,
                    external_id=external_id,
                    subject=scope.subject,
                    scope=scope,
                    denylisted=False,
                )
                self.targets[new_key] = target
            target.identities |= {record.key, record.subject, new_key, subject, target.subject}
            self.by_number[record.number] = target
            touched[new_key] = target
        erased = self.erased(touched.values())
        for target in touched.values():
            target.denylisted = target.number in erased

    def _mapped(self, record: ScopeRecord) -> tuple[str, str, str, str]:
        """The record's target key, kind, external id and subject under the mapping."""
        new_key = self.mapping.scopes.get(record.key, record.key)
        kind, _, external_id = new_key.partition(":")
        subject = self.mapping.subjects.get(record.subject, record.subject)
        if (
            new_key != record.key
            and record.subject not in self.mapping.subjects
            and record.kind == ScopeKind.USER
            and record.subject == record.external_id
        ):
            subject = external_id  # a user scope is about its user (create_scope's default)
        return new_key, kind, external_id, subject

    def _existing(self, keys: set[tuple[str, str]]) -> dict[tuple[str, str], Scope]:
        """The tenant's scopes among these (kind, external id) pairs."""
        found: dict[tuple[str, str], Scope] = {}
        external_ids = sorted({external_id for _, external_id in keys})
        for start in range(0, len(external_ids), _SCOPES_PER_QUERY):
            scopes = Scope.objects.filter(
                tenant=self.tenant, external_id__in=external_ids[start : start + _SCOPES_PER_QUERY]
            ).select_related("tenant")
            for scope in scopes:
                if (scope.kind, scope.external_id) in keys:
                    found[(scope.kind, scope.external_id)] = scope
        return found


# Values per IN list of the resolver's lookups.
_SCOPES_PER_QUERY = 1000
_DIGESTS_PER_QUERY = 1000


def stage_package(
    *,
    stream: IO[bytes],
    tenant: Tenant,
    mapping: Mapping,
    passphrase: str | None,
    actor: Actor,
    writer: staging.StagingWriter,
    progress: Progress | None = None,
) -> Staged:
    """Pass 1: read and check every record, judge and stage every item (no domain write)."""
    reader = PackageReader(stream, passphrase=passphrase)
    header = reader.header
    staged = Staged(header=header, version=reader.version)
    total = int(header["counts"]["items"]) if isinstance(header.get("counts"), dict) else 0
    resolver = ScopeResolver(tenant=tenant, mapping=mapping, source_slug=str(header.get("tenant")))
    judge = screening.Judge(screening.pool_size(total))
    restore = uuid.uuid4().hex
    batch = screening.Batch(tenant=tenant, actor=actor, restore=restore)

    def stage(judged: screening.Judged) -> None:
        staged.refused.update(judged.refused)
        writer.add(judged.rows)

    try:
        for record in validated_records(reader):
            if isinstance(record, ScopeRecord):
                resolver.add(record)
                continue
            staged.items += 1
            target = resolver.target_of(record.scope)
            if target.denylisted:
                staged.denylisted += 1  # never staged: nothing of an erased person is kept
            else:
                batch.add(staged.items, record, target)
                if len(batch.items) >= screening.BATCH_ITEMS:
                    for judged in judge.submit(batch):
                        stage(judged)
                    batch = screening.Batch(tenant=tenant, actor=actor, restore=restore)
            if progress is not None and staged.items % 5000 == 0:
                progress(staged.items, total)
        if batch.items:
            for judged in judge.submit(batch):
                stage(judged)
        for judged in judge.finish():
            stage(judged)
    finally:
        judge.close()
    resolver.resolve()  # scope records after the last item (scopes without items)
    writer.finish()
    staged.targets, staged.resolver = resolver.targets, resolver
    staging.add_scopes(
        [
            (t.number, t.kind, t.external_id, t.subject, t.scope.pk)
            for t in resolver.targets.values()
            if not t.denylisted
        ]
    )
    staging.index_tables()
    if progress is not None:
        progress(staged.items, total)
    return staged


_ITEMS = MemoryItem._meta.db_table
_S, _SC = staging.STAGING, staging.SCOPES
# A duplicate is the gate's own notion of the same memory (apps.memory.gate.stages.identity_of):
# the same content under the same key, type and category; in any status, so that restoring
# one package twice adds nothing even where an item was archived since.
_DUPLICATE_OF_EXISTING = f"""
    UPDATE {_S} SET outcome = 'duplicate' WHERE EXISTS (
        SELECT 1 FROM {_SC} sc JOIN {_ITEMS} m ON m.scope_id = sc.scope_id
        WHERE sc.scope_no = {_S}.scope_no AND m.content_hash = {_S}.content_hash
        AND m.key = {_S}.key AND m.memory_type = {_S}.memory_type
        AND m.category = {_S}.category)
"""  # noqa: S608 - table names only
_DUPLICATE_IN_PACKAGE = f"""
    UPDATE {_S} SET outcome = 'duplicate' WHERE outcome = 'new' AND seq IN (
        SELECT seq FROM (
            SELECT seq, ROW_NUMBER() OVER (
                PARTITION BY scope_no, content_hash, key, memory_type, category ORDER BY seq
            ) AS n
            FROM {_S} WHERE outcome = 'new') ranked
        WHERE n > 1)
"""  # noqa: S608
_CONFLICTING = f"""
    UPDATE {_S} SET outcome = 'conflict' WHERE outcome = 'new' AND status = %s AND key <> ''
    AND EXISTS (
        SELECT 1 FROM {_SC} sc JOIN {_ITEMS} m ON m.scope_id = sc.scope_id
        WHERE sc.scope_no = {_S}.scope_no AND m.key = {_S}.key AND m.status = %s
        AND m.content_hash <> {_S}.content_hash)
"""  # noqa: S608


def classify() -> None:
    """Mark staged rows duplicate (the scope holds the same memory already, or the package
    holds it twice) or conflicting (an active item of the scope has another value for
    the key); the rest stay new."""
    active = str(MemoryStatus.ACTIVE)
    # Every row is staged 'new' (no rewrite of the whole table first: at 100,000 items it
    # cost a second of the server's CPU).
    with connection.cursor() as cursor:
        cursor.execute(_DUPLICATE_OF_EXISTING)
        cursor.execute(_DUPLICATE_IN_PACKAGE)
        cursor.execute(_CONFLICTING, [active, active])


def dry_run_report(staged: Staged, *, on_conflict: str, mapping: Mapping) -> dict[str, Any]:
    """Counts per target scope (new, duplicate, conflicting, quarantined) and in total,
    with the denylisted items counted only in total: the report never says whose."""
    names = {t.number: t.key for t in staged.targets.values() if not t.denylisted}
    per_scope: dict[int, Counter] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT scope_no, outcome, status, count(*) FROM {_S} "  # noqa: S608
            "GROUP BY scope_no, outcome, status"
        )
        for scope_no, outcome, status, count in cursor.fetchall():
            counter = per_scope.setdefault(scope_no, Counter())
            counter["conflicting" if outcome == "conflict" else outcome] += count
            if status == MemoryStatus.QUARANTINED and outcome == "new":
                counter["quarantined"] += count
    totals: Counter = Counter()
    for counter in per_scope.values():
        totals.update(counter)
    rows = [
        {"scope": names[number], **{k: counter[k] for k in _REPORTED}}
        for number, counter in sorted(per_scope.items(), key=lambda pair: names[pair[0]])
    ]
    header = staged.header
    return {
        "package": {
            "version": staged.version,
            "tenant": str(header.get("tenant", "")),
            "created_at": str(header.get("created_at", "")),
            "key": str((header.get("key") or {}).get("wrap", "")),
            "items": staged.items,
            "scopes": len(staged.targets),
        },
        "totals": {
            **{k: totals[k] for k in _REPORTED},
            "denylisted_skipped": staged.denylisted,
            "refused": sum(staged.refused.values()),
        },
        "refused_by_reason": dict(staged.refused),
        "scopes": rows[:REPORT_SCOPES],
        "scopes_not_listed": max(0, len(rows) - REPORT_SCOPES),
        "on_conflict": on_conflict,
        "mapped_pairs": len(mapping),
    }


_REPORTED = ("new", "duplicate", "conflicting", "quarantined")
