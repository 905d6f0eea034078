"""REST API of the review queue (CONTRACT): list, release, reject. Thin over the same
selectors and services as the console; outside the caller's grant an entry is 404."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apps.core.api import KeysetCursorPagination
from apps.quarantine import selectors, services
from apps.quarantine.filters import QuarantineEntryFilter
from apps.quarantine.models import EntryStatus, QuarantineEntry


class QuarantineEntrySerializer(serializers.ModelSerializer):
    """An entry without memory content: risk, reasons, span offsets and provenance."""

    tenant = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    scope = serializers.CharField(source="scope.key", read_only=True)
    memory = serializers.SerializerMethodField()

    class Meta:
        model = QuarantineEntry
        fields = [
            "id",
            "memory",
            "tenant",
            "scope",
            "status",
            "risk",
            "detectors",
            "reasons",
            "spans",
            "source",
            "source_kind",
            "api_key_prefix",
            "run_id",
            "created_at",
            "decided_by_label",
            "decided_at",
        ]
        read_only_fields = fields

    def get_memory(self, entry: QuarantineEntry) -> str | None:
        return f"mem_{entry.item_id.hex}" if entry.item_id else None


class DecisionRequest(serializers.Serializer):
    reason = serializers.CharField(max_length=services.MAX_REASON_LENGTH)


class QueueCursorPagination(KeysetCursorPagination):
    """The queue's working order (risk, then age); no COUNT over the table."""

    ordering = selectors.QUEUE_ORDER


class QuarantineEntryViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """GET the queue; POST release / reject with a reason."""

    serializer_class = QuarantineEntrySerializer
    pagination_class = QueueCursorPagination
    filterset_class = QuarantineEntryFilter

    def get_queryset(self):
        entries = selectors.entries_visible_to(self.request.user).select_related("tenant", "scope")
        if self.action == "list":
            wanted = self.request.query_params.get("status", EntryStatus.PENDING)
            entries = entries.filter(status=wanted)
        return entries

    def _decide(self, request: Request, pk: str, decision: str, perm: str) -> Response:
        entry = get_object_or_404(selectors.entries_visible_to(request.user, perm), pk=pk)
        body = DecisionRequest(data=request.data)
        body.is_valid(raise_exception=True)
        services.DECISIONS[decision](
            entry_id=entry.pk, actor=request.user, reason=body.validated_data["reason"]
        )
        entry = self.get_queryset().get(pk=entry.pk)
        return Response(QuarantineEntrySerializer(entry).data)

    @extend_schema(request=DecisionRequest, responses=QuarantineEntrySerializer)
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: str | None = None) -> Response:
        """Return the memory to active use."""
        return self._decide(request, pk, "release", "release_quarantine")

    @extend_schema(request=DecisionRequest, responses=QuarantineEntrySerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk: str | None = None) -> Response:
        """Delete the memory; the entry stays as a content-free record."""
        return self._decide(request, pk, "reject", "review_memories")
