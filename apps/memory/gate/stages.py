"""The memory app's own gate stages: validation (first) and dedupe (after screening).

ValidateStage turns the raw request into MemoryItem field values, resolving tenant and
scope under the caller's grants; DedupeStage folds a repeat of an active memory into
the existing item instead of adding a row.
"""

import hashlib
import math
from array import array
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework import serializers

from apps.access.selectors import filter_by_grant, has_global_access
from apps.audit.models import Action
from apps.audit.services import record
from apps.core.serializers import FiniteFloatField, NoNulCharField, content_field_value
from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft, GateRejected
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType, SourceKind
from apps.memory.scoring import default_half_life, reinforce
from apps.memory.selectors import scopes_visible_to
from apps.tenancy.models import Scope, ScopeKind, Tenant
from memory_console.db import Parameter, PrecompiledQuery

MAX_EMBEDDING_DIMENSIONS = 4096
MAX_HALF_LIFE_DAYS = 36_500.0
NOT_FOUND_MESSAGE = "No such tenant or scope, or you may not write there."


def parse_scope_key(value: str) -> tuple[str, str]:
    """Split `kind:external_id`, checking the kind; raises ValidationError otherwise."""
    kind, sep, external_id = value.partition(":")
    if not sep or not external_id.strip() or kind not in ScopeKind.values:
        kinds = ", ".join(ScopeKind.values)
        raise serializers.ValidationError(
            f"Scope must be 'kind:external_id' with kind one of {kinds}."
        )
    if len(external_id) > 200:
        raise serializers.ValidationError("The scope's external id is limited to 200 characters.")
    return kind, external_id


class RememberRequest(serializers.Serializer):
    """The body of `POST /api/v1/memories/` (CONTRACT "REST API")."""

    tenant = NoNulCharField(max_length=64, help_text="Tenant slug.")
    scope = NoNulCharField(max_length=230, help_text="Scope key, `kind:external_id`.")
    memory_type = serializers.ChoiceField(choices=MemoryType.choices)
    content = serializers.JSONField(help_text="A JSON object (≤ 64 KiB).")
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

    def validate_content(self, value):
        return content_field_value(value)

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
    """Store an embedding as float32 bytes (native order, as numpy's float32 reads it)."""
    packed = array("f", vector)
    if not all(math.isfinite(value) for value in packed):
        raise GateRejected(
            "embedding: values overflow float32.",
            fields={"embedding": ["Values must fit in float32."]},
        )
    return packed.tobytes()


_PLACEHOLDER_USER_ID = -0x4D43  # never a real primary key


@cache
def _writable_scope_query(*, global_access: bool) -> PrecompiledQuery:
    """The scope with its tenant, if the user may write there: compiled once per process
    from the one grant filter (scopes_visible_to), so the rule is unchanged."""
    user = get_user_model()(pk=_PLACEHOLDER_USER_ID, is_active=True, is_superuser=global_access)
    user._mc_is_admin = global_access  # has_global_access() reads this, no query
    queryset = scopes_visible_to(user, "write_memories").filter(
        tenant__slug=Parameter("slug"),
        kind=Parameter("kind"),
        external_id=Parameter("external_id"),
    )
    return PrecompiledQuery(
        queryset,
        models=[(Scope, ""), (Tenant, "tenant__")],
        stand_ins={_PLACEHOLDER_USER_ID: "user_id"},
    )


def find_writable_scope(*, actor, tenant_slug: str, kind: str, external_id: str) -> Scope | None:
    """The existing scope `kind:external_id` of the tenant, with its tenant loaded, if the
    actor may write there (one query); None when it is missing or not writable."""
    if actor is None or not actor.is_authenticated or not actor.is_active:
        return None
    query = _writable_scope_query(global_access=has_global_access(actor))
    found = query.first(slug=tenant_slug, kind=kind, external_id=external_id, user_id=actor.pk)
    if found is None:
        return None
    scope, scope.tenant = found
    return scope


def resolve_writable_scope(*, actor, tenant_slug: str, scope_key: str, subject: str) -> Scope:
    """The scope to write into, created on first write; 404-style refusal when the tenant
    is unknown or the caller may not write there (never revealing which).

    The common case (an existing scope the caller may write) costs one query: the
    lookup itself runs through the grant filter.
    """
    kind, external_id = parse_scope_key(scope_key)
    scope = find_writable_scope(
        actor=actor, tenant_slug=tenant_slug, kind=kind, external_id=external_id
    )
    if scope is not None:
        return scope
    # Not writable or not there yet: a new scope needs a grant on the whole tenant.
    tenant = filter_by_grant(
        Tenant.objects.filter(slug=tenant_slug),
        actor,
        "write_memories",
        tenant_field="pk",
        scope_field=None,
    ).first()
    if tenant is None:
        raise GateRejected(NOT_FOUND_MESSAGE, code="not_found")
    if not subject and kind == ScopeKind.USER:
        subject = external_id
    try:
        with transaction.atomic():  # savepoint: the scope may exist (ungranted) or race us
            scope = Scope.objects.create(
                tenant=tenant, kind=kind, external_id=external_id, subject=subject
            )
            record(
                actor=actor,
                action=Action.SCOPE_CREATED,
                target=scope,
                tenant=tenant.pk,
                scope=scope.pk,
                data={"kind": kind},
            )
    except IntegrityError:
        # It exists: a tenant-wide grant covers it, so it is writable after all.
        scope = Scope.objects.get(tenant=tenant, kind=kind, external_id=external_id)
    scope.tenant = tenant
    return scope


