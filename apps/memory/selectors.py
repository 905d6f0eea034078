"""Permission-aware reads of tenants, scopes and memory items."""

import uuid

from django.db.models import QuerySet

from apps.access.selectors import filter_by_grant
from apps.memory.models import MemoryItem
from apps.tenancy.models import Scope, Tenant


def scopes_visible_to(user, perm: str = "view_memories") -> QuerySet[Scope]:
    """Scopes the user holds `perm` on, directly or through their tenant."""
    return filter_by_grant(Scope.objects.all(), user, perm, tenant_field="tenant", scope_field="pk")


def items_visible_to(user, perm: str = "view_memories") -> QuerySet[MemoryItem]:
    """Memory items in tenants or scopes the user holds `perm` on."""
    return filter_by_grant(MemoryItem.objects.all(), user, perm)


def user_has_perm_on(user, perm: str, *, tenant: Tenant | None = None, scope=None) -> bool:
    """Whether the user holds `perm` on this scope (or its tenant), or on this tenant."""
    if scope is not None:
        return scopes_visible_to(user, perm).filter(pk=scope.pk).exists()
    if tenant is not None:
        return filter_by_grant(
            Tenant.objects.filter(pk=tenant.pk), user, perm, tenant_field="pk", scope_field=None
        ).exists()
    return False


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
