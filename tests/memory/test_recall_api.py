"""`POST /api/v1/recall/` end to end, and the sensitive-data stage through the real gate."""

import pytest
from rest_framework.test import APIClient

from apps.audit.models import Action, AuditEvent
from apps.memory import crypto
from apps.memory.api.serializers import MemorySerializer
from apps.memory.models import MemoryItem
from apps.tenancy.models import SensitivePolicy
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db

RECALL = "/api/v1/recall/"
MEMORIES = "/api/v1/memories/"


def write(client, text: str, **overrides) -> dict:
    response = client.post(
        MEMORIES, remember_body(content={"text": text}, **overrides), format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def recall(client, query: str, **overrides):
    body = {"tenant": "tenant-a", "scope": "user:u_1024", "query": query, **overrides}
    return client.post(RECALL, body, format="json")


@pytest.mark.parametrize("query", ["朝阳区", "朝阳"])
def test_agent_recalls_a_chinese_memory_with_explained_score(api_a, tenant_a, query):
    stored = write(api_a, "用户住在北京朝阳区")
    write(api_a, "The user prefers window seats.")
    response = recall(api_a, query, top_k=1)
    assert response.status_code == 200, response.content
    [result] = response.json()["results"]
    assert result["memory"]["id"] == stored["id"]
    assert result["memory"]["content"] == {"text": "用户住在北京朝阳区"}
    assert result["matched_by"] == "lexical"
    parts = result["components"]
    assert set(parts) == {"similarity", "recency", "importance"}
    weighted = (
        tenant_a.recall_alpha * parts["similarity"]
        + tenant_a.recall_beta * parts["recency"]
        + tenant_a.recall_gamma * parts["importance"]
    )
    assert result["score"] == pytest.approx(weighted)


def test_english_recall_and_embedding_recall(api_a):
    jazz = write(api_a, "Likes jazz", embedding=[0.9, 0.1], embedding_model="m1")
    write(api_a, "Likes rock", embedding=[0.1, 0.9], embedding_model="m1")
    by_words = recall(api_a, "Which music does the user like? jazz?").json()["results"]
    assert by_words[0]["memory"]["id"] == jazz["id"]
    body = recall(api_a, "music", query_embedding=[1.0, 0.0], embedding_model="m1").json()
    assert [r["matched_by"] for r in body["results"]] == ["embedding", "embedding"]
    assert body["results"][0]["memory"]["id"] == jazz["id"]


def test_recall_records_the_access_after_commit(api_a, django_capture_on_commit_callbacks):
    stored = write(api_a, "用户住在北京朝阳区")
    with django_capture_on_commit_callbacks(execute=True):
        recall(api_a, "朝阳区")
    item = MemoryItem.objects.get(pk=stored["id"].removeprefix("mem_"))
    assert item.access_count == 1


def test_recall_of_a_foreign_tenants_scope_is_404(api_a, api_b):
    write(api_a, "用户住在北京朝阳区")
    response = recall(api_b, "朝阳区")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_recall_of_a_scope_never_written_is_200_and_empty(api_a):
    response = recall(api_a, "x", scope="user:nobody")
    assert response.status_code == 200, response.content
    assert response.json() == {"results": [], "degraded": []}


def test_recall_of_an_unknown_tenant_or_unreadable_scope_is_404(api_a, api_b):
    assert recall(api_a, "x", tenant="no-such-tenant").status_code == 404
    assert recall(api_b, "x", scope="user:nobody").status_code == 404


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"scope": "not-a-scope"}, "scope"),
        ({"top_k": 0}, "top_k"),
        ({"top_k": 1000}, "top_k"),
        ({"memory_types": ["dream"]}, "memory_types"),
        ({"categories": [150]}, "categories"),
        ({"query_embedding": [0.1, 0.2]}, "embedding_model"),
        ({"query_embedding": ["a"], "embedding_model": "m"}, "query_embedding"),
        ({"query": ""}, "query"),
        ({"query": "x" * 2001}, "query"),
    ],
)
def test_bad_recall_input_is_400_with_field_messages(api_a, overrides, field):
    body = {"tenant": "tenant-a", "scope": "user:u_1024", "query": "coffee", **overrides}
    response = api_a.post(RECALL, body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid" and field in error["fields"]


def test_missing_fields_are_400(api_a):
    response = api_a.post(RECALL, {"query": "x"}, format="json")
    assert response.status_code == 400
    # `tenant` may be left out by a one-tenant key (test_api_conventions).
    assert "scope" in response.json()["error"]["fields"]


def test_recall_needs_authentication():
    assert APIClient().post(RECALL, {}, format="json").status_code == 401


def test_console_user_with_a_grant_can_recall_over_the_session(api_a, operator_a):
    write(api_a, "用户住在北京朝阳区")
    client = APIClient()
    client.force_login(operator_a)
    assert len(recall(client, "朝阳").json()["results"]) == 1


def test_recall_api_runs_a_bounded_number_of_queries(api_a, django_assert_max_num_queries):
    for n in range(15):
        write(api_a, f"garden note number {n}")
    with django_assert_max_num_queries(12):
        response = recall(api_a, "garden", top_k=15)
    assert len(response.json()["results"]) == 15


def test_recall_renders_each_memory_as_the_memory_endpoint_does_without_rebuilding_fields(
    api_a, monkeypatch
):
    """Hits are rendered by one serializer for the process: its fields are not built again
    for every hit (that was over half of a recall's CPU), and a hit reads as GET shows it."""
    stored = [write(api_a, f"garden note number {n}") for n in range(10)]
    recall(api_a, "garden")  # the process's serializer has built its fields by now
    built = []
    original = MemorySerializer.get_fields
    monkeypatch.setattr(
        MemorySerializer, "get_fields", lambda self: built.append(self) or original(self)
    )
    results = recall(api_a, "garden", top_k=10).json()["results"]
    assert built == []
    assert {result["memory"]["id"] for result in results} == {item["id"] for item in stored}
    shown = api_a.get(f"{MEMORIES}{results[0]['memory']['id']}/").json()
    timeless = {"score", "last_access_at", "access_count", "updated_at"}
    assert {k: v for k, v in results[0]["memory"].items() if k not in timeless} == {
        k: v for k, v in shown.items() if k not in timeless
    }


# --- the sensitive-data stage through the whole gate ---------------------------------------


def test_redacted_write_is_stored_and_recalled_without_the_secret(api_a):
    stored = write(api_a, "用户的卡号是4111 1111 1111 1111")
    assert stored["sensitive"] is True
    results = recall(api_a, "卡号").json()["results"]
    assert results[0]["memory"]["content"] == {"text": "用户的卡号是[REDACTED:card_number]"}


def test_encrypted_write_keeps_the_original_sealed_and_searchable_by_its_redaction(api_a, tenant_a):
    tenant_a.sensitive_policy = SensitivePolicy.ENCRYPT
    tenant_a.save()
    stored = write(api_a, "Backup e-mail is ops@example.com, card 4111111111111111")
    item = MemoryItem.objects.get(pk=stored["id"].removeprefix("mem_"))
    assert crypto.unseal_content(item.sealed_content) == {
        "text": "Backup e-mail is ops@example.com, card 4111111111111111"
    }
    [result] = recall(api_a, "backup card").json()["results"]
    assert result["memory"]["content"] == {"sealed": True, "kinds": ["card_number", "email"]}
    assert "4111" not in str(result) and "ops@" not in str(result)


def test_reject_policy_answers_400_sensitive_data_naming_kinds_only(api_a, tenant_a):
    tenant_a.sensitive_policy = SensitivePolicy.REJECT
    tenant_a.save()
    response = api_a.post(
        MEMORIES, remember_body(content={"text": "密码：Abc123456"}), format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "sensitive_data" and "password" in error["message"]
    assert "Abc123456" not in response.content.decode()
    assert not MemoryItem.objects.exists()
    refusal = AuditEvent.objects.get(action=Action.MEMORY_REJECTED_SENSITIVE)
    assert refusal.tenant_id == tenant_a.pk and refusal.metadata["kinds"] == ["password"]
    assert "Abc123456" not in str(refusal.metadata)
