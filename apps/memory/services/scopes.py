"""Scope creation: a scope comes into being on its first write, audited."""

from django.db import IntegrityError, transaction

from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor
from apps.tenancy.models import Scope, ScopeKind, Tenant


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
