"""Writing and reading a package's frames, a bounded chunk at a time.

Writer: lines are buffered until about CHUNK_BYTES of plaintext, then compressed,
encrypted and written as one frame. Reader: each frame is read (at most MAX_FRAME bytes),
authenticated, and decompressed with a cap (MAX_CHUNK_PLAIN), so neither a large package
nor a crafted one (a compression bomb, a huge length prefix) can exhaust memory.
"""

import hashlib
import json
import struct
import zlib
from collections.abc import Iterator
from typing import IO, Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from apps.snapshots.package import (
    FORMAT_NAME,
    MAGIC,
    READABLE_VERSIONS,
    PackageError,
)
from apps.snapshots.package.keys import new_data_key, unwrap_data_key, wrap_data_key

CHUNK_BYTES = 1024 * 1024  # plaintext per chunk the writer aims at
MAX_CHUNK_PLAIN = 16 * 1024 * 1024  # what the reader lets one chunk decompress to
MAX_FRAME = MAX_CHUNK_PLAIN + 1024  # compressed, plus the tag; zlib never grows much
MAX_HEADER = 1024 * 1024
COMPRESS_LEVEL = 3
_LENGTH = struct.Struct(">I")
_AAD_TAIL = struct.Struct(">QB")


def header_bytes(header: dict[str, Any]) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode()


def chunk_aad(header_digest: bytes, index: int, *, final: bool) -> bytes:
    """What each chunk authenticates besides itself: the header, its place, its finality."""
    return header_digest + _AAD_TAIL.pack(index, 1 if final else 0)


def chunk_nonce(index: int) -> bytes:
    # The data key is fresh per package, so a counter never repeats under one key.
    return index.to_bytes(12, "big")


class PackageWriter:
    """Writes the header, then chunks of JSONL lines; `close()` writes the final chunk."""

    def __init__(self, out: IO[bytes], *, header: dict[str, Any], passphrase: str | None):
        data_key = new_data_key()
        header = {**header, "key": wrap_data_key(data_key, passphrase=passphrase)}
        raw = header_bytes(header)
        out.write(MAGIC + _LENGTH.pack(len(raw)) + raw)
        self.out = out
        self.header = header
        self.digest = hashlib.sha256(raw).digest()
        self.aead = AESGCM(data_key)
        self.index = 0
        self.pending: list[bytes] = []
        self.pending_size = 0
        self.bytes_written = len(MAGIC) + _LENGTH.size + len(raw)

    def write_line(self, line: str) -> None:
        """Add one JSON record (no newline inside)."""
        self.write_encoded((line + "\n").encode())

    def write_encoded(self, line: bytes) -> None:
        """Add one JSON record already encoded, ending with its newline."""
        self.pending.append(line)
        self.pending_size += len(line)
        if self.pending_size >= CHUNK_BYTES:
            self._flush(final=False)

    def close(self) -> None:
        self._flush(final=True)
        self.out.flush()

    def _flush(self, *, final: bool) -> None:
        plain = b"".join(self.pending)
        self.pending, self.pending_size = [], 0
        sealed = self.aead.encrypt(
            chunk_nonce(self.index),
            zlib.compress(plain, COMPRESS_LEVEL),
            chunk_aad(self.digest, self.index, final=final),
        )
        self.out.write(_LENGTH.pack(len(sealed)))
        self.out.write(sealed)
        self.bytes_written += _LENGTH.size + len(sealed)
        self.index += 1


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    while data is not None and 0 < len(data) < size:
        more = stream.read(size - len(data))
        if not more:
            break
        data += more
    return data or b""


