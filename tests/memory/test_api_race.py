"""Optimistic locking under a real race: two writers PATCH the same version at once."""

import threading

import pytest
from django.db import connection

from apps.access.api_keys import create_api_key
from apps.memory.models import MemoryItem, MemoryVersion
from apps.memory.services import remember
from tests.factories import TenantFactory
from tests.memory.api_helpers import agent_client, remember_body


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_patching_the_same_version_get_one_200_and_one_409(postgres_only):
    tenant = TenantFactory(slug="tenant-a")
    key, plaintext = create_api_key(username="racer", tenant=tenant, actor="test-setup")
    item = remember(actor=key.user, payload=remember_body()).item
    url = f"/api/v1/memories/{item.public_id}/"
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def writer(label: str) -> None:
        try:
            client = agent_client(plaintext)
            barrier.wait(timeout=10)
            response = client.patch(
                url, {"version": 1, "content": {"text": f"written by {label}"}}, format="json"
            )
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 409]
    stored = MemoryItem.objects.get(pk=item.pk)
    assert stored.version == 2
    assert MemoryVersion.objects.filter(item=stored).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_memory_written_twice_at_once_is_stored_once(postgres_only):
    tenant = TenantFactory(slug="tenant-a")
    key, plaintext = create_api_key(username="twin", tenant=tenant, actor="test-setup")
    remember(actor=key.user, payload=remember_body(content={"text": "warm-up"}))  # scope exists
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def writer() -> None:
        try:
            client = agent_client(plaintext)
            barrier.wait(timeout=10)
            statuses.append(
                client.post("/api/v1/memories/", remember_body(), format="json").status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 201]
    assert MemoryItem.objects.filter(text=remember_body()["content"]["text"]).count() == 1
