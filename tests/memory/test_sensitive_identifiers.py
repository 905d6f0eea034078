"""The sensitive-data stage screens `key`, `source`, `run_id` and the scope id as it screens
content (issue 12 point 5): refused or redacted per tenant policy, with a clear code."""

import pytest

from apps.memory.models import MemoryItem
from apps.tenancy.models import Scope, SensitivePolicy
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db

LIST = "/api/v1/memories/"
EMAIL = "alice@example.com"
CARD = "4111 1111 1111 1111"


def set_policy(tenant, policy):
    tenant.sensitive_policy = policy
    tenant.save(update_fields=["sensitive_policy"])


@pytest.mark.parametrize("policy", list(SensitivePolicy))
def test_a_scope_id_holding_an_email_is_refused_under_every_policy(api_a, tenant_a, policy):
    set_policy(tenant_a, policy)
    answer = api_a.post(LIST, remember_body(scope=f"user:{EMAIL}"), format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "sensitive_identifier" and "scope" in error["fields"]
    assert EMAIL not in answer.content.decode()
    assert not Scope.objects.filter(external_id=EMAIL).exists()


@pytest.mark.parametrize(
    ("field", "value"), [("key", f"contact.{EMAIL}"), ("source", EMAIL), ("run_id", CARD)]
)
def test_reject_policy_refuses_personal_data_in_key_source_or_run_id(api_a, tenant_a, field, value):
    set_policy(tenant_a, SensitivePolicy.REJECT)
    answer = api_a.post(LIST, remember_body(**{field: value}), format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "sensitive_data" and field in error["fields"]
    assert value not in answer.content.decode()
    assert not MemoryItem.objects.exists()


@pytest.mark.parametrize("policy", [SensitivePolicy.REDACT, SensitivePolicy.ENCRYPT])
@pytest.mark.parametrize(
    ("field", "value"), [("key", f"contact.{EMAIL}"), ("source", EMAIL), ("run_id", CARD)]
)
def test_redact_and_encrypt_policies_redact_key_source_and_run_id(
    api_a, tenant_a, policy, field, value
):
    set_policy(tenant_a, policy)
    answer = api_a.post(LIST, remember_body(**{field: value}), format="json")
    assert answer.status_code == 201, answer.content
    stored = MemoryItem.objects.get()
    assert value not in getattr(stored, field)
    assert "[REDACTED:" in getattr(stored, field)
    assert value not in answer.content.decode()


def test_ordinary_keys_sources_and_run_ids_pass_untouched(api_a):
    body = remember_body(key="address.city", source="langgraph@0.2", run_id="run-20240101")
    answer = api_a.post(LIST, body, format="json")
    assert answer.status_code == 201
    stored = MemoryItem.objects.get()
    assert (stored.key, stored.source, stored.run_id) == (
        "address.city",
        "langgraph@0.2",
        "run-20240101",
    )
