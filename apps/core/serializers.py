"""Serializer fields every API shares: text PostgreSQL can store, finite numbers (alone
or as an embedding's list), and
memory content checked by the one content validator (apps.core.validation)."""

import math
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.core.validation import InvalidContent, validate_content, validate_metadata


class FiniteFloatField(serializers.FloatField):
    """A float that refuses NaN and ±Infinity (they are not JSON and poison scores)."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            raise serializers.ValidationError("Must be a finite number.")
        return value


class FiniteFloatListField(serializers.ListField):
    """A list of FiniteFloatField values (an embedding), checked in one pass when every
    value is a finite number: DRF validating the child field for each of a few hundred
    values was the largest fixed cost of a remember. Any other list gets the child's
    validation, value by value, and so the same errors."""

    def __init__(self, **kwargs):
        kwargs.setdefault("child", FiniteFloatField())
        super().__init__(**kwargs)

    def run_child_validation(self, data):
        if _NUMBER_TYPES.issuperset(map(type, data)):  # bool is a type of its own here
            try:
                values = list(map(float, data))
            except OverflowError:  # an integer past float: the child's own handling
                return super().run_child_validation(data)
            if all(map(math.isfinite, values)):
                return values
        return super().run_child_validation(data)


_NUMBER_TYPES = frozenset({float, int})


class NoNulCharField(serializers.CharField):
    """Text that PostgreSQL can store (no NUL characters)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if "\x00" in value:
            raise serializers.ValidationError("Must not contain NUL characters.")
        return value


def content_field_value(value: Any) -> dict:
    """validate_content for a serializer's `validate_content`: refusals become field errors."""
    try:
        return validate_content(value)
    except InvalidContent as refusal:
        raise serializers.ValidationError(refusal.message) from None


def metadata_field_value(value: Any) -> dict:
    """validate_metadata for a serializer's `validate_metadata`: refusals become field errors."""
    try:
        return validate_metadata(value)
    except InvalidContent as refusal:
        raise serializers.ValidationError(refusal.message) from None


@extend_schema_field({"$ref": "#/components/schemas/MemoryContent"})
class ContentField(serializers.JSONField):
    """Memory content: a non-empty JSON object within the size limit (validate_content).

    The schema shows it as the `MemoryContent` object (SPECTACULAR_SETTINGS), not "any".
    """

    def to_internal_value(self, data: Any) -> dict:
        return content_field_value(super().to_internal_value(data))


@extend_schema_field(
    {
        "oneOf": [
            {"$ref": "#/components/schemas/MemoryContent"},
            {"type": "string", "description": "The JSON text of such an object."},
        ]
    }
)
class ContentOrTextField(serializers.JSONField):
    """Content as an object or as the JSON text of one, as a person may type it; the
    service validates it with parse_content."""
