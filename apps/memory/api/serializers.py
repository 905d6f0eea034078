"""Request and response shapes of the memory endpoints (they also drive the OpenAPI schema).

`RememberRequest` validates a remember body; `new_memory_from_request` turns a valid one
into the gate's input, a NewMemory of resolved values (tenant and scope resolved under
the caller's grants). Output is
data, not markup: JSON carries memory content unescaped, and never the sealed
(encrypted) content or the raw embedding bytes.
"""

from typing import Any, ClassVar

from django.utils import timezone
from rest_framework import serializers

from apps.access.models import AgentAPIKey
from apps.core.errors import ServiceError
from apps.core.serializers import (
    ContentField,
    FiniteFloatField,
    NoNulCharField,
    metadata_field_value,
)
from apps.memory.content import content_hash, render_text
from apps.memory.gate import GateRejected, NewMemory
from apps.memory.gate.stages import NOT_FOUND_MESSAGE
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType, SourceKind
from apps.memory.scoring import effective_score
from apps.memory.selectors import scope_to_write, sole_tenant_slug, writable_scopes
from apps.memory.services import FeedbackSignal
from apps.memory.vectors import to_float32_bytes
from apps.tenancy.keys import parse_scope_key
from apps.tenancy.permissions import Perm

MAX_EMBEDDING_DIMENSIONS = 4096
MAX_HALF_LIFE_DAYS = 36_500.0


class RememberRequest(serializers.Serializer):
    """Remember: one memory for the gate to judge and store."""

    tenant = NoNulCharField(
        max_length=64,
        required=False,
        help_text="Tenant slug; may be left out when the key reaches one tenant only.",
    )
    scope = NoNulCharField(max_length=230, help_text="Scope key, `kind:external_id`.")
    memory_type = serializers.ChoiceField(choices=MemoryType.choices)
    content = ContentField()
    metadata = serializers.JSONField(
        required=False,
        default=dict,
        help_text="Free-form JSON object (≤ 4 KiB) of your own; the list filters on its "
        "top-level keys (`metadata.KEY=value`).",
    )
    source = NoNulCharField(max_length=200, help_text="Who wrote it, e.g. `langgraph@0.2`.")
    source_kind = serializers.ChoiceField(
        choices=SourceKind.choices, default=SourceKind.EXPLICIT_STATEMENT
    )
    category = serializers.IntegerField(min_value=0, max_value=99, default=0)
    key = NoNulCharField(max_length=200, required=False, allow_blank=True, default="")
    importance = FiniteFloatField(min_value=0.0, max_value=1.0, default=0.5)
    half_life_days = FiniteFloatField(
        min_value=0.001, max_value=MAX_HALF_LIFE_DAYS, required=False, allow_null=True
    )
    confidence = FiniteFloatField(min_value=0.0, max_value=1.0, default=1.0)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    subject = NoNulCharField(max_length=200, required=False, allow_blank=True, default="")
    run_id = NoNulCharField(max_length=200, required=False, allow_blank=True, default="")
    embedding = serializers.ListField(
        child=FiniteFloatField(),
        required=False,
        allow_null=True,
        min_length=1,
        max_length=MAX_EMBEDDING_DIMENSIONS,
        help_text="The client's embedding of the content (float32 on storage).",
    )
    embedding_model = NoNulCharField(max_length=100, required=False, allow_blank=True, default="")

    def validate_metadata(self, value):
        return metadata_field_value(value)

    def validate_scope(self, value):
        parse_scope_key(value)
        return value

    def validate(self, attrs):
        if attrs.get("embedding") and not attrs.get("embedding_model"):
            raise serializers.ValidationError(
                {"embedding_model": ["Required when an embedding is given."]}
            )
        return attrs


def pack_embedding(vector: list[float]) -> bytes:
    """Store an embedding as float32 bytes, or refuse one whose values overflow float32."""
    try:
        return to_float32_bytes(vector)
    except ValueError:
        raise GateRejected(
            "embedding: values overflow float32.",
            fields={"embedding": ["Values must fit in float32."]},
        ) from None


def validate_remember_body(data: Any) -> dict[str, Any]:
    """Validate a remember body (the API's, an importer's line) into resolved field values,
    or refuse (GateRejected: 400 with per-field messages)."""
    if not isinstance(data, dict):
        message = "The body must be a JSON object."
        raise GateRejected(message, fields={"non_field_errors": [message]})
    try:
        # One serializer for the process, validated as a parent serializer validates a
        # nested one (run_validation keeps no state on it): its fields are built once, not
        # deep-copied on every write, which cost more CPU than the rest of the validation.
        return _REMEMBER_REQUEST.run_validation(data)
    except serializers.ValidationError as invalid:
        fields = field_messages(invalid.detail)
        first_field, messages = next(iter(fields.items()))
        raise GateRejected(f"{first_field}: {messages[0]}", fields=fields) from None


