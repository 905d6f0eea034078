"""Restore validates everything before writing anything (issue 16 §3): each broken package
gives a clear error naming the problem, a non-zero exit, and zero rows written."""

import json
import struct
import tracemalloc
import zlib

import pytest
from django.test import override_settings

from apps.audit.models import Action, AuditEvent
from apps.memory.models import MemoryItem, MemoryVersion
from apps.snapshots.package import stream
from apps.snapshots.package.stream import PackageWriter, chunk_aad, chunk_nonce
from apps.tenancy.models import Scope
from tests.snapshots.conftest import PASSPHRASE, package_bytes, run_restore, split_frames

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few hundred bytes, so a small tenant's package has several."""
    monkeypatch.setattr(stream, "CHUNK_BYTES", 300)


def _nothing_written(tenant) -> None:
    assert not MemoryItem.objects.filter(tenant=tenant).exists()
    assert not MemoryVersion.objects.filter(item__tenant=tenant).exists()
    assert not Scope.objects.filter(tenant=tenant).exists()
    assert not AuditEvent.objects.filter(action=Action.SNAPSHOT_RESTORED).exists()


def _refused(tmp_path, data: bytes, tenant, *args, **options) -> str:
    path = tmp_path / "broken.mcpkg"
    path.write_bytes(data)
    ok, message = run_restore(path, tenant, *args, **options)
    assert not ok, message
    _nothing_written(tenant)
    return message


def test_the_sample_package_has_several_chunks_and_restores(
    populated, tenant_b, tmp_path, snap_pass, small_chunks
):
    data = package_bytes(populated)
    assert len(split_frames(data)[1]) >= 4
    path = tmp_path / "ok.mcpkg"
    path.write_bytes(data)
    ok, output = run_restore(path, tenant_b)
    assert ok, output
    assert MemoryItem.objects.filter(tenant=tenant_b).count() == 7


def test_a_wrong_passphrase_is_named(populated, tenant_b, tmp_path, monkeypatch):
    monkeypatch.setenv("SNAP_PASS", "not the passphrase")
    message = _refused(tmp_path, package_bytes(populated), tenant_b)
    assert "Wrong passphrase" in message


def test_a_package_of_another_installation_names_its_key(populated, tenant_b, tmp_path):
    data = package_bytes(populated, passphrase=None)
    other = "x" * 43 + "="
    with override_settings(
        MEMORY_CONSOLE_ENCRYPTION_KEYS=["TmV3LWtleS0wMTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM="]
    ):
        message = _refused(tmp_path, data, tenant_b, passphrase_env=None)
    assert "Wrong key" in message and "installation key" in message
    assert other not in message


def test_a_truncated_file_is_named(populated, tenant_b, tmp_path, snap_pass, small_chunks):
    data = package_bytes(populated)
    assert "Truncated" in _refused(tmp_path, data[:-10], tenant_b)
    head, frames = split_frames(data)
    cut_at_boundary = head + b"".join(frames[:-1])
    assert "without its final chunk" in _refused(tmp_path, cut_at_boundary, tenant_b)


def test_a_flipped_byte_is_named(populated, tenant_b, tmp_path, snap_pass, small_chunks):
    data = bytearray(package_bytes(populated))
    head, frames = split_frames(bytes(data))
    position = len(head) + len(frames[0]) + 20  # inside chunk 1's ciphertext
    data[position] ^= 0x01
    assert "Chunk 1 failed authentication" in _refused(tmp_path, bytes(data), tenant_b)


def test_a_changed_header_fails_every_chunk(populated, tenant_b, tmp_path, snap_pass):
    data = package_bytes(populated)
    changed = data.replace(b'"tenant":"tenant-a"', b'"tenant":"tenant-x"', 1)
    assert changed != data
    assert "Chunk 0 failed authentication" in _refused(tmp_path, changed, tenant_b)


def test_reordered_chunks_are_named(populated, tenant_b, tmp_path, snap_pass, small_chunks):
    head, frames = split_frames(package_bytes(populated))
    frames[1], frames[2] = frames[2], frames[1]
    assert "Chunk 1 failed authentication" in _refused(tmp_path, head + b"".join(frames), tenant_b)


def test_a_missing_chunk_is_named(populated, tenant_b, tmp_path, snap_pass, small_chunks):
    head, frames = split_frames(package_bytes(populated))
    del frames[1]
    message = _refused(tmp_path, head + b"".join(frames), tenant_b)
    assert "Chunk 1 failed authentication" in message and "missing" in message


def _package(header_changes: dict, lines: list[str], *, final_plain: bytes | None = None) -> bytes:
    import io

    out = io.BytesIO()
    header = {"format": "mcpkg", "version": 2, "tenant": "tenant-a", **header_changes}
    writer = PackageWriter(out, header=header, passphrase=PASSPHRASE)
    if final_plain is not None:
        sealed = writer.aead.encrypt(
            chunk_nonce(0), zlib.compress(final_plain, 9), chunk_aad(writer.digest, 0, final=True)
        )
        out.write(struct.pack(">I", len(sealed)) + sealed)
        return out.getvalue()
    for line in lines:
        writer.write_line(line)
    writer.close()
    return out.getvalue()


def test_an_unknown_version_is_named(tenant_b, tmp_path, snap_pass):
    data = _package({"version": 99, "counts": {"items": 0, "scopes": 0}}, [])
    message = _refused(tmp_path, data, tenant_b)
    assert "Unknown package version 99" in message


SCOPE = {"t": "scope", "n": 1, "kind": "user", "external_id": "u_9", "subject": "u_9", "items": 1}
ITEM = {
    "t": "item", "s": 1, "id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "memory_type": "semantic",
    "content": {"text": "A fact."}, "importance": 0.5, "created_at": "2026-01-01T00:00:00+00:00",
}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"importance": 7}, "importance must be a number from 0.0 to 1.0"),
        ({"memory_type": "dream"}, "memory_type 'dream' is not one of"),
        ({"content": {}}, "content: Content must be a non-empty JSON object"),
        ({"s": 5}, "names scope 5, not declared before"),
        ({"created_at": "yesterday"}, "created_at is not a valid ISO 8601 time"),
        ({"metadata": ["thread"]}, "metadata: Metadata must be a JSON object"),
    ],
)
def test_a_malformed_item_is_named_with_its_place(tenant_b, tmp_path, snap_pass, change, named):
    lines = [json.dumps(SCOPE), json.dumps({**ITEM, **change})]
    data = _package({"counts": {"items": 1, "scopes": 1}}, lines)
    message = _refused(tmp_path, data, tenant_b)
    assert "Malformed record at chunk 0, line 2" in message and named in message


def test_a_count_mismatch_is_named(tenant_b, tmp_path, snap_pass):
    data = _package({"counts": {"items": 2, "scopes": 1}}, [json.dumps(SCOPE), json.dumps(ITEM)])
    assert "holds 1 items but its header counts 2" in _refused(tmp_path, data, tenant_b)


def test_a_compression_bomb_is_refused_without_inflating_it(tenant_b, tmp_path, snap_pass):
    bomb = b" " * (200 * 1024 * 1024)  # 200 MiB of spaces: about 200 KiB compressed
    data = _package({"counts": {"items": 0, "scopes": 0}}, [], final_plain=bomb)
    del bomb
    assert len(data) < 1024 * 1024
    tracemalloc.start()
    try:
        message = _refused(tmp_path, data, tenant_b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "decompresses beyond the 16 MiB limit" in message
    assert peak < 40 * 1024 * 1024
