"""Restore, pass 2: write the staged items in one transaction, set-based.

Inside one transaction (the audit chain's lock first, as every audited change): the
missing target scopes are created (audited `scope.created`), the denylist is asked
again (an erasure may have landed since the dry run), the items and their first
versions are copied from the staging table with INSERT … SELECT, supersession links
are re-pointed at the new ids, the items the injection stage held get their quarantine
entries (the stage's own on-persist work, from the stage objects), conflicting items
kept for review meet the conflict policy (the after-edit hooks: `apply_conflict_policy`
opens the conflict), and one `snapshot.restored` event records the counts.
"""

from typing import Any

from django.db import connection
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory import wiring
from apps.memory.gate import Draft
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.recall.lexemes import LEXEMES_COLUMN, SCOPE_PLACEHOLDER, lexeme_index_available
from apps.memory.services import create_scope
from apps.memory.services.gate import new_content_of
from apps.snapshots.models import OnConflict
from apps.snapshots.services import staging
from apps.snapshots.services.restore import Staged, dry_run_report
from apps.tenancy.models import Tenant

_S, _SC = staging.STAGING, staging.SCOPES
_ITEMS, _VERSIONS = MemoryItem._meta.db_table, MemoryVersion._meta.db_table


def _inserted(on_conflict: str, alias: str = "s") -> str:
    if on_conflict in {OnConflict.KEEP_BOTH, OnConflict.REVIEW}:
        return f"{alias}.outcome IN ('new', 'conflict')"
    return f"{alias}.outcome = 'new'"


# Every MemoryItem column: a staged column, a constant, or a named parameter.
_ITEM_EXPRESSIONS = {
    "id": "s.id", "tenant_id": ":tenant", "scope_id": "sc.scope_id",
    "memory_type": "s.memory_type", "category": "s.category", "key": "s.key",
    "content": "s.content", "text": "s.text", "source": "s.source",
    "source_kind": "s.source_kind", "created_by_id": ":actor", "api_key_prefix": "''",
    "run_id": "s.run_id", "importance": "s.importance", "half_life_days": "s.half_life_days",
    "last_access_at": "s.last_access_at", "access_count": "s.access_count",
    "archive_due_at": "s.archive_due_at", "confidence": "s.confidence",
    "status": "s.status", "superseded_by_id": "NULL", "expires_at": "s.expires_at",
    "version": "1", "content_hash": "s.content_hash", "sensitive": "s.sensitive",
    "flags": "s.flags", "sealed_content": "s.sealed_content", "embedding": "NULL",
    "embedding_model": "''", "created_at": "s.created_at", "updated_at": ":now",
    "metadata": "s.metadata",
}  # fmt: skip
# Recall's lexemes, where that index exists: staged by the judging (NULL: the insert
# trigger computes them), given the target scope's prefix here.
_LEXEMES_EXPRESSION = (
    f"replace(s.recall_lexemes, '{SCOPE_PLACEHOLDER}', 's' || sc.scope_id || 's')::tsvector"
)


def _insert_items_sql(*, on_conflict: str) -> tuple[str, list[str]]:
    """INSERT … SELECT of every MemoryItem column (a new column fails here, loudly), and
    the names of its parameters in order."""
    columns = [str(field.column) for field in MemoryItem._meta.concrete_fields]
    if set(columns) != set(_ITEM_EXPRESSIONS):
        raise RuntimeError(f"The restore does not fill every item column: {sorted(columns)}")
    expressions = [_ITEM_EXPRESSIONS[column] for column in columns]
    if lexeme_index_available():
        columns.append(LEXEMES_COLUMN)
        expressions.append(_LEXEMES_EXPRESSION)
    order = [expression[1:] for expression in expressions if expression.startswith(":")]
    select = ", ".join("%s" if e.startswith(":") else e for e in expressions)
    # In creation order: five of the items' indexes lead with (or group by) created_at,
    # so their new entries go in one walk along each index instead of scattered over it
    # (about a quarter less of the server's CPU for the statement at 100,000 items).
    sql = (
        f"INSERT INTO {_ITEMS} ({', '.join(columns)}) SELECT {select} "  # noqa: S608
        f"FROM {_S} s JOIN {_SC} sc ON sc.scope_no = s.scope_no WHERE {_inserted(on_conflict)} "
        "ORDER BY s.created_at, s.seq"
    )
    return sql, order


