"""Walking the hash chain and signing its head (ARCHITECTURE §7).

`walk_chain` re-derives every event's hash from its stored fields in sequence order and
stops at the first event that does not fit: a gap in the sequence (an event deleted), a
`prev_hash` that is not the previous event's hash (inserted, removed or reordered), or a
stored hash that does not match the event's fields (edited). It reads raw tuples through
a server-side cursor on PostgreSQL so that memory stays flat and the walk is fast.

Checkpoints sign (sequence, head hash, count) with MEMORY_CONSOLE_AUDIT_SIGNING_KEY, a
key that is not in the database. A walk may start from a trusted checkpoint instead of
the genesis; an exported checkpoint file also catches someone who rewrote rows and then
recomputed the whole chain, because the chain no longer passes through its head hash.
"""

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection

from apps.audit.models import AuditCheckpoint, AuditEvent
from apps.core.errors import ServiceError

GENESIS_HASH = "0" * 64
CHECKPOINT_FORMAT = "memory-console.audit-checkpoint"
CHECKPOINT_FORMAT_VERSION = 1
_FETCH_SIZE = 10_000

# The hashed fields, in the order the walk reads them; canonical() must agree with
# apps.audit.appending.canonical_event for every event record() writes.
_FIELDS = (
    "sequence",
    "occurred_at",
    "actor_kind",
    "actor_id",
    "actor_label",
    "action",
    "target_type",
    "target_id",
    "tenant_id",
    "scope_id",
    "ip",
    "request_id",
    "metadata",
)
_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_escape = json.encoder.encode_basestring  # what the encoder above uses for every string


def canonical(fields: dict[str, Any]) -> bytes:
    """The deterministic serialisation hashed into the chain (occurred_at as ISO text)."""
    return _encode(fields).encode()


def canonical_pieces(fields: dict[str, Any]) -> tuple[str, str, str]:
    """canonical(fields) as text in the three pieces around its time and sequence, for the
    database to fill in (audit_append_events): canonical(fields) is the UTF-8 of
    before_time + isoformat(occurred_at) + before_sequence + str(sequence) + after_sequence."""
    # Keys are encoded in sorted order, each pair on its own, so sorted slices of the
    # fields encode to slices of the whole text.
    before = _encode({k: v for k, v in fields.items() if k < "occurred_at"})
    between = _encode({k: v for k, v in fields.items() if "occurred_at" < k < "sequence"})
    after = _encode({k: v for k, v in fields.items() if k > "sequence"})
    return f'{before[:-1]},"occurred_at":"', f'",{between[1:-1]},"sequence":', f",{after[1:]}"


def link_hash(prev_hash: str, canonical_bytes: bytes) -> str:
    """hash = sha256(prev_hash ‖ canonical(event))."""
    return hashlib.sha256(prev_hash.encode() + canonical_bytes).hexdigest()


@dataclass(frozen=True)
class ChainBreak:
    sequence: int
    reason: str


@dataclass(frozen=True)
class WalkResult:
    """What a walk found: events hashed, the last good head, and the first break if any."""

    checked: int
    head_sequence: int
    head_hash: str
    broken: ChainBreak | None = None

    @property
    def ok(self) -> bool:
        return self.broken is None


def _iso(value: datetime) -> str:
    return value.isoformat(timespec="microseconds")


_PG_SELECT = """
    SELECT sequence,
           to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
           actor_kind, actor_id, actor_label, action, target_type, target_id,
           tenant_id, scope_id, host(ip), request_id, metadata::text, prev_hash, hash
      FROM audit_auditevent
     WHERE sequence > {after:d} AND sequence <= {until:d}
     ORDER BY sequence
"""
_PG_TYPES = ["int8", "text", "text", "int8", *["text"] * 4, "int8", "int8", *["text"] * 5]
_NO_END = 2**63 - 1


