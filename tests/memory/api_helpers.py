"""Fixtures and helpers for the memory API tests: agents with keys on tenant A and B."""

import pytest
from rest_framework.test import APIClient

from apps.access.api_keys import create_api_key


def agent_client(plaintext: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {plaintext}")
    return client


@pytest.fixture
def agent_a_key(tenant_a):
    return create_api_key(username="agent-a", tenant=tenant_a, name="a", actor="test-setup")


@pytest.fixture
def agent_b_key(tenant_b):
    return create_api_key(username="agent-b", tenant=tenant_b, name="b", actor="test-setup")


@pytest.fixture
def api_a(agent_a_key) -> APIClient:
    return agent_client(agent_a_key[1])


@pytest.fixture
def api_b(agent_b_key) -> APIClient:
    return agent_client(agent_b_key[1])


def remember_body(**overrides) -> dict:
    body = {
        "tenant": "tenant-a",
        "scope": "user:u_1024",
        "memory_type": "semantic",
        "content": {"text": "The user prefers window seats."},
        "source": "langgraph@0.2",
    }
    body.update(overrides)
    return body
