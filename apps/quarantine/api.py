"""REST API of the review queue (CONTRACT): list, release, reject, escalate. Thin over the
same selectors, services and decision map as the console; outside the caller's grant (or
a decision the map does not give them) an entry is 404."""

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
    """GET the queue (`?status=escalated` for compliance); POST release / reject / escalate
    with a reason."""

    serializer_class = QuarantineEntrySerializer
    pagination_class = QueueCursorPagination
    filterset_class = QuarantineEntryFilter
    # Entry ids are integers: anything else is simply not found (never a 500).
    lookup_value_regex = "[0-9]{1,18}"

    def get_queryset(self):
        if self.action == "list":
            wanted = self.request.query_params.get("status", EntryStatus.PENDING)
            if wanted == EntryStatus.ESCALATED:
                entries = selectors.escalated_entries_visible_to(self.request.user)
            else:
                entries = selectors.entries_visible_to(self.request.user).filter(status=wanted)
        else:
            entries = selectors.entries_readable_by(self.request.user)
        return entries.select_related("tenant", "scope")

    def _decide(self, request: Request, pk: str | None, decision: str) -> Response:
        decidable = selectors.decidable_entries(request.user, decision)
        entry = get_object_or_404(decidable, pk=pk)
        body = DecisionRequest(data=request.data)
        body.is_valid(raise_exception=True)
        services.DECISIONS[decision](
            entry_id=entry.pk, actor=request.user, reason=body.validated_data["reason"]
        )
        entry = decidable.select_related("tenant", "scope").get(pk=entry.pk)
        return Response(QuarantineEntrySerializer(entry).data)

    @extend_schema(request=DecisionRequest, responses=QuarantineEntrySerializer)
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: str | None = None) -> Response:
        """Return the memory to active use (pending, or escalated to compliance)."""
        return self._decide(request, pk, "release")

    @extend_schema(request=DecisionRequest, responses=QuarantineEntrySerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk: str | None = None) -> Response:
        """Delete the memory; the entry stays as a content-free record."""
        return self._decide(request, pk, "reject")

    @extend_schema(request=DecisionRequest, responses=QuarantineEntrySerializer)
    @action(detail=True, methods=["post"])
    def escalate(self, request: Request, pk: str | None = None) -> Response:
        """Hand a pending entry to compliance: officers of the tenant may then decide it."""
        return self._decide(request, pk, "escalate")