class ValidateStage:
    """Schema, sizes, types and scope ownership; fills draft.tenant/scope/values."""

    name = "validate"
    # One serializer for the process, validated as a parent serializer validates a nested
    # one (run_validation keeps no state on it): its fields are built once, not deep-
    # copied on every write, which cost more CPU than the rest of the validation.
    request_schema = RememberRequest()

    def inspect(self, draft: Draft) -> None:
        if not isinstance(draft.raw, dict):
            raise GateRejected(
                "The body must be a JSON object.",
                fields={"non_field_errors": ["The body must be a JSON object."]},
            )
        try:
            data = self.request_schema.run_validation(draft.raw)
        except serializers.ValidationError as invalid:
            fields = field_messages(invalid.detail)
            first_field, messages = next(iter(fields.items()))
            raise GateRejected(f"{first_field}: {messages[0]}", fields=fields) from None
        scope = resolve_writable_scope(
            actor=draft.actor,
            tenant_slug=data["tenant"],
            scope_key=data["scope"],
            subject=data["subject"],
        )
        tenant = scope.tenant
        half_life = data.get("half_life_days") or default_half_life(
            memory_type=data["memory_type"],
            category=data["category"],
            overrides=tenant.half_life_overrides,
        )
        embedding = data.get("embedding")
        draft.tenant = tenant
        draft.scope = scope
        draft.values = {
            "tenant": tenant,
            "scope": scope,
            "memory_type": data["memory_type"],
            "category": data["category"],
            "key": data["key"],
            "content": data["content"],
            # Derived once here; a stage that rewrites the content (sensitive data)
            # rewrites these too.
            "text": render_text(data["content"]),
            "content_hash": content_hash(data["content"]),
            "source": data["source"],
            "source_kind": data["source_kind"],
            "created_by": draft.actor if getattr(draft.actor, "pk", None) else None,
            "api_key_prefix": draft.api_key_prefix,
            "run_id": data["run_id"],
            "importance": data["importance"],
            "half_life_days": half_life,
            "confidence": data["confidence"],
            "expires_at": data.get("expires_at"),
            "embedding": pack_embedding(embedding) if embedding else None,
            "embedding_model": data["embedding_model"] if embedding else "",
            "last_access_at": timezone.now(),
        }


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


# First key of the two-int advisory locks that serialise identical writes ("MCDP").
_DEDUPE_LOCK_NAMESPACE = 0x4D434450

# The oldest active item of the scope with this content (index mem_scope_hash). On
# PostgreSQL, memory_lock_and_find_twin (migration memory.0006) runs the same query after
# taking the dedupe lock; test_gate compares the answer with the equivalent queryset.
_OLDEST_ACTIVE_TWIN_SQL = f"""
    SELECT id, importance, access_count FROM {MemoryItem._meta.db_table}
    WHERE scope_id = %s AND content_hash = %s AND status = %s
    ORDER BY created_at
    LIMIT 1
"""  # noqa: S608 - the only interpolation is the model's own table name
_LOCK_AND_FIND_TWIN_SQL = "SELECT * FROM memory_lock_and_find_twin(%s, %s, %s, %s, %s)"


def find_twin_in_turn(*, scope_id: int, digest: str) -> tuple[Any, float, int] | None:
    """(id, importance, access_count) of the oldest active item of the scope with this
    content, or None; concurrent writes of the same content to one scope take turns.

    On PostgreSQL the lookup waits for a transaction-long advisory lock on (scope,
    content), all in one round trip, so a client retry racing its original merges
    instead of inserting a twin. SQLite serialises writers already.
    """
    if connection.vendor == "postgresql":
        key = int.from_bytes(hashlib.sha256(f"{scope_id}:{digest}".encode()).digest()[:4], "big")
        sql = _LOCK_AND_FIND_TWIN_SQL
        params = [_DEDUPE_LOCK_NAMESPACE, key - 2**31, scope_id, digest, MemoryStatus.ACTIVE]
    else:
        sql, params = _OLDEST_ACTIVE_TWIN_SQL, [scope_id, digest, MemoryStatus.ACTIVE]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


class DedupeStage:
    """Same normalised content in the same scope as an active item: merge, don't insert."""

    name = "dedupe"

    def inspect(self, draft: Draft) -> None:
        if draft.status != MemoryStatus.ACTIVE or draft.scope is None:
            return  # a held write never merges into (and so never vouches for) an active one
        values = draft.values
        digest = values.get("content_hash") or content_hash(values["content"])
        existing = find_twin_in_turn(scope_id=draft.scope.pk, digest=digest)
        if existing is None:
            return
        existing_id, existing_importance, existing_access_count = existing
        # Imported here: services imports the gate package, not the other way round.
        from apps.memory.services import update_item

        draft.merged_into = update_item(
            item_id=existing_id,
            changes={
                "importance": reinforce(max(existing_importance, values["importance"])),
                "access_count": existing_access_count + 1,
                "last_access_at": timezone.now(),
            },
            actor=draft.actor,
            action=Action.MEMORY_DEDUPLICATED,
            audit_data={"api_key": draft.api_key_prefix} if draft.api_key_prefix else None,
        )
