"""GET /api/v1/audit-events/: the audit log, read-only, filtered like the console page."""

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets

from apps.audit.filters import AuditEventFilter
from apps.audit.models import EVENT_COLUMNS, AuditEvent
from apps.audit.selectors import events_visible_to
from apps.core.api import KeysetCursorPagination


class AuditEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = list(EVENT_COLUMNS)
        read_only_fields = fields


class AuditCursorPagination(KeysetCursorPagination):
    """Newest first by sequence: cheap at any depth, no COUNT."""

    ordering = ("-sequence",)
    max_page_size = 500


@extend_schema_view(
    list=extend_schema(summary="List audit events you may read (newest first)"),
    retrieve=extend_schema(summary="Read one audit event by sequence number"),
)
class AuditEventViewSet(viewsets.ReadOnlyModelViewSet):
    """Audit events visible to the caller; out-of-grant events answer 404."""

    serializer_class = AuditEventSerializer
    pagination_class = AuditCursorPagination
    filter_backends = [DjangoFilterBackend]
    filterset_class = AuditEventFilter
    lookup_field = "sequence"
    lookup_value_regex = "[0-9]{1,18}"

    def get_queryset(self):
        return events_visible_to(self.request.user)
