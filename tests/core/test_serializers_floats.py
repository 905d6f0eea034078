"""FiniteFloatListField: an embedding's values, checked at once, answered as the
element-by-element check answers."""

import math

import pytest
from rest_framework import serializers

from apps.core.serializers import FiniteFloatField, FiniteFloatListField


def element_by_element(data, **kwargs):
    return serializers.ListField(child=FiniteFloatField(), **kwargs).run_validation(data)


@pytest.mark.parametrize(
    "data",
    [
        [0.25, -1, 3],
        [1.5e308, 1.5e308],  # finite values whose sum overflows
        [0.5, "0.75"],  # a numeric string, as FloatField takes it
        [10**400],  # an integer beyond float
        [0.1, math.nan],
        [math.inf, 0.2],
        [0.1, True],  # a bool is not a number here
        [0.1, "x"],
        [0.1, None],
        [],
        "0.1, 0.2",
        {"0": 0.1},
    ],
)
def test_the_list_is_answered_as_each_element_would_be(data):
    field = FiniteFloatListField(min_length=1, max_length=8)
    try:
        expected = element_by_element(data, min_length=1, max_length=8)
    except serializers.ValidationError as refusal:
        with pytest.raises(serializers.ValidationError) as excinfo:
            field.run_validation(data)
        assert excinfo.value.detail == refusal.detail
        return
    accepted = field.run_validation(data)
    assert accepted == expected
    assert all(type(value) is float for value in accepted)


def test_a_refusal_names_the_offending_element():
    with pytest.raises(serializers.ValidationError) as excinfo:
        FiniteFloatListField().run_validation([0.1, 0.2, math.nan])
    assert list(excinfo.value.detail) == [2]


def test_the_length_limits_hold():
    with pytest.raises(serializers.ValidationError):
        FiniteFloatListField(max_length=2).run_validation([0.1, 0.2, 0.3])
