"""Queue filters (tenant, scope key, detector, source kind, age), shared by console and API."""

from datetime import timedelta

import django_filters
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from apps.access.selectors import tenants_visible_to
from apps.memory.models import SourceKind
from apps.quarantine.models import QuarantineEntry
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm

AGE_BUCKETS = {
    "1h": ("Under an hour", None, timedelta(hours=1)),
    "24h": ("1–24 hours", timedelta(hours=1), timedelta(hours=24)),
    "7d": ("1–7 days", timedelta(hours=24), timedelta(days=7)),
    "older": ("Older than 7 days", timedelta(days=7), None),
}


class QuarantineEntryFilter(django_filters.FilterSet):
    """Filters for the queue; tenant choices are limited to the tenants the user may review."""

    tenant = django_filters.ModelChoiceFilter(
        queryset=Tenant.objects.none(), to_field_name="slug", empty_label="All tenants"
    )
    scope = django_filters.CharFilter(method="filter_scope", label="Scope key")
    detector = django_filters.CharFilter(method="filter_detector", label="Detector")
    source_kind = django_filters.ChoiceFilter(choices=SourceKind.choices, empty_label="Any source")
    age = django_filters.ChoiceFilter(
        choices=[(key, label) for key, (label, _, _) in AGE_BUCKETS.items()],
        method="filter_age",
        empty_label="Any age",
    )

    class Meta:
        model = QuarantineEntry
        fields = ["tenant", "scope", "detector", "source_kind", "age"]

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        super().__init__(data, queryset, request=request, prefix=prefix)
        user = getattr(request, "user", None)
        self.filters["tenant"].queryset = tenants_visible_to(user, Perm.REVIEW_MEMORIES)
        for field in self.form.fields.values():
            is_select = getattr(field.widget, "input_type", "select") == "select"
            field.widget.attrs["class"] = (
                "form-select form-select-sm" if is_select else "form-control form-control-sm"
            )

    def filter_scope(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """`kind:external_id`, as shown everywhere in the console."""
        kind, sep, external_id = value.strip().partition(":")
        if not sep:
            return queryset.none()
        return queryset.filter(scope__kind=kind, scope__external_id=external_id)

    def filter_detector(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """Entries a detector (rules, behaviour, blast_radius, …) reported on."""
        name = value.strip()
        if connection.vendor == "postgresql":
            return queryset.filter(detectors__contains=[name])  # jsonb @>
        return queryset.filter(detectors__icontains=f'"{name}"')  # SQLite: no JSON containment

    def filter_age(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        _label, min_age, max_age = AGE_BUCKETS[value]
        now = timezone.now()
        condition = Q()
        if min_age is not None:
            condition &= Q(created_at__lte=now - min_age)
        if max_age is not None:
            condition &= Q(created_at__gt=now - max_age)
        return queryset.filter(condition)
