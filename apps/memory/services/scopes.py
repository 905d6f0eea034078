"""Scopes' own changes: a scope comes into being on its first write, audited; an agent
may forget a whole scope at once (`DELETE /api/v1/scopes/{scope}/`)."""

from collections import Counter
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.types import Actor
from apps.memory import wiring
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.services.items import version_of
from apps.tenancy.models import Scope, ScopeKind, Tenant

# Items per UPDATE (and per version INSERT) when a scope is forgotten: bounded statements.
_FORGET_BATCH = 1000
# What forgetting leaves as it is (as forget_item does for one item).
_NOT_FORGOTTEN = (MemoryStatus.ARCHIVED, MemoryStatus.REJECTED)
# What a version row copies from its item.
_VERSIONED_FIELDS = (
    "id",
    "version",
    "content",
    "text",
    "key",
    "status",
    "importance",
    "superseded_by",
)


def create_scope(
    *, tenant: Tenant, kind: str, external_id: str, subject: str, actor: Actor
) -> Scope:
    """Create the scope `kind:external_id` of the tenant (audited), or return it when a
    concurrent write created it first. A user scope's subject defaults to its user."""
    if not subject and kind == ScopeKind.USER:
        subject = external_id
    try:
        with transaction.atomic():  # savepoint: the scope may exist (ungranted) or race us
            scope = Scope.objects.create(
                tenant=tenant, kind=kind, external_id=external_id, subject=subject
            )
            record(
                actor=actor,
                action=Action.SCOPE_CREATED,
                target=scope,
                tenant=tenant.pk,
                scope=scope.pk,
                data={"kind": kind},
            )
    except IntegrityError:
        # It exists: the caller's tenant-wide grant covers it, so it is writable after all.
        scope = Scope.objects.get(tenant=tenant, kind=kind, external_id=external_id)
    scope.tenant = tenant
    return scope


@dataclass(frozen=True)
class ScopeForgotten:
    """What forgetting a scope did: how many items were archived, by their former status."""

    forgotten: int
    by_status: dict[str, int]


def forget_scope(*, scope: Scope, actor: Actor) -> ScopeForgotten:
    """Forget every memory of the scope: archived as `forget_item` archives one (they leave
    recall and are kept until retention or an erasure removes them), set-based.

    In batches of ids, in one transaction: one UPDATE and one INSERT of their version
    rows per batch, then one audit event with the counts (no content). The forget hooks
    (a review queue withdrawing its entries) run for the items that were held, the only
    ones a queue can hold; an active item has nothing to withdraw.
    """
    by_status: Counter[str] = Counter()
    held = []
    now = timezone.now()
    reference = f"scope:{scope.pk}"
    with audited_change():
        while True:
            batch = list(
                MemoryItem.objects.filter(scope_id=scope.pk)
                .exclude(status__in=_NOT_FORGOTTEN)
                .order_by("pk")
                .select_for_update(no_key=True)
                .only(*_VERSIONED_FIELDS)[:_FORGET_BATCH]
            )
            if not batch:
                break
            MemoryItem.objects.filter(pk__in=[item.pk for item in batch]).update(
                status=MemoryStatus.ARCHIVED, version=F("version") + 1, updated_at=now
            )
            versions = []
            for item in batch:
                by_status[item.status] += 1
                if item.status != MemoryStatus.ACTIVE:
                    held.append(item.pk)
                item.status, item.version = MemoryStatus.ARCHIVED, item.version + 1
                versions.append(
                    version_of(
                        item=item, change=Action.MEMORY_FORGOTTEN, actor=actor, reference=reference
                    )
                )
            MemoryVersion.objects.bulk_create(versions)
        total = sum(by_status.values())
        record(
            actor=actor,
            action=Action.SCOPE_FORGOTTEN,
            target=scope,
            tenant=scope.tenant_id,
            scope=scope.pk,
            data={"forgotten": total, "by_status": dict(by_status), "kind": scope.kind},
        )
        for item_id in held:
            wiring.run_hooks(wiring.current().after_forget, item_id=item_id, actor=actor)
    return ScopeForgotten(forgotten=total, by_status=dict(by_status))
