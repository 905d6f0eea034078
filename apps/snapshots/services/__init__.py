"""Snapshot services: export, restore (pass 1, dry run, pass 2) and the console's jobs.

Split by concern: `export` (streamed package writing), `restore` (pass 1: read, check,
judge, stage; the dry run), `apply` (pass 2: one transaction, set-based), `staging`
(the temporary tables between them), `mapping` (OLD=NEW pairs), `jobs` (the console's
Celery-run jobs and their files).
"""

from dataclasses import dataclass
from typing import IO, Any

from apps.core.types import Actor
from apps.snapshots.models import OnConflict
from apps.snapshots.services import staging
from apps.snapshots.services.apply import apply_staged
from apps.snapshots.services.export import ExportResult, export_snapshot
from apps.snapshots.services.mapping import Mapping
from apps.snapshots.services.restore import Progress, classify, dry_run_report, stage_package
from apps.tenancy.models import Tenant


@dataclass(frozen=True)
class RestoreResult:
    """The dry-run report, and the outcome when the restore was applied (else None)."""

    report: dict[str, Any]
    outcome: dict[str, Any] | None


def restore_snapshot(
    *,
    stream: IO[bytes],
    tenant: Tenant,
    actor: Actor,
    mapping: Mapping | None = None,
    on_conflict: str = OnConflict.SKIP,
    passphrase: str | None = None,
    dry_run: bool = False,
    reference: str = "snapshot",
    progress: Progress | None = None,
) -> RestoreResult:
    """Check the whole package and report what it would do; unless a dry run, then apply
    it in one transaction. A PackageError (nothing written) names the first problem."""
    mapping = mapping or Mapping()
    if on_conflict not in OnConflict.values:
        raise ValueError(f"on_conflict must be one of {OnConflict.values}")
    with staging.staging_tables() as writer:
        staged = stage_package(
            stream=stream,
            tenant=tenant,
            mapping=mapping,
            passphrase=passphrase,
            actor=actor,
            writer=writer,
            progress=progress,
        )
        classify()
        if dry_run:
            report = dry_run_report(staged, on_conflict=on_conflict, mapping=mapping)
            return RestoreResult(report=report, outcome=None)
        applied = apply_staged(
            staged=staged,
            tenant=tenant,
            on_conflict=on_conflict,
            actor=actor,
            reference=reference,
            audit_data={
                "mapping": mapping,
                "package_version": staged.version,
                "source_tenant_matches": str(staged.header.get("tenant")) == tenant.slug,
                "items_in_package": staged.items,
            },
        )
    return RestoreResult(report=applied["report"], outcome=applied["outcome"])


__all__ = [
    "ExportResult",
    "Mapping",
    "RestoreResult",
    "export_snapshot",
    "restore_snapshot",
]