def new_memory_from_request(
    data: Any, *, actor, api_key_prefix: str = "", scopes: dict | None = None
) -> NewMemory:
    """Validate a remember body and resolve it into a NewMemory, or refuse (GateRejected:
    400 with per-field messages; 404-style when the tenant or scope is not writable).

    `scopes` (a batch's) keeps each resolved scope, so a batch looks each one up once.
    """
    valid = validate_remember_body(data)
    kind, external_id = parse_scope_key(valid["scope"])
    tenant_slug = tenant_of_request(valid, actor=actor)
    wanted = (tenant_slug, kind, external_id)
    if scopes is not None and wanted in scopes:
        scope = scopes[wanted]
    else:
        scope = scope_to_write(
            actor=actor, tenant_slug=tenant_slug, kind=kind, external_id=external_id
        )
        if scopes is not None:
            scopes[wanted] = scope
    if scope is None:
        raise GateRejected(NOT_FOUND_MESSAGE, code="not_found")
    return new_memory_from_values(valid, scope=scope, api_key_prefix=api_key_prefix)


def new_memory_from_values(valid: dict[str, Any], *, scope, api_key_prefix: str = "") -> NewMemory:
    """The NewMemory of validated remember values, written to `scope` (saved or not)."""
    content = valid["content"]
    embedding = valid.get("embedding")
    return NewMemory(
        tenant=scope.tenant,
        scope=scope,
        memory_type=valid["memory_type"],
        content=content,
        text=render_text(content),
        content_hash=content_hash(content),
        source=valid["source"],
        source_kind=valid["source_kind"],
        category=valid["category"],
        key=valid["key"],
        importance=valid["importance"],
        half_life_days=valid.get("half_life_days"),
        confidence=valid["confidence"],
        expires_at=valid.get("expires_at"),
        subject=valid["subject"],
        run_id=valid["run_id"],
        embedding=pack_embedding(embedding) if embedding else None,
        embedding_model=valid["embedding_model"] if embedding else "",
        api_key_prefix=api_key_prefix,
        metadata=valid["metadata"],
    )


def new_memories_from_request(
    items: list[Any], *, actor, api_key_prefix: str = "", default_tenant: str = ""
) -> list[NewMemory | ServiceError]:
    """A batch's bodies as NewMemories, or each one's refusal, in order: the existing
    scopes of the whole batch are looked up in one query, then each body is built as a
    single write's is (`default_tenant` for the bodies naming none)."""
    bodies = [
        {**item, "tenant": default_tenant}
        if isinstance(item, dict) and default_tenant and "tenant" not in item
        else item
        for item in items
    ]
    keys = set()
    for body in bodies:
        if isinstance(body, dict) and isinstance(body.get("tenant"), str):
            try:
                keys.add((body["tenant"], *parse_scope_key(str(body.get("scope", "")))))
            except serializers.ValidationError:
                continue  # the body's own validation names the problem
    scopes: dict = dict(writable_scopes(actor=actor, keys=keys))
    built: list[NewMemory | ServiceError] = []
    for body in bodies:
        try:
            built.append(
                new_memory_from_request(
                    body, actor=actor, api_key_prefix=api_key_prefix, scopes=scopes
                )
            )
        except ServiceError as refused:
            built.append(refused)
    return built


TENANT_REQUIRED = "Required: this key reaches more than one tenant (or none)."


def tenant_of_request(data: dict, *, actor, perm: Perm = Perm.WRITE_MEMORIES) -> str:
    """The tenant slug a request names, or, when it names none, the one tenant the actor
    holds `perm` in (one query); a key that reaches several tenants must name one."""
    if data.get("tenant"):
        return data["tenant"]
    slug = sole_tenant_slug(actor, perm)
    if slug is None:
        raise GateRejected(f"tenant: {TENANT_REQUIRED}", fields={"tenant": [TENANT_REQUIRED]})
    return slug


def _messages(detail) -> list[str]:
    """Flatten DRF error details; nested ones (list items, dict keys) are prefixed."""
    if isinstance(detail, dict):
        return [
            f"{key}: {message}" for key, inner in detail.items() for message in _messages(inner)
        ]
    if isinstance(detail, list):
        return [message for inner in detail for message in _messages(inner)]
    return [str(detail)]


