"""A typed client generated from /api/schema/ (openapi-python-client) works against a live
server: remember, recall, an edit with a stale version (the error parsed as the declared
Error document) and forget. If the schema drifts from the API, this is where it shows."""

import pytest

from tests.memory.live_api import generated_client, live_agent  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_generated_client_drives_remember_recall_stale_patch_and_forget(
    generated_client,  # noqa: F811
    live_agent,  # noqa: F811
):
    from mc_api_client import AuthenticatedClient
    from mc_api_client.api.memories import (
        memories_create,
        memories_destroy,
        memories_partial_update,
        memories_retrieve,
    )
    from mc_api_client.api.recall import recall
    from mc_api_client.models import (
        Error,
        Memory,
        MemoryContent,
        MemoryTypeEnum,
        PatchedMemoryPatchRequest,
        RecallRequest,
        RecallResponse,
        RememberRequest,
        RememberResponse,
    )

    base_url, api_key = live_agent
    client = AuthenticatedClient(base_url=base_url, token=api_key, prefix="Api-Key")

    with client:
        created = memories_create.sync_detailed(
            client=client,
            body=RememberRequest(
                tenant="tenant-a",
                scope="user:u_7",
                memory_type=MemoryTypeEnum.SEMANTIC,
                content=MemoryContent.from_dict({"city": "Haidian", "since": 2021}),
                source="generated-client@test",
                key="address.city",
            ),
        )
        assert created.status_code == 201, created.content
        item = created.parsed
        assert isinstance(item, RememberResponse)
        assert item.status.value == "active" and item.merged is False
        assert item.content["city"] == "Haidian"

        found = recall.sync(
            client=client,
            body=RecallRequest(tenant="tenant-a", scope="user:u_7", query="Haidian city"),
        )
        assert isinstance(found, RecallResponse)
        assert [result.memory.id for result in found.results] == [item.id]
        assert found.results[0].score > 0

        stale = memories_partial_update.sync_detailed(
            id=item.id,
            client=client,
            body=PatchedMemoryPatchRequest(version=item.version + 3, importance=0.9),
        )
        assert stale.status_code == 409
        assert isinstance(stale.parsed, Error)
        assert stale.parsed.error.code == "version_conflict"
        assert stale.parsed.error.current_version == item.version

        edited = memories_partial_update.sync_detailed(
            id=item.id,
            client=client,
            body=PatchedMemoryPatchRequest(importance=0.9),
            if_match=f'"{item.version}"',
        )
        assert edited.status_code == 200, edited.content
        assert isinstance(edited.parsed, Memory) and edited.parsed.importance == 0.9

        forgotten = memories_destroy.sync_detailed(id=item.id, client=client)
        assert forgotten.status_code == 204
        after = memories_retrieve.sync(id=item.id, client=client)
        # Forgotten (archived): an agent sees that it exists, not its content.
        assert isinstance(after, Memory) and after.status.value == "archived"
        assert "content" not in after.to_dict()
        missing = memories_retrieve.sync_detailed(id="mem_" + "0" * 32, client=client)
        assert missing.status_code == 404 and isinstance(missing.parsed, Error)
