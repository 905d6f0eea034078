"""Permission-aware reads of tenants, scopes and memory items."""

import uuid
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet

from apps.access.selectors import (
    filter_by_grant,
    has_global_access,
    note_admin_membership,
    tenants_visible_to,
)
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.tenancy.models import Scope, Tenant
from apps.tenancy.permissions import Perm
from memory_console.db import Parameter, PrecompiledQuery


def scopes_visible_to(user, perm: Perm = Perm.VIEW_MEMORIES) -> QuerySet[Scope]:
    """Scopes the user holds `perm` on, directly or through their tenant."""
    return filter_by_grant(Scope.objects.all(), user, perm, tenant_field="tenant", scope_field="pk")


def items_visible_to(user, perm: Perm = Perm.VIEW_MEMORIES) -> QuerySet[MemoryItem]:
    """Memory items in tenants or scopes the user holds `perm` on."""
    return filter_by_grant(MemoryItem.objects.all(), user, perm)


def versions_of(item: MemoryItem) -> QuerySet[MemoryVersion]:
    """The item's history rows with who made each change (newest first by the caller's
    pagination); the caller has already found the item visible."""
    return MemoryVersion.objects.filter(item_id=item.pk).select_related(
        "changed_by", "changed_by__service_account"
    )


def active_counts_by_scope(scope_ids: list[int]) -> dict[int, int]:
    """Active items per scope, for these scopes only (one grouped query over the index
    leading with scope): a page of scopes is counted, never the whole table."""
    rows = (
        MemoryItem.objects.filter(scope_id__in=scope_ids, status=MemoryStatus.ACTIVE)
        .order_by()
        .values("scope_id")
        .annotate(count=Count("id"))
        .values_list("scope_id", "count")
    )
    return dict(rows)


def sole_tenant_slug(user, perm: Perm = Perm.WRITE_MEMORIES) -> str | None:
    """The slug of the one tenant the user holds `perm` in (on it or on its scopes), or
    None when it reaches several or none, or every tenant (admins): one query at most."""
    if user is None or not user.is_authenticated or has_global_access(user):
        return None
    slugs = list(tenants_visible_to(user, perm).order_by().values_list("slug", flat=True)[:2])
    return slugs[0] if len(slugs) == 1 else None


def user_has_perm_on(user, perm: Perm, *, tenant: Tenant | None = None, scope=None) -> bool:
    """Whether the user holds `perm` on this scope (or its tenant), or on this tenant."""
    if scope is not None:
        return scopes_visible_to(user, perm).filter(pk=scope.pk).exists()
    if tenant is not None:
        return filter_by_grant(
            Tenant.objects.filter(pk=tenant.pk), user, perm, tenant_field="pk", scope_field=None
        ).exists()
    return False


# --- the scope a write goes to -----------------------------------------------------------

_PLACEHOLDER_USER_ID = -0x4D43  # never a real primary key


@cache
def _granted_scope_query(perm: Perm, *, global_access: bool) -> PrecompiledQuery:
    """The scope with its tenant, if the user holds `perm` there: compiled once per process
    from the one grant filter (scopes_visible_to), so the rule is unchanged."""
    user = get_user_model()(pk=_PLACEHOLDER_USER_ID, is_active=True, is_superuser=global_access)
    note_admin_membership(user, global_access)  # has_global_access() asks no query
    queryset = scopes_visible_to(user, perm).filter(
        tenant__slug=Parameter("slug"),
        kind=Parameter("kind"),
        external_id=Parameter("external_id"),
    )
    return PrecompiledQuery(
        queryset,
        models=[(Scope, ""), (Tenant, "tenant__")],
        stand_ins={_PLACEHOLDER_USER_ID: "user_id"},
    )


def find_writable_scope(*, actor, tenant_slug: str, kind: str, external_id: str) -> Scope | None:
    """The existing scope `kind:external_id` of the tenant, with its tenant loaded, if the
    actor may write there (one query); None when it is missing or not writable."""
    return find_granted_scope(
        actor=actor,
        perm=Perm.WRITE_MEMORIES,
        tenant_slug=tenant_slug,
        kind=kind,
        external_id=external_id,
    )


