"""REST API of deletion requests (CONTRACT): create, list, one, preview, and each step.

Thin: the same selectors and services as the console. A session or an API key whose user
holds the privacy permission; a request outside the caller's grants is 404; a step not
allowed now is 409, the second-approver rule 403 (ServiceError statuses).
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from apps.core.api import KeysetCursorPagination
from apps.privacy import services
from apps.privacy.models import DeletionRequest, RequestStatus
from apps.privacy.selectors import (
    may_handle_privacy,
    privacy_tenants_for,
    requests_visible_to,
    sla_state,
)
from apps.privacy.services.preview import preview_request


class HoldsPrivacyPermission(permissions.BasePermission):
    """Officers and admins only: operators, analysts and agents without it get 403."""

    message = "You need the privacy permission (compliance officers)."

    def has_permission(self, request, view) -> bool:
        return may_handle_privacy(request.user)


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


class DeletionRequestSerializer(serializers.ModelSerializer):
    tenant = serializers.CharField(source="tenant.slug")
    subject = serializers.CharField(source="subject_masked")
    identifiers = serializers.ListField(source="identifiers_masked", child=serializers.CharField())
    sla = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    verified_by = serializers.SerializerMethodField()
    approved_by = serializers.SerializerMethodField()
    executed_by = serializers.SerializerMethodField()

    class Meta:
        model = DeletionRequest
        fields = [
            "id",
            "reference",
            "tenant",
            "subject",
            "subject_hash",
            "identifiers",
            "reason",
            "status",
            "sla",
            "received_at",
            "due_at",
            "created_by",
            "verified_by",
            "verified_at",
            "approved_by",
            "approved_at",
            "decided_reason",
            "held_from",
            "residue_ids",
            "residue_reason",
            "preview_counts",
            "erased_counts",
            "executed_by",
            "execution_started_at",
            "completed_at",
            "receipt",
        ]

    def get_sla(self, request: DeletionRequest) -> str:
        return sla_state(request)

    def get_created_by(self, request) -> str | None:
        return _username(request.created_by)

    def get_verified_by(self, request) -> str | None:
        return _username(request.verified_by)

    def get_approved_by(self, request) -> str | None:
        return _username(request.approved_by)

    def get_executed_by(self, request) -> str | None:
        return _username(request.executed_by)


class CreateRequestBody(serializers.Serializer):
    tenant = serializers.SlugField(max_length=64)
    subject = serializers.CharField(max_length=200)
    identifiers = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, default=list, max_length=20
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class ReasonBody(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class OptionalReasonBody(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class ExecuteBody(serializers.Serializer):
    residue_ids = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=1000
    )
    residue_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, default=""
    )


class ListQuery(serializers.Serializer):
    tenant = serializers.SlugField(required=False)
    status = serializers.ChoiceField(choices=RequestStatus.choices, required=False)


class RequestCursorPagination(KeysetCursorPagination):
    """Newest first; no COUNT however many requests there are."""

    ordering = ("-received_at", "-id")


@extend_schema_view(
    list=extend_schema(
        summary="Deletion requests of the tenants you handle (newest first)",
        parameters=[
            OpenApiParameter("tenant", OpenApiTypes.STR, description="Tenant slug."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=RequestStatus.values),
        ],
    ),
    retrieve=extend_schema(summary="One deletion request (receipt null until completed)"),
)
class DeletionRequestViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """GDPR deletion requests: the four-eyes workflow, preview and execution."""

    serializer_class = DeletionRequestSerializer
    pagination_class = RequestCursorPagination
    permission_classes = [permissions.IsAuthenticated, HoldsPrivacyPermission]
    filter_backends: list = []

    def get_queryset(self):
        return requests_visible_to(self.request.user).select_related(
            "tenant", "created_by", "verified_by", "approved_by", "executed_by"
        )

    def list(self, request, *args, **kwargs):
        query = ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        queryset = self.get_queryset()
        if query.validated_data.get("tenant"):
            queryset = queryset.filter(tenant__slug=query.validated_data["tenant"])
        if query.validated_data.get("status"):
            queryset = queryset.filter(status=query.validated_data["status"])
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def get_object(self) -> DeletionRequest:
        try:
            return self.get_queryset().get(pk=int(self.kwargs["pk"]))
        except (DeletionRequest.DoesNotExist, ValueError) as exc:
            raise NotFound() from exc

    def _answer(self, request_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(
            self.get_serializer(self.get_queryset().get(pk=request_id)).data, status=code
        )

    @extend_schema(
        summary="Record a data subject's erasure request",
        request=CreateRequestBody,
        responses={201: DeletionRequestSerializer},
    )
    def create(self, request, *args, **kwargs):
        body = CreateRequestBody(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        tenant = privacy_tenants_for(request.user).filter(slug=data["tenant"]).first()
        if tenant is None:
            raise services.TenantNotPermitted("No such tenant, or you may not handle it.")
        created = services.create_request(
            tenant=tenant,
            subject=data["subject"],
            identifiers=data["identifiers"],
            reason=data["reason"],
            actor=request.user,
        )
        return self._answer(created.pk, status.HTTP_201_CREATED)

    @extend_schema(
        summary="What the erasure removes, per table, and the residue in other scopes",
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"])
    def preview(self, request, pk=None):
        preview = preview_request(self.get_object())
        return Response(
            {
                "tables": preview.tables,
                "residue": [
                    {
                        "memory_id": residue.memory_id,
                        "scope": residue.scope,
                        "matched": residue.matched,
                        "terms": residue.terms,
                    }
                    for residue in preview.residue
                ],
                "residue_truncated": preview.residue_truncated,
                "sealed_unscannable": preview.sealed_unscannable,
                "notes": preview.notes,
            }
        )

    @extend_schema(summary="Verify the request", request=None, responses=DeletionRequestSerializer)
    @action(detail=True, methods=["post"])
    def verify(self, request, pk=None):
        done = services.verify_request(request_id=self.get_object().pk, actor=request.user)
        return self._answer(done.pk)

    @extend_schema(
        summary="Approve (an officer other than the creator and verifier)",
        request=None,
        responses=DeletionRequestSerializer,
    )
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        done = services.approve_request(request_id=self.get_object().pk, actor=request.user)
        return self._answer(done.pk)

    @extend_schema(
        summary="Execute an approved erasure (or resume one that is executing)",
        request=ExecuteBody,
        responses=DeletionRequestSerializer,
    )
    @action(detail=True, methods=["post"])
    def execute(self, request, pk=None):
        body = ExecuteBody(data=request.data)
        body.is_valid(raise_exception=True)
        done = services.start_erasure(
            request_id=self.get_object().pk,
            actor=request.user,
            residue_ids=body.validated_data["residue_ids"],
            residue_reason=body.validated_data["residue_reason"],
        )
        return self._answer(done.pk)

    @extend_schema(summary="Reject (reason required)", request=ReasonBody)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        body = ReasonBody(data=request.data)
        body.is_valid(raise_exception=True)
        done = services.reject_request(
            request_id=self.get_object().pk,
            actor=request.user,
            reason=body.validated_data["reason"],
        )
        return self._answer(done.pk)

    @extend_schema(summary="Put on legal hold (reason required)", request=ReasonBody)
    @action(detail=True, methods=["post"])
    def hold(self, request, pk=None):
        body = ReasonBody(data=request.data)
        body.is_valid(raise_exception=True)
        done = services.hold_request(
            request_id=self.get_object().pk,
            actor=request.user,
            reason=body.validated_data["reason"],
        )
        return self._answer(done.pk)

    @extend_schema(summary="Lift the legal hold", request=OptionalReasonBody)
    @action(detail=True, methods=["post"], url_path="release-hold")
    def release_hold(self, request, pk=None):
        body = OptionalReasonBody(data=request.data)
        body.is_valid(raise_exception=True)
        done = services.release_hold(
            request_id=self.get_object().pk,
            actor=request.user,
            reason=body.validated_data["reason"],
        )
        return self._answer(done.pk)
