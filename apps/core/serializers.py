"""Serializer fields every API shares: text PostgreSQL can store, finite numbers, and
memory content checked by the one content validator (apps.core.validation)."""

import math
from typing import Any

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