def find_granted_scope(
    *, actor, perm: Perm, tenant_slug: str, kind: str, external_id: str
) -> Scope | None:
    """The existing scope `kind:external_id` of the tenant, with its tenant loaded, if the
    actor holds `perm` there (one precompiled query: recall and remember run it on every
    call); None when it is missing or not granted."""
    lookup = granted_scope_lookup(
        actor=actor, perm=perm, tenant_slug=tenant_slug, kind=kind, external_id=external_id
    )
    if lookup is None:
        return None
    query, values = lookup
    return scope_of_row(query.first(**values))


def granted_scope_lookup(
    *, actor, perm: Perm, tenant_slug: str, kind: str, external_id: str
) -> tuple[PrecompiledQuery, dict[str, Any]] | None:
    """The precompiled statement find_granted_scope runs and its values, for a caller that
    sends it within a statement of its own (recall); None for an actor who holds nothing.
    Its rows start with the scope's id; `scope_of_row` reads the row `first` gives."""
    if actor is None or not actor.is_authenticated or not actor.is_active:
        return None
    query = _granted_scope_query(perm, global_access=has_global_access(actor))
    return query, {
        "slug": tenant_slug,
        "kind": kind,
        "external_id": external_id,
        "user_id": actor.pk,
    }


def scope_of_row(found: tuple | None) -> Scope | None:
    """The scope, its tenant loaded, of a granted_scope_lookup row (None: not found)."""
    if found is None:
        return None
    scope, scope.tenant, *_ = found
    return scope


def writable_scopes(*, actor, keys: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], Scope]:
    """Of these (tenant slug, kind, external id) keys, the existing scopes the actor may
    write to, with their tenants, in one query (a batch's scopes)."""
    if not keys or actor is None or not actor.is_authenticated or not actor.is_active:
        return {}
    # Three IN lists, not one OR of the keys: Django compiled an OR of a hundred keys
    # more slowly than the database answered it. The few extra rows of the cross product
    # are left out here.
    slugs, kinds, external_ids = (sorted(set(column)) for column in zip(*keys, strict=True))
    found = (
        scopes_visible_to(actor, Perm.WRITE_MEMORIES)
        .filter(tenant__slug__in=slugs, kind__in=kinds, external_id__in=external_ids)
        .select_related("tenant")
    )
    scopes = {(scope.tenant.slug, scope.kind, scope.external_id): scope for scope in found}
    return {key: scope for key, scope in scopes.items() if key in keys}


def scope_to_write(*, actor, tenant_slug: str, kind: str, external_id: str) -> Scope | None:
    """The scope a write of `actor` goes to: the existing writable scope (one query in the
    common case), or a new, UNSAVED Scope of a tenant the actor may write anywhere in
    (the remember runner creates it, audited, in the write's transaction). None when the
    tenant is unknown or the actor may not write there (never revealing which).
    """
    scope = find_writable_scope(
        actor=actor, tenant_slug=tenant_slug, kind=kind, external_id=external_id
    )
    if scope is not None:
        return scope
    # Not writable or not there yet: a new scope needs a grant on the whole tenant.
    tenant = filter_by_grant(
        Tenant.objects.filter(slug=tenant_slug),
        actor,
        Perm.WRITE_MEMORIES,
        tenant_field="pk",
        scope_field=None,
    ).first()
    if tenant is None:
        return None
    scope = Scope(tenant=tenant, kind=kind, external_id=external_id)
    return scope


def visible_item_ids(user, ids: list[str]) -> dict[str, uuid.UUID]:
    """Of the given item ids (as text), those the user may open: {text: UUID} (one query)."""
    wanted = {}
    for text in ids:
        try:
            wanted[uuid.UUID(text)] = text
        except ValueError:
            continue
    found = items_visible_to(user).filter(pk__in=list(wanted)).values_list("pk", flat=True)
    return {wanted[pk]: pk for pk in found}
