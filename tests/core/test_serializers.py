"""The shared serializer fields: an embedding's list of finite floats answers exactly as
validating each value with FiniteFloatField does, whichever path checks it."""

import pytest
from rest_framework import serializers

from apps.core.serializers import FiniteFloatField, FiniteFloatListField


def answer(field: serializers.Field, data):
    try:
        return ("valid", field.run_validation(data))
    except serializers.ValidationError as refusal:
        return ("refused", refusal.detail)


@pytest.mark.parametrize(
    "data",
    [
        [0.25, -1.0, 3, 0],  # integers come back as floats
        [1e-40, 3.4e38, -(2**53)],
        [float("nan"), 1.0],
        [1.0, float("inf")],
        [True, 0.5],  # a bool is not a number here
        [0.5, "0.5"],  # a numeric string: the child decides (it takes it)
        [0.5, None],
        [[0.5], 1.0],
        [10**400],  # past float
        [],
        "0.5",
        {"0": 0.5},
    ],
)
def test_a_list_of_finite_floats_answers_as_its_child_field_value_by_value(data):
    one_pass = FiniteFloatListField(min_length=1, max_length=8)
    value_by_value = serializers.ListField(child=FiniteFloatField(), min_length=1, max_length=8)
    try:
        expected = answer(value_by_value, data)
    except OverflowError:  # DRF's own FloatField lets float()'s overflow through
        with pytest.raises(OverflowError):
            answer(one_pass, data)
        return
    assert answer(one_pass, data) == expected


def test_a_valid_embedding_comes_back_as_floats():
    assert FiniteFloatListField().run_validation([1, 0.5, -2]) == [1.0, 0.5, -2.0]
    assert all(type(value) is float for value in FiniteFloatListField().run_validation([1, 2]))