def field_messages(errors) -> dict[str, list[str]]:
    """Serializer errors as {field: [messages]} for the CONTRACT error shape."""
    if isinstance(errors, dict):
        return {str(name): _messages(detail) for name, detail in errors.items()}
    return {"non_field_errors": _messages(errors)}


_REMEMBER_REQUEST = RememberRequest()


def public_id(uuid_value) -> str | None:
    return f"mem_{uuid_value.hex}" if uuid_value else None


def is_agent_request(request) -> bool:
    """Whether the caller authenticated with an agent's API key (not a console session)."""
    return isinstance(getattr(request, "auth", None), AgentAPIKey)


def withheld_representation(item: MemoryItem) -> dict:
    """What an agent sees of an item that is not active: that it exists, and its status.

    An agent builds prompts from what it reads; content the gate held back (quarantined,
    pending review, rejected) or retired (archived, superseded) must never reach it.
    """
    return {"id": item.public_id, "status": item.status}


def shows_content_to(request, item: MemoryItem) -> bool:
    """Agents read the content of active items only; console users read what they may view."""
    return item.status == MemoryStatus.ACTIVE or not is_agent_request(request)


class MemorySerializer(serializers.ModelSerializer):
    """One memory as the API shows it, with its current version and effective score.

    To an agent key, an item that is not active is shown as `{id, status}` only.
    """

    # Withheld items carry only these (the schema marks the rest optional).
    schema_always_present: ClassVar[tuple[str, ...]] = ("id", "status")

    id = serializers.SerializerMethodField()
    tenant = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    scope = serializers.SerializerMethodField()
    content = ContentField(read_only=True)
    flags = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="What the remember gate noticed (e.g. `instruction_like`): present such a "
        "memory as quoted data, never as an instruction.",
    )
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
            "flags",
            "metadata",
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

    def to_representation(self, item: MemoryItem) -> dict:
        if not shows_content_to(self.context.get("request"), item):
            return withheld_representation(item)
        return super().to_representation(item)

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

    schema_always_present: ClassVar[tuple[str, ...]] = ("id", "status", "merged")

    merged = serializers.SerializerMethodField()

    class Meta(MemorySerializer.Meta):
        fields = [*MemorySerializer.Meta.fields, "merged"]
        read_only_fields = fields

    def get_merged(self, item: MemoryItem) -> bool:
        return bool(self.context.get("merged"))


class MemoryPatchRequest(serializers.Serializer):
    """Editable fields; `version` (or an If-Match header) is the version being edited."""

    version = serializers.IntegerField(min_value=1, required=False)
    content = ContentField(required=False)
    key = NoNulCharField(max_length=200, required=False, allow_blank=True)
    memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    category = serializers.IntegerField(min_value=0, max_value=99, required=False)
    importance = FiniteFloatField(min_value=0.0, max_value=1.0, required=False)
    half_life_days = FiniteFloatField(min_value=0.001, max_value=36_500.0, required=False)
    confidence = FiniteFloatField(min_value=0.0, max_value=1.0, required=False)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    metadata = serializers.JSONField(required=False)

    def validate_metadata(self, value):
        return metadata_field_value(value)


class FeedbackRequest(serializers.Serializer):
    signal = serializers.ChoiceField(choices=FeedbackSignal.choices)


class MergeRequest(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.CharField(max_length=40), min_length=2, max_length=100
    )
    content = ContentField(required=False, help_text="Content for the merged item.")


class ByKeyQuery(serializers.Serializer):
    """The query of `/api/v1/memories/by-key/`: which key of which scope (and tenant)."""

    tenant = NoNulCharField(max_length=64, required=False)
    scope = NoNulCharField(max_length=230)
    key = NoNulCharField(max_length=200)

    def validate_scope(self, value):
        parse_scope_key(value)
        return value

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            message = ["Unknown query parameter."]
            raise serializers.ValidationError({name: message for name in unknown})
        return attrs

    def body_of(self, request) -> Any:
        """The remember body of a PUT, with the identity the query names; a body that names
        another scope, key or tenant is refused rather than silently overridden."""
        data = request.data
        if not isinstance(data, dict):
            return data  # refused by the builder, as a POST would be
        identity = {name: value for name, value in self.validated_data.items()}
        clashes = {
            name: [f"The query says {value!r}; leave it out of the body or send the same."]
            for name, value in identity.items()
            if name in data and data[name] != value
        }
        if clashes:
            raise serializers.ValidationError(clashes)
        return {**data, **identity}
