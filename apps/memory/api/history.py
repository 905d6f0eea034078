"""`GET /api/v1/memories/{id}/versions/`: an item's history — who, when, why — newest first.

Thin: the item through items_visible_to (out of grant → 404), its versions through the
selector, keyset pages. Safe reads (issue 18 point 1) hold for history too: to an agent
key a version shows its content only when the item is active now and the version was
active then; a version of a held item, or content the gate held back (quarantined,
pending review, rejected) or retired, is listed without content, key or text.
"""

from typing import ClassVar

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers

from apps.access.models import AgentAPIKey
from apps.audit.models import action_label
from apps.core.api import KeysetCursorPagination
from apps.core.serializers import ContentField
from apps.memory.api.memories import _ID_PARAMETER, parse_memory_id
from apps.memory.api.serializers import is_agent_request
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.selectors import items_visible_to, versions_of
from apps.tenancy.permissions import Perm


class VersionCursorPagination(KeysetCursorPagination):
    """Newest version first."""

    ordering = ("-version",)


class VersionActorSerializer(serializers.Serializer):
    """Who made a change: a person, an agent (service account, with the key that wrote
    the item when known), or the system (a job, or an account since deleted)."""

    kind = serializers.ChoiceField(choices=["user", "service_account", "system"])
    name = serializers.CharField(allow_null=True)
    api_key = serializers.CharField(
        allow_null=True, help_text="Name of the API key that created the item (creation only)."
    )


class MemoryVersionSerializer(serializers.ModelSerializer):
    """One version: the item as it stood, and who changed it, when and why."""

    actor = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField(help_text="The change in words.")
    content_withheld = serializers.SerializerMethodField(
        help_text="True when this version's content is not shown to an agent key."
    )
    content = ContentField(read_only=True)
    # key, content and text are left out of a version withheld from an agent key.
    schema_always_present: ClassVar[tuple[str, ...]] = (
        "version", "status", "change", "reason", "reference", "actor", "created_at",
        "importance", "content_withheld",
    )  # fmt: skip

    class Meta:
        model = MemoryVersion
        fields = [
            "version",
            "status",
            "change",
            "reason",
            "reference",
            "actor",
            "created_at",
            "importance",
            "key",
            "content",
            "text",
            "content_withheld",
        ]
        read_only_fields = fields

    def _withheld(self, version: MemoryVersion) -> bool:
        item: MemoryItem = self.context["item"]
        if not is_agent_request(self.context.get("request")):
            return False
        return item.status != MemoryStatus.ACTIVE or version.status != MemoryStatus.ACTIVE

    def to_representation(self, version: MemoryVersion) -> dict:
        answer = super().to_representation(version)
        if answer["content_withheld"]:
            for name in ("key", "content", "text"):
                answer.pop(name)
        return answer

    def get_content_withheld(self, version: MemoryVersion) -> bool:
        return self._withheld(version)

    def get_reason(self, version: MemoryVersion) -> str:
        return action_label(version.change)

    @extend_schema_field(VersionActorSerializer)
    def get_actor(self, version: MemoryVersion) -> dict:
        user = version.changed_by
        if user is None:
            return {"kind": "system", "name": None, "api_key": None}
        agent = hasattr(user, "service_account")  # loaded with the version (no query)
        creation = version.version == 1 and agent
        return {
            "kind": "service_account" if agent else "user",
            "name": user.get_username(),
            "api_key": self.context.get("api_key_name") if creation else None,
        }


@extend_schema(
    summary="An item's history: every version with who, when and why (newest first)",
    parameters=[_ID_PARAMETER],
    responses={200: MemoryVersionSerializer(many=True)},
)
class MemoryVersionList(generics.ListAPIView):
    """The versions of one memory the caller may read."""

    serializer_class = MemoryVersionSerializer
    pagination_class = VersionCursorPagination
    filter_backends: list = []

    def get_item(self) -> MemoryItem:
        if not hasattr(self, "_item"):
            pk = parse_memory_id(self.kwargs["pk"])
            try:
                self._item = items_visible_to(self.request.user, Perm.VIEW_MEMORIES).get(pk=pk)
            except MemoryItem.DoesNotExist as exc:
                raise exceptions.NotFound() from exc
        return self._item

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return MemoryVersion.objects.none()
        return versions_of(self.get_item())

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if getattr(self, "swagger_fake_view", False):
            return context
        item = self.get_item()
        key_name = None
        if item.api_key_prefix:
            key_name = (
                AgentAPIKey.objects.filter(prefix=item.api_key_prefix)
                .values_list("name", flat=True)
                .first()
            )
        return {**context, "item": item, "api_key_name": key_name}
