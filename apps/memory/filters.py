"""Filters of the memory browser (/memories/): tenant, scope key, type, status, source, text."""

import django_filters
from django import forms
from django.db.models import F, QuerySet
from django.db.models.lookups import IContains
from rest_framework import serializers

from apps.access.selectors import tenants_visible_to
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.tenancy.keys import parse_scope_key
from apps.tenancy.models import Tenant


class TrigramIContains(IContains):
    """Case-insensitive "contains" that PostgreSQL's trigram GIN index on `text` can serve.

    Django's icontains compiles to UPPER(text) LIKE UPPER(…), which no index matches;
    ILIKE '%…%' is what gin_trgm_ops accelerates. Other databases keep icontains.
    """

    def as_postgresql(self, compiler, connection):
        lhs_sql, lhs_params = compiler.compile(self.lhs)
        rhs_sql, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs_sql} ILIKE {rhs_sql}", (*lhs_params, *rhs_params)


class MemoryItemFilter(django_filters.FilterSet):
    """Every filter narrows an already permission-filtered queryset; none widens it."""

    tenant = django_filters.ModelChoiceFilter(
        queryset=Tenant.objects.none(), to_field_name="slug", empty_label="All tenants"
    )
    scope = django_filters.CharFilter(
        method="filter_scope",
        label="Scope key",
        widget=forms.TextInput(attrs={"placeholder": "user:u_1024"}),
    )
    memory_type = django_filters.ChoiceFilter(
        choices=MemoryType.choices, empty_label="Any type", label="Type"
    )
    status = django_filters.ChoiceFilter(choices=MemoryStatus.choices, empty_label="Any status")
    source = django_filters.CharFilter(
        lookup_expr="startswith",
        label="Source",
        widget=forms.TextInput(attrs={"placeholder": "langgraph"}),
    )
    q = django_filters.CharFilter(
        method="filter_text",
        label="Text contains",
        widget=forms.TextInput(attrs={"placeholder": "Text contains…"}),
    )

    class Meta:
        model = MemoryItem
        fields = ["tenant", "scope", "memory_type", "status", "source", "q"]

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        super().__init__(data, queryset, request=request, prefix=prefix)
        user = getattr(request, "user", None)
        self.filters["tenant"].queryset = tenants_visible_to(user).only("slug", "name")
        for field in self.form.fields.values():
            is_select = isinstance(field.widget, forms.Select)
            field.widget.attrs["class"] = (
                "form-select form-select-sm" if is_select else "form-control form-control-sm"
            )

    def filter_scope(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """`kind:external_id`; a malformed key matches nothing rather than everything."""
        try:
            kind, external_id = parse_scope_key(value.strip())
        except serializers.ValidationError:
            return queryset.none()
        return queryset.filter(scope__kind=kind, scope__external_id=external_id)

    def filter_text(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(TrigramIContains(F("text"), value))