def _rows_postgresql(after_sequence: int, until_sequence: int | None) -> Iterator[tuple]:
    """Raw rows streamed with COPY (binary): the fastest way out of PostgreSQL, with memory
    flat however long the log. Timestamps arrive as ISO text, metadata as JSON text."""
    sql = _PG_SELECT.format(after=int(after_sequence), until=int(until_sequence or _NO_END))
    connection.ensure_connection()
    with (
        connection.connection.cursor() as cursor,
        cursor.copy(f"COPY ({sql}) TO STDOUT (FORMAT BINARY)") as copy,
    ):
        copy.set_types(_PG_TYPES)
        yield from copy.rows()


def _rows_portable(after_sequence: int, until_sequence: int | None) -> Iterator[tuple]:
    """The same rows through the ORM, for SQLite (the embedded default)."""
    events = AuditEvent.objects.filter(sequence__gt=after_sequence)
    if until_sequence is not None:
        events = events.filter(sequence__lte=until_sequence)
    rows = (
        events.order_by("sequence")
        .values_list(*_FIELDS, "prev_hash", "hash")
        .iterator(chunk_size=_FETCH_SIZE)
    )
    for row in rows:
        yield (row[0], _iso(row[1]), *row[2:12], _encode(row[12]), row[13], row[14])


_metadata_seen: dict[str, str] = {}
_ips_seen: dict[str, str] = {}


def normalise_ip(value: str | None) -> str | None:
    """One spelling per address (Python's), whatever form the database prints it in."""
    if not value:
        return None
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def _canonical_ip(text: str) -> str:
    canonical_text = _ips_seen.get(text)
    if canonical_text is None:
        if len(_ips_seen) > 50_000:
            _ips_seen.clear()
        canonical_text = _ips_seen[text] = _escape(normalise_ip(text) or text)
    return canonical_text


def _canonical_metadata(text: str) -> str:
    """Metadata JSON text re-encoded canonically; remembered, since most of it repeats."""
    canonical_text = _metadata_seen.get(text)
    if canonical_text is None:
        if len(_metadata_seen) > 50_000:
            _metadata_seen.clear()
        canonical_text = _metadata_seen[text] = _encode(json.loads(text))
    return canonical_text


def _canonical_row(row: tuple) -> str:
    """canonical() of a raw walked row, assembled directly: the walk's hot path.

    Keys in sorted order, strings escaped by the json module's own encoder, metadata
    re-encoded with sorted keys; tests pin that the text is identical to canonical().
    `occurred_at` needs no escaping: the database (or isoformat) renders it.
    """
    esc = _escape
    metadata = row[12]
    if metadata != "{}":
        metadata = _canonical_metadata(metadata)
    return (
        f'{{"action":{esc(row[5])}'
        f',"actor_id":{"null" if row[3] is None else row[3]}'
        f',"actor_kind":{esc(row[2])}'
        f',"actor_label":{esc(row[4])}'
        f',"ip":{"null" if row[10] is None else _canonical_ip(row[10])}'
        f',"metadata":{metadata}'
        f',"occurred_at":"{row[1]}"'
        f',"request_id":{esc(row[11])}'
        f',"scope_id":{"null" if row[9] is None else row[9]}'
        f',"sequence":{row[0]}'
        f',"target_id":{esc(row[7])}'
        f',"target_type":{esc(row[6])}'
        f',"tenant_id":{"null" if row[8] is None else row[8]}}}'
    )