_INSERT_VERSIONS = """
    INSERT INTO {versions} (item_id, version, content, text, key, status, importance,
        superseded_by_id, change, reference, changed_by_id, created_at)
    SELECT s.id, 1, s.content, s.text, s.key, s.status, s.importance, NULL, %s, %s, %s, %s
    FROM {staging} s WHERE {inserted} ORDER BY s.id
"""  # in the order of the item_id indexes
_LINK_SUCCESSORS = """
    UPDATE {items} SET superseded_by_id = (
        SELECT s2.id FROM {staging} s1 JOIN {staging} s2 ON s2.old_id = s1.superseded_old
        WHERE s1.id = {items}.id AND {inserted2})
    WHERE id IN (
        SELECT s1.id FROM {staging} s1 JOIN {staging} s2 ON s2.old_id = s1.superseded_old
        WHERE {inserted1} AND {inserted2})
"""


def _prep(model, field: str, value: Any) -> Any:
    return model._meta.get_field(field).get_db_prep_save(value, connection=connection)


def _create_missing_scopes(staged: Staged, *, tenant: Tenant, on_conflict: str, actor) -> int:
    """Create the target scopes that receive items and do not exist yet (audited)."""
    with connection.cursor() as cursor:
        # A semi-join: each scope's first landing row answers (index snapshot_staging_hash).
        cursor.execute(
            f"SELECT sc.scope_no FROM {_SC} sc WHERE sc.scope_id IS NULL AND EXISTS ("  # noqa: S608
            f"SELECT 1 FROM {_S} s WHERE s.scope_no = sc.scope_no AND {_inserted(on_conflict)})"
        )
        wanted = {row[0] for row in cursor.fetchall()}
    created = 0
    for target in staged.targets.values():
        if target.number not in wanted:
            continue
        scope = create_scope(
            tenant=tenant,
            kind=target.kind,
            external_id=target.external_id,
            subject=target.subject,
            actor=actor,
        )
        target.scope = scope
        created += 1
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {_SC} SET scope_id = %s WHERE scope_no = %s",  # noqa: S608
                [scope.pk, target.number],
            )
    return created


def _drop_erased_since(staged: Staged) -> int:
    """Leave out scopes erased since pass 1 (asked again inside the transaction)."""
    dropped = 0
    assert staged.resolver is not None
    erased = staged.resolver.erased(t for t in staged.targets.values() if not t.denylisted)
    for target in staged.targets.values():
        if target.number not in erased:
            continue
        target.denylisted = True
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {_S} WHERE scope_no = %s", [target.number])  # noqa: S608
            dropped += cursor.fetchone()[0]
            cursor.execute(f"DELETE FROM {_S} WHERE scope_no = %s", [target.number])  # noqa: S608
            cursor.execute(f"DELETE FROM {_SC} WHERE scope_no = %s", [target.number])  # noqa: S608
    staged.denylisted += dropped
    return dropped


def _open_held_entries(*, on_conflict: str, actor: Actor) -> int:
    """The quarantine entries of the items the injection stage held: its on-persist work,
    obtained by running the content stages again over each stored item, which stays held
    (pass 1 judged the words as written; the stored copy may be redacted)."""
    held = 0
    sql = f"SELECT s.id FROM {_S} s WHERE {_inserted(on_conflict)} AND s.status = %s"  # noqa: S608
    for rows in staging.fetch_in_batches(sql, [str(MemoryStatus.QUARANTINED)]):
        items = MemoryItem.objects.filter(pk__in=[row[0] for row in rows]).select_related(
            "tenant", "scope"
        )
        for item in items:
            memory = new_content_of(item, content=item.content)
            memory.text, memory.content_hash, memory.flags = item.text, item.content_hash, []
            draft = Draft(memory=memory, actor=actor, held_when_written=True)
            for stage in wiring.current().content_stages:
                stage.inspect(draft)
            for callback in draft.callbacks:
                callback(item)
            held += 1
    return held


