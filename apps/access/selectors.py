"""The one permission filter every page and API uses (ARCHITECTURE §6).

A grant is a guardian object permission on a Tenant (covering all its scopes) or on
a single Scope, given to the user directly or to one of their groups. Filtering is
done in SQL with `IN (subquery)` over the direct-FK permission tables, never per row.
Superusers and members of the admin group see every tenant.
"""

from functools import cached_property

from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from apps.access.models import (
    ScopeGroupObjectPermission,
    ScopeUserObjectPermission,
    TenantGroupObjectPermission,
    TenantUserObjectPermission,
)
from apps.access.roles import Role
from apps.tenancy.models import Scope, Tenant
from apps.tenancy.permissions import Perm


class Grants:
    """What one user holds, worked out at most once per request: each answer costs one
    query the first time it is asked and none after (the object is kept on the user,
    which Django keeps for the whole request)."""

    def __init__(self, user) -> None:
        self._user = user
        self._signed_in = bool(user is not None and user.is_authenticated and user.is_active)

    @cached_property
    def role_names(self) -> frozenset[str]:
        """The user's roles (group names)."""
        if not self._signed_in:
            return frozenset()
        return frozenset(self._user.groups.values_list("name", flat=True))

    @cached_property
    def is_global(self) -> bool:
        """Superusers and admins are not bound by per-tenant grants."""
        if not self._signed_in:
            return False
        if self._user.is_superuser:
            return True
        if "role_names" in self.__dict__:
            return Role.ADMIN in self.role_names
        return self._user.groups.filter(name=Role.ADMIN).exists()

    @cached_property
    def held_permissions(self) -> frozenset[str] | None:
        """Permissions held on at least one tenant or scope (one query); None = all."""
        if self.is_global:
            return None
        if not self._signed_in:
            return frozenset()
        querysets = [
            _grants_of(model, self._user).values_list("permission__codename", flat=True).order_by()
            for model in (
                TenantUserObjectPermission,
                TenantGroupObjectPermission,
                ScopeUserObjectPermission,
                ScopeGroupObjectPermission,
            )
        ]
        return frozenset(querysets[0].union(*querysets[1:]))

    def note_admin_membership(self, is_admin: bool) -> None:
        """Record what a query that already loaded the user found (see in_admin_group)."""
        self.__dict__["is_global"] = self._signed_in and (self._user.is_superuser or is_admin)


def grants_of(user) -> Grants:
    """The user's Grants, made on first use and kept on the user object."""
    grants = getattr(user, _GRANTS_ATTRIBUTE, None)
    if grants is None:
        grants = Grants(user)
        if user is not None:
            setattr(user, _GRANTS_ATTRIBUTE, grants)
    return grants


_GRANTS_ATTRIBUTE = "_access_grants"


def has_global_access(user) -> bool:
    """Superusers and admins are not bound by per-tenant grants."""
    return grants_of(user).is_global


def is_scope_bound(user) -> bool:
    """Operators who are not also compliance officers see audit events of their scopes only."""
    roles = grants_of(user).role_names
    return Role.OPERATOR in roles and Role.COMPLIANCE_OFFICER not in roles


def in_admin_group(user_field: str) -> Exists:
    """An annotation for has_global_access's group rule, so a query that loads a user
    (e.g. with its API key) answers it too; pass the result to note_admin_membership."""
    return Exists(Group.objects.filter(name=Role.ADMIN, user=OuterRef(user_field)))


def note_admin_membership(user, is_admin: bool) -> None:
    """Tell has_global_access what an in_admin_group annotation found (no second query)."""
    grants_of(user).note_admin_membership(is_admin)


def _grants_of(model, user) -> QuerySet:
    """Rows of one permission table that reach the user, directly or through a group."""
    lookup = {"user": user} if "User" in model.__name__ else {"group__user": user}
    return model.objects.filter(**lookup)


def _granted(model, user, perm: Perm) -> QuerySet:
    return _grants_of(model, user).filter(permission__codename=perm).values("content_object_id")


def granted_tenant_ids(user, perm: Perm) -> Q:
    """A Q matching tenant ids on which the user holds `perm` directly or via a group."""
    return Q(pk__in=_granted(TenantUserObjectPermission, user, perm)) | Q(
        pk__in=_granted(TenantGroupObjectPermission, user, perm)
    )


def _grant_conditions(user, perm: Perm, *, tenant_field: str | None, scope_field: str | None):
    """One condition per permission table: rows whose tenant or scope it grants `perm` on."""
    conditions: list[Q] = []
    if tenant_field:
        for tenant_table in (TenantUserObjectPermission, TenantGroupObjectPermission):
            conditions.append(Q(**{f"{tenant_field}__in": _granted(tenant_table, user, perm)}))
    if scope_field:
        for scope_table in (ScopeUserObjectPermission, ScopeGroupObjectPermission):
            conditions.append(Q(**{f"{scope_field}__in": _granted(scope_table, user, perm)}))
    return conditions


def filter_by_grant(
    queryset: QuerySet,
    user,
    perm: Perm,
    *,
    tenant_field: str | None = "tenant",
    scope_field: str | None = "scope",
) -> QuerySet:
    """Keep only rows whose tenant or scope the user holds `perm` on.

    `tenant_field` / `scope_field` name the paths from the queryset's model to the
    tenant and scope (use "pk" on Tenant or Scope itself, None where there is none).
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return queryset.none()
    if has_global_access(user):
        return queryset
    condition = Q(pk__in=[])
    for granted in _grant_conditions(
        user, perm, tenant_field=tenant_field, scope_field=scope_field
    ):
        condition |= granted
    return queryset.filter(condition)


def tenants_visible_to(user, perm: Perm = Perm.VIEW_MEMORIES) -> QuerySet[Tenant]:
    """Tenants where the user holds `perm` on the tenant or on at least one of its scopes."""
    direct = filter_by_grant(Tenant.objects.all(), user, perm, tenant_field="pk", scope_field=None)
    if has_global_access(user):
        return direct
    scopes = filter_by_grant(Scope.objects.all(), user, perm, tenant_field=None, scope_field="pk")
    return Tenant.objects.filter(Q(pk__in=direct.values("pk")) | Q(pk__in=scopes.values("tenant")))


def count_by_grant(
    queryset: QuerySet,
    user,
    perm: Perm,
    *,
    cap: int,
    tenant_field: str | None = "tenant",
    scope_field: str | None = "scope",
) -> int:
    """How many rows of the queryset the user may see with `perm`, counted up to `cap`.

    filter_by_grant's OR of subqueries keeps PostgreSQL off the tenant and scope indexes,
    so a capped count through it reads every row of the queryset whenever the user may
    see fewer than `cap` of them (a badge on every page). Here each permission table is
    counted on its own, up to `cap`, through those indexes, and the branches are united.
    Capping each branch keeps the answer exact up to `cap`: a branch that was cut holds
    `cap` rows by itself.
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return 0
    conditions = _grant_conditions(user, perm, tenant_field=tenant_field, scope_field=scope_field)
    splittable = connection.features.supports_slicing_ordering_in_compound  # not SQLite
    if has_global_access(user) or len(conditions) < 2 or not splittable:
        visible = filter_by_grant(
            queryset, user, perm, tenant_field=tenant_field, scope_field=scope_field
        )
        return visible.order_by().values("pk")[:cap].count()
    branches = [queryset.filter(granted).order_by().values("pk")[:cap] for granted in conditions]
    return min(cap, branches[0].union(*branches[1:]).count())
