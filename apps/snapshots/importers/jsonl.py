"""`--format jsonl`: our own item schema, one JSON object per line.

Each line is a remember body as the API takes it (`scope`, `memory_type`, `content`,
`source`, `source_kind`, `category`, `key`, `importance`, `half_life_days`, `confidence`,
`expires_at`, `subject`, `run_id`, `metadata`, …) plus an optional `created_at`. Fields
the API does not take (`id`, `status`, `text`, `version`, …: what a listing shows) are
ignored; the gate decides the status again. A `tenant` field, when present, must be the
import's.
"""

from collections.abc import Iterator
from typing import IO

from apps.snapshots.importers.cleaning import BadRecord, Record, Refusal, json_lines, to_utc


def read(stream: IO[bytes], *, tenant_slug: str) -> Iterator[Record | Refusal]:
    """Each line of a JSON Lines file as a Record, or a Refusal naming the line."""
    for number, parsed in json_lines(stream):
        position = f"line {number}"
        try:
            yield _record(parsed, position=position, tenant_slug=tenant_slug)
        except BadRecord as bad:
            yield Refusal(position, str(bad))


def _record(parsed: object, *, position: str, tenant_slug: str) -> Record:
    if isinstance(parsed, BadRecord):
        raise parsed
    if not isinstance(parsed, dict):
        raise BadRecord("not a JSON object.")
    body = dict(parsed)
    tenant = body.pop("tenant", None)
    if tenant not in (None, tenant_slug):
        raise BadRecord("its tenant is not the one imported into.")
    created_at = to_utc(body.pop("created_at", None), field="created_at")
    return Record(position, body, created_at)
