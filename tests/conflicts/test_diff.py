"""Field-level JSON diff used by the side-by-side review."""

from apps.conflicts.diff import json_diff


def changes(old, new):
    return {(e.path, e.change, e.old, e.new) for e in json_diff(old, new)}


def test_added_removed_and_changed_keys_at_nested_paths():
    old = {"address": {"city": "Beijing", "district": "Chaoyang"}, "tags": ["a", "b"], "x": 1}
    new = {"address": {"city": "Beijing", "district": "Haidian", "zip": "100080"}, "tags": ["a"]}
    assert changes(old, new) == {
        ("address.district", "changed", '"Chaoyang"', '"Haidian"'),
        ("address.zip", "added", "", '"100080"'),
        ("tags[1]", "removed", '"b"', ""),
        ("x", "removed", "1", ""),
    }


def test_type_changes_count_as_changes_and_equal_values_are_hidden():
    assert changes({"n": 1, "s": "same"}, {"n": "1", "s": "same"}) == {("n", "changed", "1", '"1"')}
    assert [e.change for e in json_diff({"s": 1}, {"s": 1}, include_same=True)] == ["same"]


def test_missing_side_diffs_against_nothing():
    assert changes(None, {"a": 1}) == {("a", "added", "", "1")}