def _review_conflicts(*, actor: Actor) -> None:
    """Conflicting items kept for review meet the tenant's conflict policy, as an edit does."""
    sql = f"SELECT s.id FROM {_S} s WHERE s.outcome = 'conflict' AND s.status = %s"  # noqa: S608
    for rows in staging.fetch_in_batches(sql, [str(MemoryStatus.ACTIVE)]):
        for (item_id,) in rows:
            wiring.run_hooks(wiring.current().after_edit, item_id=item_id, actor=actor)


def _count_held_for_review() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {_ITEMS} m JOIN {_S} s ON s.id = m.id "  # noqa: S608
            "WHERE s.outcome = 'conflict' AND m.status = %s",
            [str(MemoryStatus.PENDING_REVIEW)],
        )
        return cursor.fetchone()[0]


def apply_staged(
    *,
    staged: Staged,
    tenant: Tenant,
    on_conflict: str,
    actor: Actor,
    reference: str,
    audit_data: dict[str, Any],
) -> dict[str, Any]:
    """Pass 2: write every staged item that should land, atomically; returns the outcome."""
    now = timezone.now()
    user_id = getattr(actor, "pk", None)
    with audited_change():
        _drop_erased_since(staged)
        report = dry_run_report(staged, on_conflict=on_conflict, mapping=audit_data["mapping"])
        created = _create_missing_scopes(
            staged, tenant=tenant, on_conflict=on_conflict, actor=actor
        )
        sql, order = _insert_items_sql(on_conflict=on_conflict)
        values = {
            "tenant": tenant.pk,
            "actor": user_id,
            "now": _prep(MemoryItem, "updated_at", now),
        }
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[name] for name in order])
            inserted = cursor.rowcount
            cursor.execute(
                _INSERT_VERSIONS.format(
                    versions=_VERSIONS, staging=_S, inserted=_inserted(on_conflict)
                ),
                [
                    str(Action.SNAPSHOT_RESTORED),
                    reference[:64],
                    user_id,
                    _prep(MemoryVersion, "created_at", now),
                ],
            )
            cursor.execute(
                _LINK_SUCCESSORS.format(
                    items=_ITEMS,
                    staging=_S,
                    inserted1=_inserted(on_conflict, "s1"),
                    inserted2=_inserted(on_conflict, "s2"),
                )
            )
        held = _open_held_entries(on_conflict=on_conflict, actor=actor)
        if on_conflict == OnConflict.REVIEW:
            _review_conflicts(actor=actor)
        totals = report["totals"]
        outcome: dict[str, Any] = {
            "inserted": inserted,
            "quarantined": held,
            "skipped_duplicate": totals["duplicate"],
            "conflicting": totals["conflicting"],
            "skipped_conflicting": totals["conflicting"] if on_conflict == OnConflict.SKIP else 0,
            "denylisted_skipped": staged.denylisted,
            "refused": totals["refused"],
            "scopes_created": created,
        }
        if on_conflict == OnConflict.REVIEW:
            outcome["held_for_review"] = _count_held_for_review()
        record(
            actor=actor,
            action=Action.SNAPSHOT_RESTORED,
            target=tenant,
            tenant=tenant,
            data={
                **{k: v for k, v in audit_data.items() if k != "mapping"},
                "mapped_pairs": len(audit_data["mapping"]),
                "on_conflict": on_conflict,
                **outcome,
            },
        )
    return {"report": report, "outcome": outcome}
