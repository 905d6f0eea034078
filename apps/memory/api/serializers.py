"""Request and response shapes of the memory endpoints (they also drive the OpenAPI schema).

Output is data, not markup: JSON carries memory content unescaped, and never the sealed
(encrypted) content or the raw embedding bytes.
"""

from django.utils import timezone
from rest_framework import serializers

from apps.core.serializers import FiniteFloatField, NoNulCharField, content_field_value
from apps.memory.gate.stages import RememberRequest
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.memory.scoring import effective_score
from apps.memory.services import FeedbackSignal

__all__ = ["RememberRequest"]


def public_id(uuid_value) -> str | None:
    return f"mem_{uuid_value.hex}" if uuid_value else None


class MemorySerializer(serializers.ModelSerializer):
    """One memory as the API shows it, with its current version and effective score."""

    id = serializers.SerializerMethodField()
    tenant = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    scope = serializers.SerializerMethodField()
    superseded_by = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField(help_text="S(t): importance decayed since use.")
    has_embedding = serializers.SerializerMethodField()

    class Meta:
        model = MemoryItem
        fields = [
            "id",
            "tenant",
            "scope",
            "memory_type",
            "category",
            "key",
            "content",
            "text",
            "source",
            "source_kind",
            "run_id",
            "importance",
            "half_life_days",
            "confidence",
            "score",
            "last_access_at",
            "access_count",
            "archive_due_at",
            "status",
            "superseded_by",
            "expires_at",
            "version",
            "sensitive",
            "embedding_model",
            "has_embedding",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_id(self, item: MemoryItem) -> str:
        return item.public_id

    def get_scope(self, item: MemoryItem) -> str:
        return item.scope.key

    def get_superseded_by(self, item: MemoryItem) -> str | None:
        return public_id(item.superseded_by_id)

    def get_score(self, item: MemoryItem) -> float:
        now = self.context.get("now") or timezone.now()
        return effective_score(
            importance=item.importance,
            half_life_days=item.half_life_days,
            last_access_at=item.last_access_at,
            now=now,
        )

    def get_has_embedding(self, item: MemoryItem) -> bool:
        return bool(item.embedding_model)


class RememberResponseSerializer(MemorySerializer):
    """The stored (or merged-into) memory; `merged` is true when the write was a duplicate."""

    merged = serializers.SerializerMethodField()

    class Meta(MemorySerializer.Meta):
        fields = [*MemorySerializer.Meta.fields, "merged"]
        read_only_fields = fields

    def get_merged(self, item: MemoryItem) -> bool:
        return bool(self.context.get("merged"))


class MemoryPatchRequest(serializers.Serializer):
    """Editable fields; `version` (or an If-Match header) is the version being edited."""

    version = serializers.IntegerField(min_value=1, required=False)
    content = serializers.JSONField(required=False)
    key = NoNulCharField(max_length=200, required=False, allow_blank=True)
    memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    category = serializers.IntegerField(min_value=0, max_value=99, required=False)
    importance = FiniteFloatField(min_value=0.0, max_value=1.0, required=False)
    half_life_days = FiniteFloatField(min_value=0.001, max_value=36_500.0, required=False)
    confidence = FiniteFloatField(min_value=0.0, max_value=1.0, required=False)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)

    def validate_content(self, value):
        return content_field_value(value)


class FeedbackRequest(serializers.Serializer):
    signal = serializers.ChoiceField(choices=FeedbackSignal.choices)


class MergeRequest(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.CharField(max_length=40), min_length=2, max_length=100
    )
    content = serializers.JSONField(required=False, help_text="Content for the merged item.")

    def validate_content(self, value):
        return content_field_value(value)


class MemoryListQuery(serializers.Serializer):
    """Filters of `GET /api/v1/memories/`."""

    tenant = NoNulCharField(max_length=64, required=False)
    scope = NoNulCharField(max_length=230, required=False)
    memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    status = serializers.ChoiceField(choices=MemoryStatus.choices, required=False)
