"""The erasure log kept outside the database, and replaying it after a restore (§8).

Restoring a database backup brings back whatever was erased since the backup was taken,
and rolls the denylist back with it. `export_erasure_log` writes every completed
erasure (keyed hashes, memory ids, counts and its signed receipt: no plain identifier)
and every denylist entry, signed with the audit signing key; keep the file with the
backups. `replay_erasures` checks the signature, then re-applies each erasure to the
restored database: it finds the subject's scopes by their keyed hashes, deletes what
the backup brought back, restores the denylist and closes the request if the backup
still had it open. Replaying twice changes nothing the second time.
"""

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.privacy.models import DeletionRequest, DenylistEntry, DenylistKind, RequestStatus
from apps.privacy.services.denylist import add_to_denylist
from apps.privacy.services.erasure import (
    add_counts,
    close_request_secrets,
    erase_batch,
    erase_scopes,
)
from apps.privacy.services.errors import ErasureLogError
from apps.privacy.services.preview import ErasureTarget, parse_memory_id
from apps.privacy.services.receipts import sign_document, signature_is_valid
from apps.tenancy.models import Scope, Tenant

LOG_FORMAT = "memory-console-erasure-log"
LOG_VERSION = 1


def _iso(value) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def build_erasure_log(*, actor: Actor) -> dict[str, Any]:
    """The signed log of every completed erasure and every denylist entry (audited)."""
    scope_hashes: dict[int, list[str]] = {}
    entries = []
    for entry in DenylistEntry.objects.select_related("tenant", "request").order_by("pk"):
        if entry.kind == DenylistKind.SCOPE and entry.request_id:
            scope_hashes.setdefault(entry.request_id, []).append(entry.digest)
        entries.append(
            {
                "tenant": entry.tenant.slug,
                "kind": entry.kind,
                "digest": entry.digest,
                "request": str(entry.request.reference) if entry.request else None,
                "created_at": _iso(entry.created_at),
                "lifted_at": _iso(entry.lifted_at),
            }
        )
    erasures = [
        {
            "reference": str(request.reference),
            "tenant": request.tenant.slug,
            "subject_hash": request.subject_hash,
            "identifier_hashes": list(request.identifier_hashes),
            "scope_key_hashes": sorted(scope_hashes.get(request.pk, [])),
            "residue_ids": list(request.residue_ids),
            "completed_at": _iso(request.completed_at),
            "counts": request.erased_counts,
            "receipt": request.receipt,
        }
        for request in DeletionRequest.objects.filter(status=RequestStatus.COMPLETED)
        .select_related("tenant")
        .order_by("completed_at", "pk")
    ]
    document = sign_document(
        {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "exported_at": _iso(timezone.now()),
            "erasures": erasures,
            "denylist": entries,
        }
    )
    with transaction.atomic():
        record(
            actor=actor,
            action=Action.ERASURE_LOG_EXPORTED,
            target_type="privacy.erasurelog",
            data={"erasures": len(erasures), "denylist": len(entries)},
        )
    return document


def check_erasure_log(document: Any) -> dict[str, Any]:
    """The log, if it is one and its signature holds; raises ErasureLogError otherwise."""
    if not isinstance(document, dict) or document.get("format") != LOG_FORMAT:
        raise ErasureLogError("Not an erasure log.")
    if not signature_is_valid(document):
        raise ErasureLogError("The erasure log's signature is invalid (wrong key or edited).")
    return document


@dataclass
class ReplayOutcome:
    reference: str
    tenant: str
    counts: dict[str, int] = field(default_factory=dict)
    denylisted: int = 0
    request_closed: bool = False
    skipped: str = ""

    @property
    def erased(self) -> int:
        return sum(self.counts.values())

    @property
    def changed(self) -> bool:
        return bool(self.erased or self.denylisted or self.request_closed)


def _scopes_by_hash(tenant: Tenant, *, subject_hash: str, scope_key_hashes: set[str]) -> tuple:
    """Scopes of the tenant whose subject or key has one of these keyed hashes."""
    found = []
    rows = Scope.objects.filter(tenant=tenant).values_list("pk", "kind", "external_id", "subject")
    for pk, kind, external_id, subject in rows.iterator(chunk_size=5000):
        if (subject and keyed_hash(subject) == subject_hash) or keyed_hash(
            f"{kind}:{external_id}"
        ) in scope_key_hashes:
            found.append(pk)
    return tuple(found)


