"""Serializer fields every API shares: text PostgreSQL can store, finite numbers, and
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
    """A list of finite floats (an embedding), checked in one pass when every element is a
    plain number; any other list is checked element by element, for the same messages.

    An embedding has hundreds of values: a FiniteFloatField run on each one cost more CPU
    than the rest of a remember's validation.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=FiniteFloatField(), **kwargs)

    def to_internal_value(self, data: Any) -> list[float]:
        if type(data) is list and data and set(map(type, data)) <= _PLAIN_NUMBER_TYPES:
            try:
                values = list(map(float, data))
            except OverflowError:  # an integer beyond float: the element's own message
                return super().to_internal_value(data)
            # Finite values sum to a finite number unless the sum overflows; a NaN or an
            # infinity never does. Either way the slow path names the offending element.
            if math.isfinite(sum(values)):
                return values
        return super().to_internal_value(data)


# Exactly these types (not bool, a subclass of int that FiniteFloatField refuses).
_PLAIN_NUMBER_TYPES = frozenset({float, int})


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
