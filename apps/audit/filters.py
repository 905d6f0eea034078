"""Audit log filters (actor, action, tenant, target, time range), shared by page and API."""

import django_filters
from django import forms
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from apps.audit.models import ActorKind, AuditEvent, emitted_action_choices
from apps.tenancy.grants import grants
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm


@extend_schema_field(OpenApiTypes.STR)
class TenantSlugFilter(django_filters.ModelChoiceFilter):
    """A tenant named by slug (events hold the tenant's id, not a foreign key)."""


class AuditEventFilter(django_filters.FilterSet):
    """Each filter maps onto an indexed column, so filtered pages stay keyset-fast."""

    actor = django_filters.CharFilter(field_name="actor_label", label="Who (user or job)")
    actor_kind = django_filters.ChoiceFilter(
        choices=ActorKind.choices, empty_label="Anyone", label="Kind of actor"
    )
    action = django_filters.ChoiceFilter(
        choices=emitted_action_choices, empty_label="Any action", label="Action"
    )
    tenant = TenantSlugFilter(
        queryset=Tenant.objects.none(),
        to_field_name="slug",
        empty_label="All tenants",
        method="filter_tenant",
        label="Tenant",
    )
    target_type = django_filters.CharFilter(label="Target type (e.g. memory.memoryitem)")
    target_id = django_filters.CharFilter(label="Target id")
    occurred_after = django_filters.IsoDateTimeFilter(
        field_name="occurred_at",
        lookup_expr="gte",
        label="From",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    occurred_before = django_filters.IsoDateTimeFilter(
        field_name="occurred_at",
        lookup_expr="lt",
        label="Until",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    class Meta:
        model = AuditEvent
        fields = [
            "actor",
            "actor_kind",
            "action",
            "tenant",
            "target_type",
            "target_id",
            "occurred_after",
            "occurred_before",
        ]

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        super().__init__(data, queryset, request=request, prefix=prefix)
        user = getattr(request, "user", None)
        self.filters["tenant"].queryset = grants().tenants_visible_to(user, Perm.VIEW_AUDIT)
        for field in self.form.fields.values():
            is_select = isinstance(field.widget, forms.Select)
            field.widget.attrs["class"] = (
                "form-select form-select-sm" if is_select else "form-control form-control-sm"
            )

    def filter_tenant(self, queryset, name, value):
        return queryset.filter(tenant_id=value.pk) if value else queryset

    def active_names(self) -> list[str]:
        """Names of the filters in use (for the export's audit record; values stay out)."""
        cleaned = getattr(self.form, "cleaned_data", None) or {}
        return sorted(name for name, value in cleaned.items() if value not in ("", None))
