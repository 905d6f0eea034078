"""Filters of the memory browser (/memories/: tenant, scope key, type, status, source, text)
and of the list API (`GET /api/v1/memories/`, MemoryApiFilter: the same and more)."""

import re
from collections.abc import Iterable

import django_filters
from django import forms
from django.db.models import F, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.lookups import Exact, IContains
from django.http import QueryDict
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


class _InChoices(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """One or more choices, comma-separated (`status=active,archived`)."""

    def filter(self, qs: QuerySet, value) -> QuerySet:
        if value and "" in value:  # `status=,` or `category=1,`: a typo, not "anything"
            raise serializers.ValidationError({self.field_name: ["An item of the list is empty."]})
        return super().filter(qs, value)


# `metadata.<key>=<value>`: equality on a top-level key of the item's metadata.
METADATA_PREFIX = "metadata."
_METADATA_KEY = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
# Query parameters of the list that are not filters (pagination, DRF's format override).
_NOT_FILTERS = frozenset({"cursor", "limit", "format"})


class MemoryApiFilter(MemoryItemFilter):
    """The filters of `GET /api/v1/memories/`: the console's, plus key, run, category,
    several statuses, date ranges and metadata keys. Without `status` an agent lists active
    items only; an unknown parameter is refused (400) rather than silently ignored."""

    tenant = django_filters.CharFilter(field_name="tenant__slug", label="Tenant slug")
    key = django_filters.CharFilter(label="Fact key, exact")
    run_id = django_filters.CharFilter(label="Run id, exact")
    source = django_filters.CharFilter(label="Source, exact")
    memory_type = _InChoices(choices=MemoryType.choices, label="Types, comma-separated")
    category = _InChoices(
        choices=[(str(number), str(number)) for number in range(100)],
        label="Categories (0–99), comma-separated",
    )
    status = _InChoices(choices=MemoryStatus.choices, label="Statuses, comma-separated")
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")
    updated_after = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="gte")
    updated_before = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="lt")

    def __init__(self, data: QueryDict, queryset=None, *, request=None):
        refuse_unknown_parameters(data, known=self.base_filters.keys())
        self.metadata = {
            name[len(METADATA_PREFIX) :]: data[name]
            for name in data
            if name.startswith(METADATA_PREFIX)
        }
        django_filters.FilterSet.__init__(
            self,
            _joined_lists(data, ("status", "memory_type", "category")),
            queryset,
            request=request,
        )

    def filter_scope(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """`kind:external_id`; a malformed key is bad input (400), not an empty page."""
        try:
            kind, external_id = parse_scope_key(value.strip())
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({"scope": exc.detail}) from exc
        return queryset.filter(scope__kind=kind, scope__external_id=external_id)

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        if not self.form.cleaned_data.get("status"):
            queryset = queryset.filter(status=MemoryStatus.ACTIVE)
        queryset = super().filter_queryset(queryset)
        for key, value in self.metadata.items():
            # Compared with the JSON value's text: strings as they are, numbers and
            # booleans as JSON writes them (`metadata.turn=3`, `metadata.final=true`).
            queryset = queryset.filter(Exact(KeyTextTransform(key, "metadata"), value))
        return queryset


def refuse_unknown_parameters(data: QueryDict, *, known: Iterable[str]) -> None:
    """400 naming every query parameter that is neither a filter, pagination, nor a
    well-formed `metadata.<key>`."""
    allowed = {*known, *_NOT_FILTERS}
    errors = {}
    for name in data:
        if name.startswith(METADATA_PREFIX):
            if not _METADATA_KEY.match(name[len(METADATA_PREFIX) :]):
                errors[name] = ["A metadata key has 1 to 64 letters, digits, _ or -."]
            elif len(data.getlist(name)) > 1:
                errors[name] = ["Give each metadata key once."]
            elif "\x00" in data[name]:
                errors[name] = ["Null characters are not allowed."]
        elif name not in allowed:
            errors[name] = ["Unknown query parameter."]
    if errors:
        raise serializers.ValidationError(errors)


def _joined_lists(data: QueryDict, names: tuple[str, ...]) -> QueryDict:
    """Repeated list parameters (`status=a&status=b`) as one comma list (`status=a,b`)."""
    if not any(len(data.getlist(name)) > 1 for name in names):
        return data
    joined = data.copy()
    for name in names:
        if len(values := data.getlist(name)) > 1:
            joined[name] = ",".join(values)
    return joined
