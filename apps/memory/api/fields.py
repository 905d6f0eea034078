"""Serializer fields that refuse what PostgreSQL cannot store or scores cannot use."""

import math

from rest_framework import serializers


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
