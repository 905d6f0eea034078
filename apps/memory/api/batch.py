"""`POST /api/v1/memories/batch/`: remember up to 100 memories, one answer per item.

Thin: each item is built into a NewMemory by the one builder (a batch resolves each
scope once) and the batch goes through the gate's batch door, `remember_many`. A
refused item does not sink the others: the answer is 200 when every item was stored
(created or merged), 207 Multi-Status when any was refused, each item carrying its own
status and error (docs/agent-integration.md, "Batch writes").
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.errors import ServiceError
from apps.core.schema import ErrorDetailSerializer
from apps.core.serializers import NoNulCharField
from apps.memory.api.memories import api_key_prefix
from apps.memory.api.remember_body import new_memories_from_request
from apps.memory.gate import NewMemory
from apps.memory.services import RememberResult, remember_many
from memory_console.metrics import count_gate_outcome

MAX_BATCH_ITEMS = 100


class BatchRememberRequest(serializers.Serializer):
    """A batch: `items` are remember bodies; `tenant` is the default of items without one."""

    tenant = NoNulCharField(max_length=64, required=False, help_text="Default tenant slug.")
    items = serializers.ListField(
        child=serializers.JSONField(),
        min_length=1,
        max_length=MAX_BATCH_ITEMS,
        help_text="Up to 100 bodies of `POST /api/v1/memories/`.",
    )


BatchItemAnswer = inline_serializer(
    name="BatchItemAnswer",
    fields={
        "index": serializers.IntegerField(help_text="The item's position in `items`."),
        "status": serializers.IntegerField(
            help_text="The status a single POST would have answered: 201, 200 (merged), "
            "or the error's (400, 404, 409, 413)."
        ),
        "id": serializers.CharField(allow_null=True),
        "outcome": serializers.ChoiceField(
            choices=["active", "quarantined", "pending_review", "merged", "error"]
        ),
        "error": ErrorDetailSerializer(allow_null=True),
    },
)
BatchAnswer = inline_serializer(
    name="BatchAnswer",
    fields={
        "results": serializers.ListField(child=BatchItemAnswer),
        "stored": serializers.IntegerField(help_text="Items created or merged."),
        "refused": serializers.IntegerField(help_text="Items refused (see their error)."),
    },
)


def _item_answer(index: int, answer: RememberResult | ServiceError) -> dict:
    if isinstance(answer, ServiceError):
        count_gate_outcome(f"rejected_{answer.code}")
        return {
            "index": index,
            "status": answer.status,
            "id": None,
            "outcome": "error",
            "error": answer.as_body()["error"],
        }
    outcome = "merged" if answer.merged else answer.status
    count_gate_outcome(outcome)
    return {
        "index": index,
        "status": status.HTTP_200_OK if answer.merged else status.HTTP_201_CREATED,
        "id": answer.item.public_id,
        "outcome": outcome,
        "error": None,
    }


class BatchRememberView(APIView):
    """Remember a batch of memories through the gate."""

    @extend_schema(
        operation_id="memories_batch_create",
        summary="Remember a batch (≤ 100 items), one answer per item",
        request=BatchRememberRequest,
        responses={
            200: OpenApiResponse(BatchAnswer, description="Every item stored"),
            207: OpenApiResponse(BatchAnswer, description="Some items refused (see each)"),
        },
    )
    def post(self, request, *args, **kwargs):
        body = BatchRememberRequest(data=request.data)
        body.is_valid(raise_exception=True)
        built = new_memories_from_request(
            body.validated_data["items"],
            actor=request.user,
            api_key_prefix=api_key_prefix(request),
            default_tenant=body.validated_data.get("tenant", ""),
        )
        news = [new for new in built if isinstance(new, NewMemory)]
        stored = iter(remember_many(news, actor=request.user) if news else [])
        results = [
            _item_answer(index, new if isinstance(new, ServiceError) else next(stored))
            for index, new in enumerate(built)
        ]
        refused = sum(1 for result in results if result["error"] is not None)
        return Response(
            {"results": results, "stored": len(results) - refused, "refused": refused},
            status=status.HTTP_207_MULTI_STATUS if refused else status.HTTP_200_OK,
        )
