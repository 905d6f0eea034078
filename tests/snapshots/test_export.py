"""Export: the lines a package carries are the items as stored, whichever way they were read
(streamed by COPY, or rebuilt here for sealed content)."""

import io
import json

from apps.memory.models import MemoryItem
from apps.snapshots.package.stream import PackageReader
from apps.tenancy.models import SensitivePolicy
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.snapshots.conftest import PASSPHRASE, package_bytes, write


def _item_records(data: bytes) -> dict[str, dict]:
    reader = PackageReader(io.BytesIO(data), passphrase=PASSPHRASE)
    records = [json.loads(line) for _, _, line in reader.lines()]
    return {record["id"]: record for record in records if record["t"] == "item"}


def test_values_that_copy_text_escapes_are_exported_as_stored(tenant_a):
    awkward = 'tab\there\nnew line\r\\N back\\slash "quoted" \\\\ 朝阳 \u00e9 \x0b\x0c\x08'
    # Stored directly: what the gate makes of such text is not this test's business.
    item = MemoryItemFactory(
        scope=ScopeFactory(tenant=tenant_a, kind="user", external_id="u_9"),
        content={"text": awkward, "nested": [awkward, {"k\\": "\\t"}]},
        key="k\\ey\twith tab",
        run_id="run\\1\n",
        metadata={"note": awkward},
    )

    record = _item_records(package_bytes(tenant_a))[str(item.pk)]

    assert record["content"] == {"text": awkward, "nested": [awkward, {"k\\": "\\t"}]}
    assert (record["key"], record["run_id"]) == ("k\\ey\twith tab", "run\\1\n")
    assert record["metadata"] == {"note": awkward}


def test_sealed_content_is_exported_unsealed_beside_plain_items(tenant_a):
    tenant_a.sensitive_policy = SensitivePolicy.ENCRYPT
    tenant_a.save()
    sealed = write(tenant_a, "user:u_1", {"text": "card 4111 1111 1111 1111, ends \\ here"})
    plain = write(tenant_a, "user:u_1", {"text": "Prefers tea."})
    assert MemoryItem.objects.get(pk=sealed.pk).sealed_content

    records = _item_records(package_bytes(tenant_a))

    assert records[str(sealed.pk)]["content"] == {"text": "card 4111 1111 1111 1111, ends \\ here"}
    assert records[str(plain.pk)]["content"] == {"text": "Prefers tea."}
    assert len(records) == 2
