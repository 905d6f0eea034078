"""Scope keys: `kind:external_id`, the way the API and the console name a scope."""

from rest_framework import serializers

from apps.tenancy.models import ScopeKind

MAX_EXTERNAL_ID_LENGTH = 200


def parse_scope_key(value: str) -> tuple[str, str]:
    """Split `kind:external_id`, checking the kind; raises ValidationError otherwise."""
    kind, sep, external_id = value.partition(":")
    if not sep or not external_id.strip() or kind not in ScopeKind.values:
        kinds = ", ".join(ScopeKind.values)
        raise serializers.ValidationError(
            f"Scope must be 'kind:external_id' with kind one of {kinds}."
        )
    if len(external_id) > MAX_EXTERNAL_ID_LENGTH:
        raise serializers.ValidationError("The scope's external id is limited to 200 characters.")
    return kind, external_id
