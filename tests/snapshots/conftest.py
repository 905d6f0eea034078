"""Shared set-up for the snapshot tests: a populated tenant, packages and their frames."""

import io
import struct

import pytest
from django.core.management import CommandError, call_command

from apps.memory import services as memory_services
from apps.memory.gate import NewMemory
from apps.memory.models import MemoryItem
from apps.snapshots.package import MAGIC
from apps.snapshots.services import export_snapshot
from apps.tenancy.models import Scope

PASSPHRASE = "correct horse battery"


def write(tenant, scope_key: str, content: dict, *, subject: str = "", key: str = "", **extra):
    """Remember through the whole gate, as an agent's write would (system actor)."""
    kind, _, external_id = scope_key.partition(":")
    scope = Scope.objects.filter(tenant=tenant, kind=kind, external_id=external_id).first()
    scope = scope or Scope(tenant=tenant, kind=kind, external_id=external_id, subject=subject)
    new = NewMemory(
        tenant=tenant,
        scope=scope,
        memory_type=extra.pop("memory_type", "semantic"),
        content=content,
        source="langgraph@0.2",
        key=key,
        subject=subject,
        **extra,
    )
    return memory_services.remember(new=new, actor="test-setup").item


@pytest.fixture
def populated(tenant_a):
    """Tenant A with four scopes: plain facts, a keyed fact, an archived and a superseded item."""
    write(tenant_a, "user:u_1", {"text": "Lives in Haidian and cycles to work."})
    write(tenant_a, "user:u_1", {"city": "Haidian"}, key="address.city", metadata={"n": 1})
    write(tenant_a, "user:u_1", {"city": "Chaoyang"}, key="address.city")  # supersedes (LWW)
    write(
        tenant_a,
        "session:s_1",
        {"summary": "Asked for a refund of order 1182."},
        subject="u_1",
        metadata={"thread": "t_42", "tags": ["billing", "refund"]},
    )
    write(tenant_a, "user:u_2", {"text": "Prefers replies in English."})
    write(tenant_a, "user:u_2", {"value": "green"}, key="favourite.colour")
    old = write(tenant_a, "agent:a_1", {"note": "Escalate billing questions to tier 2."})
    memory_services.update_item(
        item_id=old.pk, changes={"status": "archived"}, actor="test-setup", action="memory.archived"
    )
    return tenant_a


def package_bytes(tenant, *, passphrase: str | None = PASSPHRASE, **options) -> bytes:
    out = io.BytesIO()
    export_snapshot(tenant=tenant, out=out, actor="test", passphrase=passphrase, **options)
    return out.getvalue()


def split_frames(data: bytes) -> tuple[bytes, list[bytes]]:
    """(magic + header prefix + header, [frames with their length prefix])."""
    (length,) = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4 + length
    head, frames, at = data[:start], [], start
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        frames.append(data[at : at + 4 + size])
        at += 4 + size
    return head, frames


def run_restore(path, tenant, *args, passphrase_env: str | None = "SNAP_PASS", **options):  # noqa: S107
    """call_command restore_snapshot; returns (exit ok?, output or the error message)."""
    out = io.StringIO()
    if passphrase_env:
        options["passphrase_env"] = passphrase_env
    try:
        call_command(
            "restore_snapshot", str(path), *args, tenant=tenant.slug, stdout=out, **options
        )
    except CommandError as error:
        return False, str(error)
    return True, out.getvalue()


@pytest.fixture
def snap_pass(monkeypatch):
    monkeypatch.setenv("SNAP_PASS", PASSPHRASE)
    return PASSPHRASE


def item_count(tenant) -> int:
    return MemoryItem.objects.filter(tenant=tenant).count()