def walk_chain(
    *,
    after_sequence: int = 0,
    prev_hash: str = GENESIS_HASH,
    until_sequence: int | None = None,
) -> WalkResult:
    """Re-hash every event after `after_sequence`, expecting the chain to continue `prev_hash`."""
    rows = _rows_postgresql if connection.vendor == "postgresql" else _rows_portable
    expected_sequence = after_sequence + 1
    expected_prev = prev_hash
    checked = 0
    sha256 = hashlib.sha256
    canonical_row = _canonical_row
    for row in rows(after_sequence, until_sequence):
        sequence = row[0]
        if sequence != expected_sequence:
            return WalkResult(
                checked,
                expected_sequence - 1,
                expected_prev,
                ChainBreak(expected_sequence, f"event missing (next stored is #{sequence})"),
            )
        if row[13] != expected_prev:
            return WalkResult(
                checked,
                sequence - 1,
                expected_prev,
                ChainBreak(sequence, "prev_hash does not match the previous event's hash"),
            )
        digest = sha256((expected_prev + canonical_row(row)).encode()).hexdigest()
        if digest != row[14]:
            return WalkResult(
                checked,
                sequence - 1,
                expected_prev,
                ChainBreak(sequence, "stored hash does not match the event's fields"),
            )
        checked += 1
        expected_sequence += 1
        expected_prev = digest
    return WalkResult(checked, expected_sequence - 1, expected_prev)


# --- checkpoints -------------------------------------------------------------------


class CheckpointError(ServiceError, ValueError):
    """A checkpoint whose signature or format cannot be trusted."""

    code = "invalid_checkpoint"


@dataclass(frozen=True)
class SignedHead:
    """The signed facts of a checkpoint, wherever it is kept (database row or file)."""

    sequence: int
    head_hash: str
    count: int
    created_at: str
    signature: str = ""

    def payload(self) -> bytes:
        return canonical(
            {
                "format": CHECKPOINT_FORMAT,
                "version": CHECKPOINT_FORMAT_VERSION,
                "sequence": self.sequence,
                "head_hash": self.head_hash,
                "count": self.count,
                "created_at": self.created_at,
            }
        )

    def signed(self) -> "SignedHead":
        return SignedHead(
            self.sequence, self.head_hash, self.count, self.created_at, sign_payload(self.payload())
        )

    def is_authentic(self) -> bool:
        return bool(self.signature) and hmac.compare_digest(
            self.signature, sign_payload(self.payload())
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": CHECKPOINT_FORMAT,
                "version": CHECKPOINT_FORMAT_VERSION,
                "sequence": self.sequence,
                "head_hash": self.head_hash,
                "count": self.count,
                "created_at": self.created_at,
                "key_id": signing_key_id(),
                "signature": self.signature,
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str) -> "SignedHead":
        try:
            data = json.loads(text)
            if data.get("format") != CHECKPOINT_FORMAT:
                raise CheckpointError("Not an audit checkpoint file.")
            head = cls(
                sequence=int(data["sequence"]),
                head_hash=str(data["head_hash"]),
                count=int(data["count"]),
                created_at=str(data["created_at"]),
                signature=str(data["signature"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            if isinstance(error, CheckpointError):
                raise
            raise CheckpointError(f"Unreadable checkpoint file: {error}") from error
        if not head.is_authentic():
            raise CheckpointError("Checkpoint signature is invalid (wrong key or edited file).")
        return head

    @classmethod
    def from_model(cls, checkpoint: AuditCheckpoint) -> "SignedHead":
        return cls(
            checkpoint.sequence,
            checkpoint.head_hash,
            checkpoint.count,
            _iso(checkpoint.created_at),
            checkpoint.signature,
        )


def sign_payload(payload: bytes) -> str:
    """HMAC-SHA256 under MEMORY_CONSOLE_AUDIT_SIGNING_KEY: checkpoints, erasure receipts
    and the erasure log are signed with it, so each can be proven genuine later."""
    key = settings.MEMORY_CONSOLE_AUDIT_SIGNING_KEY.encode()
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


def signing_key_id() -> str:
    """A short fingerprint naming the signing key, so an operator can tell keys apart."""
    key = settings.MEMORY_CONSOLE_AUDIT_SIGNING_KEY.encode()
    return hashlib.sha256(b"key-id:" + key).hexdigest()[:12]


def stored_hash_at(sequence: int) -> str | None:
    """The hash the table holds for event `sequence` (None when there is no such event)."""
    return AuditEvent.objects.filter(sequence=sequence).values_list("hash", flat=True).first()