def read_header(stream: IO[bytes]) -> tuple[dict[str, Any], bytes]:
    """The header and its SHA-256; refuses what is not a package this reader knows."""
    if _read_exactly(stream, len(MAGIC)) != MAGIC:
        raise PackageError("This is not a MemoryPackage (.mcpkg) file.", code="not_a_package")
    prefix = _read_exactly(stream, _LENGTH.size)
    if len(prefix) < _LENGTH.size:
        raise PackageError("Truncated: the file ends inside its header.", code="truncated")
    (length,) = _LENGTH.unpack(prefix)
    if length > MAX_HEADER:
        raise PackageError("The header is larger than 1 MiB; this is not a valid package.")
    raw = _read_exactly(stream, length)
    if len(raw) < length:
        raise PackageError("Truncated: the file ends inside its header.", code="truncated")
    try:
        header = json.loads(raw)
    except ValueError as error:
        raise PackageError("The header is not valid JSON (the file was altered).") from error
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise PackageError("The header does not name the mcpkg format.", code="not_a_package")
    version = header.get("version")
    if version not in READABLE_VERSIONS:
        known = ", ".join(str(v) for v in sorted(READABLE_VERSIONS))
        raise PackageError(
            f"Unknown package version {version!r}: this installation reads versions {known}.",
            code="unknown_version",
        )
    return header, hashlib.sha256(raw).digest()


class PackageReader:
    """Opens a package (header, data key) and yields its chunks' plaintext in order."""

    def __init__(self, stream: IO[bytes], *, passphrase: str | None):
        self.stream = stream
        self.header, self.digest = read_header(stream)
        self.version: int = self.header["version"]
        self.aead = AESGCM(unwrap_data_key(self.header.get("key"), passphrase=passphrase))
        self.chunks_read = 0

    def chunks(self) -> Iterator[bytes]:
        index = 0
        while True:
            prefix = _read_exactly(self.stream, _LENGTH.size)
            if not prefix:
                raise PackageError(
                    f"Truncated: the file ends after chunk {index - 1} without its final chunk.",
                    code="truncated",
                )
            if len(prefix) < _LENGTH.size:
                raise PackageError(f"Truncated: chunk {index} is cut short.", code="truncated")
            (length,) = _LENGTH.unpack(prefix)
            if length > MAX_FRAME:
                raise PackageError(f"Chunk {index} claims {length} bytes, beyond the frame limit.")
            sealed = _read_exactly(self.stream, length)
            if len(sealed) < length:
                raise PackageError(f"Truncated: chunk {index} is cut short.", code="truncated")
            compressed, final = self._open(sealed, index)
            yield self._decompress(compressed, index)
            self.chunks_read = index + 1
            if final:
                if self.stream.read(1):
                    raise PackageError(
                        f"Unexpected data after the final chunk ({index}).", code="tampered"
                    )
                return
            index += 1

    def _open(self, sealed: bytes, index: int) -> tuple[bytes, bool]:
        nonce = chunk_nonce(index)
        for final in (False, True):
            try:
                aad = chunk_aad(self.digest, index, final=final)
                return self.aead.decrypt(nonce, sealed, aad), final
            except InvalidTag:
                continue
        raise PackageError(
            f"Chunk {index} failed authentication: the file was altered (a changed byte or "
            "header), or chunks are missing or out of order.",
            code="tampered",
        )

    @staticmethod
    def _decompress(compressed: bytes, index: int) -> bytes:
        inflater = zlib.decompressobj()
        try:
            plain = inflater.decompress(compressed, MAX_CHUNK_PLAIN)
        except zlib.error as error:
            raise PackageError(f"Chunk {index} is not valid zlib data.") from error
        if inflater.unconsumed_tail:
            raise PackageError(
                f"Chunk {index} decompresses beyond the {MAX_CHUNK_PLAIN // 2**20} MiB limit "
                "per chunk (a compression bomb?); refusing to read further.",
                code="too_large",
            )
        if not inflater.eof or inflater.unused_data:
            raise PackageError(f"Chunk {index} holds incomplete or extra zlib data.")
        return plain

    def lines(self) -> Iterator[tuple[int, int, bytes]]:
        """(chunk index, line number in the chunk, line) for every record."""
        for index, plain in enumerate(self.chunks()):
            for number, line in enumerate(plain.split(b"\n"), start=1):
                if line:
                    yield index, number, line
