"""GET /api/v1/reports/ and /api/v1/reports/{id}/: stored health reports, aggregates only,
for the tenants the caller may read reports of (the installation's for admins)."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.pagination import CursorPagination

from apps.reports.models import HealthReport
from apps.reports.selectors import reports_visible_to

_FIELDS = [
    "id",
    "tenant",
    "week_start",
    "period_start",
    "period_end",
    "generated_at",
    "chain_ok",
    "total_items",
]


class HealthReportSummarySerializer(serializers.ModelSerializer):
    tenant = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = HealthReport
        fields = _FIELDS
        read_only_fields = fields


class HealthReportSerializer(HealthReportSummarySerializer):
    class Meta(HealthReportSummarySerializer.Meta):
        fields = [*_FIELDS, "figures"]
        read_only_fields = fields


class ReportCursorPagination(CursorPagination):
    """Newest week first; no COUNT."""

    ordering = ("-week_start", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


@extend_schema_view(
    list=extend_schema(summary="List the health reports you may read (newest week first)"),
    retrieve=extend_schema(summary="One health report with every figure"),
)
class HealthReportViewSet(viewsets.ReadOnlyModelViewSet):
    """Health reports; one outside the caller's grants answers 404."""

    pagination_class = ReportCursorPagination
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        return reports_visible_to(self.request.user)

    def get_serializer_class(self):
        return (
            HealthReportSerializer if self.action == "retrieve" else HealthReportSummarySerializer
        )
