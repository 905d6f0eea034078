"""REST API of conflicts (CONTRACT): list with filters and cursor pages; resolve; revert.

Thin: the same selectors and services as the review screen. Out of grant is 404.
"""

from typing import ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from apps.conflicts.models import Conflict, ConflictStatus, Resolution
from apps.conflicts.selectors import conflicts_visible_to, open_conflicts_for
from apps.conflicts.services import (
    resolve_conflict,
    revert_resolution,
)
from apps.core.api import KeysetCursorPagination
from apps.core.serializers import ContentField, ContentOrTextField
from apps.memory.api.serializers import shows_content_to, withheld_representation
from apps.memory.models import MemoryItem


class ConflictItemSerializer(serializers.ModelSerializer):
    """One side of a conflict, with its provenance (to an agent key, `{id, status}` only
    unless the item is active)."""

    # Withheld items carry only these (the schema marks the rest optional).
    schema_always_present: ClassVar[tuple[str, ...]] = ("id", "status")

    id = serializers.CharField(source="public_id")
    content = ContentField(read_only=True)

    def to_representation(self, item: MemoryItem) -> dict:
        if not shows_content_to(self.context.get("request"), item):
            return withheld_representation(item)
        return super().to_representation(item)

    class Meta:
        model = MemoryItem
        fields = [
            "id",
            "status",
            "key",
            "content",
            "source",
            "source_kind",
            "importance",
            "access_count",
            "created_at",
            "version",
        ]


class ConflictSerializer(serializers.ModelSerializer):
    tenant = serializers.CharField(source="tenant.slug")
    scope = serializers.CharField(source="scope.key")
    existing_item = ConflictItemSerializer(allow_null=True)
    incoming_item = ConflictItemSerializer(allow_null=True)
    resolved_by = serializers.CharField(source="resolved_by.get_username", default=None)

    class Meta:
        model = Conflict
        fields = [
            "id",
            "tenant",
            "scope",
            "key",
            "status",
            "resolution",
            "reason",
            "detected_by",
            "created_at",
            "resolved_at",
            "resolved_by",
            "existing_item",
            "incoming_item",
        ]


# A bound on "older than" filters: a century back is already every conflict there is,
# and larger values overflow date arithmetic.
MAX_AGE_DAYS = 36_500


class ConflictQuerySerializer(serializers.Serializer):
    tenant = serializers.SlugField(required=False)
    scope = serializers.CharField(required=False, max_length=220)
    key = serializers.CharField(required=False, max_length=200)
    older_than_days = serializers.IntegerField(required=False, min_value=0, max_value=MAX_AGE_DAYS)
    status = serializers.ChoiceField(choices=ConflictStatus.choices, default=ConflictStatus.OPEN)


class ResolveRequest(serializers.Serializer):
    resolution = serializers.ChoiceField(choices=Resolution.choices)
    content = ContentOrTextField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class RevertRequest(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class ConflictCursorPagination(KeysetCursorPagination):
    """Oldest first, the review order; no COUNT however many are open."""

    ordering = ("created_at", "id")


@extend_schema_view(
    list=extend_schema(
        summary="List conflicts you may review (open by default, oldest first)",
        parameters=[
            OpenApiParameter("tenant", OpenApiTypes.STR, description="Tenant slug."),
            OpenApiParameter("scope", OpenApiTypes.STR, description="Scope key `kind:id`."),
            OpenApiParameter("key", OpenApiTypes.STR, description="Fact key or glob pattern."),
            OpenApiParameter("older_than_days", OpenApiTypes.INT),
            OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "resolved"]),
        ],
    ),
    retrieve=extend_schema(summary="One conflict with both memories"),
)
class ConflictViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Conflicts between memories of one scope and key, and their resolution."""

    serializer_class = ConflictSerializer
    pagination_class = ConflictCursorPagination
    filter_backends: list = []
    lookup_value_regex = "[0-9]{1,18}"

    def get_queryset(self):
        return conflicts_visible_to(self.request.user).select_related(
            "tenant", "scope", "existing_item", "incoming_item", "resolved_by"
        )

    def list(self, request, *args, **kwargs):
        query = ConflictQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = query.validated_data
        queryset = open_conflicts_for(
            request.user,
            tenant=filters.get("tenant", ""),
            scope_key=filters.get("scope", ""),
            key_pattern=filters.get("key", ""),
            older_than_days=filters.get("older_than_days"),
            status=filters["status"],
        ).select_related("resolved_by")
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def get_object(self) -> Conflict:
        try:
            return self.get_queryset().get(pk=int(self.kwargs["pk"]))
        except (Conflict.DoesNotExist, ValueError) as exc:
            raise NotFound() from exc

    @extend_schema(
        summary="Resolve an open conflict (409 if someone already did)",
        request=ResolveRequest,
        responses={200: ConflictSerializer},
    )
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        conflict = self.get_object()
        body = ResolveRequest(data=request.data)
        body.is_valid(raise_exception=True)
        resolve_conflict(
            conflict_id=conflict.pk,
            resolution=body.validated_data["resolution"],
            actor=request.user,
            reason=body.validated_data["reason"],
            content=body.validated_data.get("content"),
        )
        return Response(self.get_serializer(self.get_object()).data)

    @extend_schema(
        summary="Undo a conflict's resolution (the conflict reopens)",
        request=RevertRequest,
        responses={200: ConflictSerializer},
    )
    @action(detail=True, methods=["post"])
    def revert(self, request, pk=None):
        conflict = self.get_object()
        body = RevertRequest(data=request.data)
        body.is_valid(raise_exception=True)
        revert_resolution(
            conflict_id=conflict.pk, actor=request.user, reason=body.validated_data["reason"]
        )
        return Response(self.get_serializer(self.get_object()).data)
