"""The sensitive-data gate stage applies the tenant's policy: redact, encrypt or reject."""

import pytest

from apps.audit.models import AuditEvent
from apps.memory import crypto
from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft, GateRejected, NewMemory
from apps.memory.gate.sensitive import SensitiveDataStage
from apps.memory.gate.stages import ValidateStage
from apps.memory.services import create_item
from apps.memory.services.gate import item_values
from apps.tenancy.models import SensitivePolicy
from tests.factories import ScopeFactory, TenantFactory

CARD = "4111 1111 1111 1111"
CONTENT = {
    "text": f"用户的卡号是{CARD}，邮箱 li.lei@example.com",
    "details": {"backup": ["password: hunter2", 42]},
}


def draft_for(policy: str, content: dict) -> Draft:
    tenant = TenantFactory(sensitive_policy=policy)
    scope = ScopeFactory(tenant=tenant)
    new = NewMemory(
        tenant=tenant, scope=scope, memory_type="semantic", content=content, source="test"
    )
    draft = Draft(memory=new, actor=None)
    ValidateStage().inspect(draft)  # derives text, hash and half-life, as in the gate
    return draft


@pytest.mark.django_db
def test_redact_policy_replaces_every_match_in_nested_content():
    draft = draft_for(SensitivePolicy.REDACT, CONTENT)
    SensitiveDataStage().inspect(draft)
    content = draft.memory.content
    assert content["text"] == "用户的卡号是[REDACTED:card_number]，邮箱 [REDACTED:email]"
    assert content["details"]["backup"] == ["password: [REDACTED:password]", 42]
    assert draft.memory.sensitive is True
    assert "4111" not in draft.memory.text and "hunter2" not in draft.memory.text
    assert draft.notes["sensitive_kinds"] == ["card_number", "email", "password"]


@pytest.mark.django_db
def test_encrypt_policy_seals_the_original_and_keeps_only_a_redacted_rendering():
    draft = draft_for(SensitivePolicy.ENCRYPT, CONTENT)
    SensitiveDataStage().inspect(draft)
    memory = draft.memory
    assert memory.content == {"sealed": True, "kinds": ["card_number", "email", "password"]}
    assert crypto.unseal_content(memory.sealed_content) == CONTENT
    assert "[REDACTED:card_number]" in memory.text and CARD not in memory.text
    assert memory.sensitive is True


@pytest.mark.django_db
def test_encrypted_item_stores_no_secret_in_any_column_history_or_audit():
    draft = draft_for(SensitivePolicy.ENCRYPT, CONTENT)
    SensitiveDataStage().inspect(draft)
    item = create_item(
        values=item_values(draft.memory, actor=None, status=draft.status),
        actor=None,
        audit_data={"gate": draft.notes},
    )
    item.refresh_from_db()
    plain_columns = [item.text, str(item.content), item.content_hash]
    plain_columns += [f"{v.content} {v.text}" for v in item.versions.all()]
    plain_columns += [str(e.metadata) for e in AuditEvent.objects.all()]
    for column in plain_columns:
        assert "4111" not in column and "hunter2" not in column and "li.lei" not in column
    assert crypto.unseal_content(item.sealed_content) == CONTENT


@pytest.mark.django_db
def test_equal_encrypted_writes_share_a_dedupe_hash_that_is_not_a_plain_sha256():
    first, second = draft_for(SensitivePolicy.ENCRYPT, CONTENT), draft_for("encrypt", CONTENT)
    SensitiveDataStage().inspect(first)
    SensitiveDataStage().inspect(second)
    assert first.memory.content_hash == second.memory.content_hash
    assert first.memory.content_hash != content_hash(CONTENT)
    assert first.memory.sealed_content != second.memory.sealed_content  # fresh IV


@pytest.mark.django_db
def test_reject_policy_refuses_the_write_naming_kinds_not_values():
    draft = draft_for(SensitivePolicy.REJECT, CONTENT)
    with pytest.raises(GateRejected) as rejected:
        SensitiveDataStage().inspect(draft)
    assert rejected.value.code == "sensitive_data"
    message = rejected.value.message + str(rejected.value.fields)
    assert "card_number" in message and "email" in message
    assert "4111" not in message and "hunter2" not in message


@pytest.mark.django_db
def test_clean_content_passes_untouched():
    content = {"text": "用户住在北京朝阳区, order 2023110512345678"}
    draft = draft_for(SensitivePolicy.REJECT, content)
    SensitiveDataStage().inspect(draft)
    assert draft.memory.content == content
    assert not draft.memory.sensitive and "sensitive_kinds" not in draft.notes
    assert render_text(content) == content["text"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "kind"),
    [("password", "password"), ("db_password", "password"), ("wifi密码", "password"),
     ("api_key", "secret"), ("github-token", "secret"), ("client_secret", "secret")],
)  # fmt: skip
def test_a_value_is_a_secret_when_its_field_name_says_so(field, kind):
    draft = draft_for(SensitivePolicy.REDACT, {"service": "wifi", field: "hunter2"})
    SensitiveDataStage().inspect(draft)
    assert draft.memory.content == {"service": "wifi", field: f"[REDACTED:{kind}]"}
    assert "hunter2" not in draft.memory.text
    assert draft.notes["sensitive_kinds"] == [kind]


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["passport_country", "tokens_used", "keyboard", "shipping"])
def test_ordinary_field_names_are_not_secrets(field):
    content = {field: "DE"}
    draft = draft_for(SensitivePolicy.REDACT, content)
    SensitiveDataStage().inspect(draft)
    assert draft.memory.content == content


@pytest.mark.django_db
def test_clean_identifiers_are_scanned_once_and_sensitive_ones_never_remembered(monkeypatch):
    """A batch or a restore screens its few scope ids, sources and keys on every item: a
    short clean identifier is scanned once; one holding personal data is scanned (and
    judged alike) every time, so it never lingers in the process; a long one each time."""
    from uuid import uuid4

    import apps.memory.gate.sensitive as stage_module

    scans: list[str] = []
    real = stage_module.find_sensitive
    monkeypatch.setattr(stage_module, "find_sensitive", lambda t: scans.append(t) or real(t))
    tenant = TenantFactory(sensitive_policy=SensitivePolicy.REDACT)
    scope = ScopeFactory(tenant=tenant)
    key = f"contact:{uuid4().hex}@example.com"
    long_source = f"{'x' * 200} {uuid4().hex}@example.com"
    erased_scope = ScopeFactory.build(tenant=tenant, external_id=f"{uuid4().hex}@example.com")
    for _ in range(3):
        new = NewMemory(tenant=tenant, scope=scope, memory_type="semantic",
                        content={"text": "plain"}, source=long_source, key=key)  # fmt: skip
        draft = Draft(memory=new, actor=None)
        SensitiveDataStage().inspect(draft)
        assert draft.memory.key == "contact:[REDACTED:email]"
        assert "@example.com" not in draft.memory.source  # redacted (and cut to 200)
        assert draft.notes["sensitive_fields"] == ["key", "source"]
        new = NewMemory(tenant=tenant, scope=erased_scope, memory_type="semantic",
                        content={"text": "plain"}, source="test")  # fmt: skip
        with pytest.raises(GateRejected) as refusal:
            SensitiveDataStage().inspect(Draft(memory=new, actor=None))
        assert refusal.value.code == "sensitive_identifier"
    assert (scans.count(key), scans.count(erased_scope.external_id)) == (3, 3)
    assert key not in stage_module._CLEAN_IDENTIFIERS
    assert scans.count(scope.external_id) == 1
    assert scans.count(long_source) == 3
