"""Grants on tenants and scopes, as the apps beside access (audit) read them.

Who holds which permission where is apps.access's business, and access records every
grant, key and login in the audit log inside the same transaction, so access builds on
audit and audit may not import access. Audit's viewer still has to show each reader only
what their grants cover: it asks through this small contract, which access fulfils with
its one permission filter (apps.access.selectors), installed in AccessConfig.ready().
"""

from typing import Protocol

from django.core.exceptions import ImproperlyConfigured
from django.db.models import QuerySet

from apps.tenancy.permissions import Perm


class GrantFilter(Protocol):
    """The permission filter every list uses (implemented by apps.access.selectors)."""

    def has_global_access(self, user) -> bool: ...

    def is_scope_bound(self, user) -> bool: ...

    def filter_by_grant(
        self,
        queryset: QuerySet,
        user,
        perm: Perm,
        *,
        tenant_field: str | None,
        scope_field: str | None,
    ) -> QuerySet: ...

    def tenants_visible_to(self, user, perm: Perm) -> QuerySet: ...


_installed: GrantFilter | None = None


def install(grant_filter: GrantFilter) -> None:
    """Called once by apps.access when it is ready."""
    global _installed
    _installed = grant_filter


def grants() -> GrantFilter:
    """The installed permission filter."""
    if _installed is None:
        raise ImproperlyConfigured("apps.access must be installed to filter by grants.")
    return _installed
