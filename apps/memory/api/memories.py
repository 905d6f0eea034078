"""`/api/v1/memories/`: remember, list, read, edit, forget, feedback and merge, and a
memory by its key (`by-key/`: read the active item, or upsert through the gate).

Thin: every read goes through items_visible_to (out of grant → 404), every write
through apps.memory.services. Writes need `write_memories` on the item's scope.
Writes that create (POST, PUT by key) honour `Idempotency-Key` (api.idempotency).
"""

import uuid

from django.urls import reverse
from django.utils import timezone
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.access.models import AgentAPIKey
from apps.core.api import KeysetCursorPagination
from apps.memory.api.idempotency import HEADER as IDEMPOTENCY_HEADER
from apps.memory.api.idempotency import Written, answer_once
from apps.memory.api.preconditions import edit_expecting_version
from apps.memory.api.remember_body import (
    RememberRequest,
    new_memory_from_request,
    tenant_of_request,
)
from apps.memory.api.serializers import (
    ByKeyQuery,
    FeedbackRequest,
    MemoryPatchRequest,
    MemorySerializer,
    MergeRequest,
    RememberResponseSerializer,
    shows_content_to,
    withheld_representation,
)
from apps.memory.filters import METADATA_PREFIX, MemoryApiFilter
from apps.memory.gate import GateRejected
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.selectors import items_visible_to
from apps.memory.services import (
    forget_item,
    give_feedback,
    merge_items,
    patch_item,
    remember,
    restore_item,
)
from apps.tenancy.keys import parse_scope_key
from apps.tenancy.permissions import Perm
from memory_console.metrics import count_gate_outcome

_ID_PARAMETER = OpenApiParameter(
    "id", OpenApiTypes.STR, OpenApiParameter.PATH, description="`mem_<hex>` or a UUID."
)
_IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description='The version being edited (the ETag, e.g. `"3"`), instead of `version` in '
    "the body; `*` edits whatever version is current. Stale: 412 (a stale body `version`: "
    "409). Neither given: 428.",
)
_IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID): a retry with the same key and body gets the first "
    "answer (`Idempotent-Replayed: true`) without writing again; the same key with another "
    "body answers 422. Kept 24 hours.",
)
_BY_KEY_PARAMETERS = [
    OpenApiParameter("scope", OpenApiTypes.STR, required=True, description="Scope key `kind:id`."),
    OpenApiParameter("key", OpenApiTypes.STR, required=True, description="The fact key."),
    OpenApiParameter(
        "tenant", OpenApiTypes.STR, description="Tenant slug; optional for a one-tenant key."
    ),
]
# The answer to a write, rendered by one serializer per outcome for the process, as a
# list serializer renders every row with one child: building a ModelSerializer's fields
# for each response cost about as much CPU as the rest of the view. Their context holds
# nothing that belongs to a request ("now" defaults to the moment of rendering).
_REMEMBER_RESPONSES = {
    merged: RememberResponseSerializer(context={"merged": merged}) for merged in (False, True)
}


def parse_memory_id(value: str) -> uuid.UUID:
    """Accept `mem_<hex>` or a plain UUID; anything else is simply not found."""
    raw = value[4:] if value.startswith("mem_") else value
    try:
        return uuid.UUID(raw)
    except ValueError as exc:
        raise exceptions.NotFound() from exc


def api_key_prefix(request) -> str:
    return request.auth.prefix if isinstance(request.auth, AgentAPIKey) else ""


class MemoryCursorPagination(KeysetCursorPagination):
    """Newest first; cursors stay cheap however large the table grows."""

    ordering = ("-created_at", "-id")


