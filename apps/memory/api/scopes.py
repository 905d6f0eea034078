"""`/api/v1/scopes/`: list the scopes you may read (with active counts), forget one.

Thin: scopes through scopes_visible_to (out of grant → 404), the page's counts through
one grouped query over that page's scope ids only (no COUNT over the table, at any page),
forgetting through apps.memory.services.forget_scope (needs `write_memories`).
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.response import Response

from apps.core.api import KeysetCursorPagination
from apps.core.serializers import NoNulCharField
from apps.memory.selectors import active_counts_by_scope, scopes_visible_to
from apps.memory.services import forget_scope
from apps.tenancy.keys import parse_scope_key
from apps.tenancy.models import Scope
from apps.tenancy.permissions import Perm

_TENANT = OpenApiParameter("tenant", OpenApiTypes.STR, description="Tenant slug.")


class ScopeCursorPagination(KeysetCursorPagination):
    """In creation order; cursors stay cheap however many scopes there are."""

    ordering = ("id",)


class ScopeListQuery(serializers.Serializer):
    """Filters of `GET /api/v1/scopes/`."""

    tenant = NoNulCharField(max_length=64, required=False)
    prefix = NoNulCharField(
        max_length=230,
        required=False,
        help_text="Start of the scope key: `user:` for every user scope, `user:u_1` for "
        "those whose id starts so; without a colon, the start of the kind.",
    )
    cursor = serializers.CharField(required=False)
    limit = serializers.IntegerField(required=False, min_value=1)

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: ["Unknown parameter."] for name in unknown})
        return attrs


class ScopeSerializer(serializers.ModelSerializer):
    """A scope, with how many active memories it holds."""

    tenant = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    key = serializers.CharField(read_only=True, help_text="`kind:external_id`.")
    active_count = serializers.SerializerMethodField(help_text="Active memories in the scope.")

    class Meta:
        model = Scope
        fields = ["tenant", "key", "kind", "external_id", "created_at", "active_count"]
        read_only_fields = fields

    def get_active_count(self, scope: Scope) -> int:
        return self.context.get("counts", {}).get(scope.pk, 0)


class ForgetScopeAnswer(serializers.Serializer):
    tenant = serializers.CharField()
    scope = serializers.CharField()
    forgotten = serializers.IntegerField(help_text="Memories archived now.")


def _filtered(queryset, *, tenant: str | None, prefix: str | None):
    if tenant:
        queryset = queryset.filter(tenant__slug=tenant)
    if prefix:
        kind, colon, start = prefix.partition(":")
        if colon:
            queryset = queryset.filter(kind=kind, external_id__startswith=start)
        else:
            queryset = queryset.filter(kind__startswith=kind)
    return queryset


class ScopeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Scopes: listing (readers) and forgetting one (writers)."""

    serializer_class = ScopeSerializer
    pagination_class = ScopeCursorPagination
    filter_backends: list = []
    lookup_field = "key"
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        perm = Perm.VIEW_MEMORIES if self.request.method in ("GET", "HEAD") else Perm.WRITE_MEMORIES
        return scopes_visible_to(self.request.user, perm).select_related("tenant")

    @extend_schema(
        operation_id="scopes_list",
        summary="List the scopes you may read, with their active memory counts",
        parameters=[
            _TENANT,
            OpenApiParameter("prefix", OpenApiTypes.STR, description="Start of the scope key."),
        ],
        responses={200: ScopeSerializer(many=True)},
    )
    def list(self, request, *args, **kwargs):
        query = ScopeListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        queryset = _filtered(
            self.get_queryset(),
            tenant=query.validated_data.get("tenant"),
            prefix=query.validated_data.get("prefix"),
        )
        page = self.paginate_queryset(queryset)
        counts = active_counts_by_scope([scope.pk for scope in page])
        data = ScopeSerializer(page, many=True, context={"counts": counts}).data
        return self.get_paginated_response(data)

    @extend_schema(
        operation_id="scopes_forget",
        summary="Forget a scope: archive all its memories (soft), audited",
        parameters=[
            OpenApiParameter(
                "key", OpenApiTypes.STR, OpenApiParameter.PATH, description="`kind:external_id`."
            ),
            OpenApiParameter(
                "tenant",
                OpenApiTypes.STR,
                description="Tenant slug; needed only when the key exists in several "
                "tenants you may write to.",
            ),
        ],
        responses={200: ForgetScopeAnswer},
    )
    def destroy(self, request, *args, **kwargs):
        try:
            kind, external_id = parse_scope_key(self.kwargs["key"])
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({"scope": exc.detail}) from exc
        scopes = self.get_queryset().filter(kind=kind, external_id=external_id)
        tenant = request.query_params.get("tenant")
        if tenant:
            scopes = scopes.filter(tenant__slug=tenant)
        found = list(scopes[:2])
        if not found:
            raise exceptions.NotFound()
        if len(found) > 1:
            message = "This scope exists in several of your tenants; name one with `tenant`."
            raise serializers.ValidationError({"tenant": [message]})
        scope = found[0]
        outcome = forget_scope(scope=scope, actor=request.user)
        return Response(
            {"tenant": scope.tenant.slug, "scope": scope.key, "forgotten": outcome.forgotten},
            status=status.HTTP_200_OK,
        )