def replay_erasure(erasure: dict[str, Any], *, actor: Actor) -> ReplayOutcome:
    """Re-apply one logged erasure to this database (idempotent)."""
    outcome = ReplayOutcome(erasure["reference"], erasure["tenant"])
    tenant = Tenant.objects.filter(slug=erasure["tenant"]).first()
    if tenant is None:
        outcome.skipped = "tenant not in this database"
        return outcome
    scope_hashes = set(erasure.get("scope_key_hashes") or [])
    subject_hash = erasure["subject_hash"]
    target = ErasureTarget(
        tenant_id=tenant.pk,
        scope_ids=_scopes_by_hash(tenant, subject_hash=subject_hash, scope_key_hashes=scope_hashes),
        residue_ids=tuple(parse_memory_id(value) for value in erasure.get("residue_ids") or []),
    )
    while True:
        with transaction.atomic():
            batch = erase_batch(target)
        if not batch:
            break
        outcome.counts = add_counts(outcome.counts, batch)
    with audited_change():
        outcome.counts = add_counts(outcome.counts, erase_scopes(target))
        outcome.counts = {table: count for table, count in outcome.counts.items() if count}
        local = (
            DeletionRequest.objects.select_for_update()
            .filter(reference=erasure["reference"])
            .first()
        )
        outcome.denylisted = add_to_denylist(
            tenant_id=tenant.pk,
            subject_hash=subject_hash,
            scope_key_hashes=sorted(scope_hashes),
            request=local,
        )
        if local is not None and local.status != RequestStatus.COMPLETED:
            close_request_secrets(local)
            local.status = RequestStatus.COMPLETED
            local.held_from = ""
            local.completed_at = parse_datetime(erasure["completed_at"] or "") or timezone.now()
            local.erased_counts = erasure.get("counts") or {}
            local.residue_ids = list(erasure.get("residue_ids") or [])
            local.receipt = erasure.get("receipt")
            local.save()
            outcome.request_closed = True
        if outcome.changed:
            record(
                actor=actor,
                action=Action.ERASURE_REPLAYED,
                target_type="privacy.deletionrequest",
                target_id=str(local.pk) if local else "",
                tenant=tenant.pk,
                data={
                    "reference": outcome.reference,
                    "subject_hash": subject_hash,
                    "counts": outcome.counts,
                    "denylisted": outcome.denylisted,
                },
            )
    return outcome


def replay_lifts(document: dict[str, Any], *, actor: Actor) -> int:
    """Lifts of denylist entries recorded in the log that the restored database lacks."""
    lifted = 0
    for entry in document.get("denylist") or []:
        if not entry.get("lifted_at"):
            continue
        with audited_change():
            active = (
                DenylistEntry.objects.select_for_update()
                .filter(
                    tenant__slug=entry["tenant"],
                    kind=entry["kind"],
                    digest=entry["digest"],
                    lifted_at__isnull=True,
                    created_at__lte=parse_datetime(entry["lifted_at"]),
                )
                .first()
            )
            if active is None:
                continue
            active.lifted_at = parse_datetime(entry["lifted_at"])
            active.lift_reason = "Lifted before the restore (replayed from the erasure log)."
            active.save(update_fields=["lifted_at", "lift_reason"])
            record(
                actor=actor,
                action=Action.DENYLIST_LIFTED,
                target=active,
                tenant=active.tenant_id,
                data={"kind": active.kind, "digest": active.digest, "replayed": True},
            )
            lifted += 1
    return lifted


def replay_erasure_log(document: Any, *, actor: Actor) -> tuple[list[ReplayOutcome], int]:
    """Check the log, re-apply every erasure in order, then the lifts after them."""
    document = check_erasure_log(document)
    outcomes = [replay_erasure(erasure, actor=actor) for erasure in document["erasures"]]
    return outcomes, replay_lifts(document, actor=actor)