@extend_schema_view(
    list=extend_schema(
        summary="List memories you may read",
        description="Filters combine with AND; a list parameter takes commas or repeats "
        "(`status=active,archived`). `status` defaults to `active`; to an agent key, items "
        "of any other status are listed as `{id, status}` only, without content. "
        f"`{METADATA_PREFIX}KEY=value` keeps items whose metadata has that top-level key "
        "with that value (compared as text: `metadata.turn=3`, `metadata.final=true`). "
        "An unknown parameter answers 400 naming it.",
        responses={200: MemorySerializer(many=True)},
    ),
    retrieve=extend_schema(
        summary="Read one memory with its version and effective score",
        parameters=[_ID_PARAMETER],
        responses={200: MemorySerializer},
    ),
    create=extend_schema(
        summary="Remember: write a memory through the gate",
        parameters=[_IDEMPOTENCY_KEY],
        request=RememberRequest,
        responses={
            201: RememberResponseSerializer,
            200: OpenApiResponse(RememberResponseSerializer, description="Merged (duplicate)"),
        },
    ),
    partial_update=extend_schema(
        summary="Edit a memory (optimistic lock)",
        parameters=[_ID_PARAMETER, _IF_MATCH],
        request=MemoryPatchRequest,
        responses={
            200: MemorySerializer,
        },
    ),
    destroy=extend_schema(
        summary="Forget: archive a memory (soft)",
        parameters=[_ID_PARAMETER],
        responses={204: None},
    ),
)
class MemoryViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """The agent memory API (CONTRACT "REST API")."""

    serializer_class = MemorySerializer
    pagination_class = MemoryCursorPagination
    filter_backends = [DjangoFilterBackend]
    filterset_class = MemoryApiFilter
    lookup_value_regex = "[^/]+"
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def get_queryset(self):
        perm = Perm.VIEW_MEMORIES if self.request.method in ("GET", "HEAD") else Perm.WRITE_MEMORIES
        return items_visible_to(self.request.user, perm).select_related("tenant", "scope")

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "now": timezone.now()}

    def get_object(self) -> MemoryItem:
        pk = parse_memory_id(self.kwargs["pk"])
        try:
            return self.get_queryset().get(pk=pk)
        except MemoryItem.DoesNotExist as exc:
            raise exceptions.NotFound() from exc

    def retrieve(self, request, *args, **kwargs):
        item = self.get_object()
        return Response(self.get_serializer(item).data, headers={"ETag": f'"{item.version}"'})

    def create(self, request, *args, **kwargs):
        return answer_once(request, lambda: self._remember(request, request.data))

    def _remember(self, request, data) -> Written:
        """One write through the gate: 201 (with Location) for a new item, 200 when merged."""
        try:
            new = new_memory_from_request(
                data, actor=request.user, api_key_prefix=api_key_prefix(request)
            )
            result = remember(new=new, actor=request.user)
        except GateRejected as refused:
            count_gate_outcome(f"rejected_{refused.code}")
            raise
        count_gate_outcome("merged" if result.merged else result.item.status)
        # The gate's item is the stored row, with its tenant (and, when new, its scope)
        # loaded: no second read. What the gate held back is answered as {id, status}.
        if shows_content_to(request, result.item):
            body = _REMEMBER_RESPONSES[result.merged].to_representation(result.item)
        else:
            body = {**withheld_representation(result.item), "merged": result.merged}
        if result.merged:
            return Response(body, status=status.HTTP_200_OK), result.item
        location = reverse("memory-api:memory-detail", kwargs={"pk": result.item.public_id})
        created = Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})
        return created, result.item

    def partial_update(self, request, *args, **kwargs):
        item = self.get_object()
        body = MemoryPatchRequest(data=request.data)
        body.is_valid(raise_exception=True)
        changes = dict(body.validated_data)
        updated = edit_expecting_version(
            request,
            item,
            changes.pop("version", None),
            lambda expected: patch_item(
                item_id=item.pk, changes=changes, actor=request.user, expected_version=expected
            ),
        )
        updated = MemoryItem.objects.select_related("tenant", "scope").get(pk=updated.pk)
        return Response(self.get_serializer(updated).data, headers={"ETag": f'"{updated.version}"'})

    def destroy(self, request, *args, **kwargs):
        item = self.get_object()
        forget_item(item_id=item.pk, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Feedback: positive reinforces, negative cuts importance",
        parameters=[_ID_PARAMETER],
        request=FeedbackRequest,
        responses={200: MemorySerializer},
    )
    @action(detail=True, methods=["post"])
    def feedback(self, request, *args, **kwargs):
        item = self.get_object()
        body = FeedbackRequest(data=request.data)
        body.is_valid(raise_exception=True)
        updated = give_feedback(
            item_id=item.pk, signal=body.validated_data["signal"], actor=request.user
        )
        updated.scope = item.scope
        return Response(self.get_serializer(updated).data)

    @extend_schema(
        summary="Restore an archived memory to recall (operators: review rights on its scope)",
        parameters=[_ID_PARAMETER],
        request=None,
        responses={200: MemorySerializer},
    )
    @action(detail=True, methods=["post"])
    def restore(self, request, *args, **kwargs):
        pk = parse_memory_id(self.kwargs["pk"])
        reviewable = items_visible_to(request.user, Perm.REVIEW_MEMORIES)
        if not reviewable.filter(pk=pk).exists():
            raise exceptions.NotFound()
        restored = restore_item(item_id=pk, actor=request.user)  # NotArchived answers 409
        restored = MemoryItem.objects.select_related("tenant", "scope").get(pk=restored.pk)
        return Response(self.get_serializer(restored).data)

    @extend_schema(
        summary="Merge memories of one scope into the newest",
        request=MergeRequest,
        responses={200: MemorySerializer},
    )
    @action(detail=False, methods=["post"])
    def merge(self, request, *args, **kwargs):
        body = MergeRequest(data=request.data)
        body.is_valid(raise_exception=True)
        ids = [parse_memory_id(value) for value in body.validated_data["ids"]]
        visible = set(self.get_queryset().filter(pk__in=ids).values_list("pk", flat=True))
        if visible != set(ids):
            raise exceptions.NotFound()
        merged = merge_items(
            item_ids=ids, actor=request.user, content=body.validated_data.get("content")
        )
        merged = MemoryItem.objects.select_related("tenant", "scope").get(pk=merged.pk)
        return Response(self.get_serializer(merged).data)

    @extend_schema(
        methods=["GET"],
        summary="Read the active memory of a key",
        parameters=_BY_KEY_PARAMETERS,
        responses={200: MemorySerializer},
    )
    @extend_schema(
        methods=["PUT"],
        summary="Upsert by key: write the key's value through the gate",
        description="The body is a remember body; `scope`, `key` and `tenant` come from the "
        "query. The same value (and type and category) as the key's active item merges (200); "
        "a new value is a new item (201, Location), and the conflict policy decides the old "
        "one's fate: a last-write-wins key supersedes it, any other key holds the new value "
        "for review (`status: pending_review`).",
        parameters=[*_BY_KEY_PARAMETERS, _IDEMPOTENCY_KEY],
        request=RememberRequest,
        responses={
            201: RememberResponseSerializer,
            200: OpenApiResponse(RememberResponseSerializer, description="Same value: merged"),
        },
    )
    @action(detail=False, methods=["get", "put"], url_path="by-key", filter_backends=[])
    def by_key(self, request, *args, **kwargs):
        query = ByKeyQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        where = query.validated_data
        if request.method == "PUT":
            return answer_once(request, lambda: self._remember(request, query.body_of(request)))
        kind, external_id = parse_scope_key(where["scope"])
        item = (
            self.get_queryset()
            .filter(
                tenant__slug=tenant_of_request(where, actor=request.user, perm=Perm.VIEW_MEMORIES),
                scope__kind=kind,
                scope__external_id=external_id,
                key=where["key"],
                status=MemoryStatus.ACTIVE,
            )
            .order_by("-created_at")
            .first()
        )
        if item is None:
            raise exceptions.NotFound()
        return Response(self.get_serializer(item).data, headers={"ETag": f'"{item.version}"'})
