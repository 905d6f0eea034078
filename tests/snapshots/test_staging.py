"""The staging rows' COPY text: every staged value as PostgreSQL's COPY text format reads it."""

import uuid
from datetime import UTC, datetime

from apps.memory.models import MemoryStatus
from apps.snapshots.services import staging


def _row(**values) -> dict:
    return {name: values.get(name, "") for name in staging.COLUMNS}


def _fields(values: dict) -> dict[str, str]:
    line = staging.copy_line(values)
    assert line.endswith("\n") and line.count("\n") == 1
    return dict(zip(staging.COLUMNS, line[:-1].split("\t"), strict=True))


def test_each_type_of_value_is_written_as_copy_text():
    new_id = uuid.UUID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
    at = datetime(2026, 1, 2, 3, 4, 5, 600000, tzinfo=UTC)
    values = _row(seq=7, id=new_id, importance=0.1, half_life_days=30.0, access_count=0,
                  sensitive=True, expires_at=None, created_at=at, superseded_old=None,
                  status=MemoryStatus.QUARANTINED, flags=[], metadata={})  # fmt: skip
    fields = _fields(values)
    assert (fields["seq"], fields["id"], fields["importance"]) == ("7", str(new_id), "0.1")
    assert (fields["half_life_days"], fields["access_count"]) == ("30.0", "0")
    assert (fields["expires_at"], fields["superseded_old"]) == ("\\N", "\\N")
    assert fields["sensitive"] == "t"
    assert fields["created_at"] == "2026-01-02T03:04:05.600000+00:00"
    assert fields["status"] == "quarantined"  # a str subclass (a choices enum)
    assert (fields["flags"], fields["metadata"], fields["key"]) == ("[]", "{}", "")
    assert _fields(_row(sensitive=False))["sensitive"] == "f"


def test_tabs_line_breaks_and_backslashes_are_escaped_in_text_and_json():
    text = "a\tb\nc\rd\\e \\N"
    fields = _fields(_row(text=text, content={"text": text, "zh": "中文"}, metadata={"k": "\\"}))
    assert fields["text"] == "a\\tb\\nc\\rd\\\\e \\\\N"
    # JSON text escapes its own control characters; COPY doubles each backslash.
    assert fields["content"] == (
        '{"text": "a\\\\tb\\\\nc\\\\rd\\\\\\\\e \\\\\\\\N", "zh": "\\\\u4e2d\\\\u6587"}'
    )
    assert fields["metadata"] == '{"k": "\\\\\\\\"}'
    assert _fields(_row(status=MemoryStatus("active")))["status"] == "active"
