"""Remember bodies as the gate's input: `RememberRequest` validates one (the API's, a
batch item, an importer's line), and `new_memory_from_request` / `new_memories_from_request`
turn valid ones into NewMemories of resolved values (tenant and scope resolved under the
caller's grants, so a body can only write where its key may).
"""

from typing import Any

from rest_framework import serializers

from apps.core.errors import ServiceError
from apps.core.serializers import (
    ContentField,
    FiniteFloatField,
    FiniteFloatListField,
    NoNulCharField,
    metadata_field_value,
)
from apps.memory.content import content_hash, render_text
from apps.memory.gate import GateRejected, NewMemory
from apps.memory.gate.stages import NOT_FOUND_MESSAGE
from apps.memory.models import MemoryType, SourceKind
from apps.memory.selectors import scope_to_write, sole_tenant_slug, writable_scopes
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
    embedding = FiniteFloatListField(
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
