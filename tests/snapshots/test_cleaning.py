"""Cleaning shared by the importers: timestamps to UTC, defaults for what exports omit."""

from datetime import UTC, datetime

import pytest

from apps.snapshots.importers.cleaning import BadRecord, clean_body, to_utc, to_utc_date_end

NEW_YEAR = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "value",
    [
        1_767_225_600,  # epoch seconds
        1_767_225_600_000,  # epoch milliseconds
        1_767_225_600.0,
        "1767225600000",  # digits in a string
        "2026-01-01T00:00:00Z",
        "2026-01-01T08:00:00+08:00",
        "2025-12-31T16:00:00-08:00",
        "2026-01-01T00:00:00",  # no offset: taken as UTC
        "2026-01-01",
        datetime(2026, 1, 1),
    ],
)
def test_timestamps_become_utc_from_epochs_and_iso_strings(value):
    assert to_utc(value, field="created_at") == NEW_YEAR


@pytest.mark.parametrize("value", ["last tuesday", True, [2026], "9" * 30])
def test_what_is_not_a_time_is_refused_by_field_name(value):
    with pytest.raises(BadRecord, match=r"^created_at: "):
        to_utc(value, field="created_at")


def test_an_expiry_date_means_the_end_of_that_day():
    end = to_utc_date_end("2026-01-01", field="expires_at")
    assert end == datetime(2026, 1, 1, 23, 59, 59, tzinfo=UTC)
    assert to_utc(None, field="x") is None and to_utc("", field="x") is None


def test_a_missing_or_blank_source_becomes_unknown_and_the_kind_import():
    for source in (None, "", "   "):
        cleaned = clean_body({"source": source, "key": None, "expires_at": 1_767_225_600})
        assert cleaned["source"] == "unknown" and cleaned["source_kind"] == "import"
        assert "key" not in cleaned and cleaned["expires_at"] == "2026-01-01T00:00:00+00:00"
    kept = clean_body({"source": "langgraph@0.2", "source_kind": "tool"})
    assert (kept["source"], kept["source_kind"]) == ("langgraph@0.2", "tool")
