"""The remember gate: validation, scope resolution, dedupe, and the runner's contract with
the stages other apps plug in (status, callbacks, merge)."""

import math
from array import array

import pytest

from apps.access.api_keys import create_api_key
from apps.audit.models import Action, AuditEvent
from apps.memory import wiring
from apps.memory.gate import GateRejected
from apps.memory.gate.stages import DedupeStage, ValidateStage
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.tenancy.models import Scope
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.memory.api_helpers import remember_body
from tests.remembering import remember

pytestmark = pytest.mark.django_db


@pytest.fixture
def agent_a(tenant_a):
    key, _ = create_api_key(username="agent-a", tenant=tenant_a, actor="test-setup")
    return key.user


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"memory_type": "dream"}, "memory_type"),
        ({"source_kind": "rumour"}, "source_kind"),
        ({"content": "just text"}, "content"),
        ({"content": ["a", "list"]}, "content"),
        ({"content": {}}, "content"),
        ({"content": {"x": math.nan}}, "content"),
        ({"content": {"x": "y" * (64 * 1024)}}, "content"),
        ({"importance": 1.5}, "importance"),
        ({"importance": -0.1}, "importance"),
        ({"importance": math.inf}, "importance"),
        ({"importance": math.nan}, "importance"),
        ({"importance": True}, "importance"),
        ({"category": 100}, "category"),
        ({"category": -1}, "category"),
        ({"half_life_days": 0}, "half_life_days"),
        ({"scope": "user"}, "scope"),
        ({"scope": "planet:earth"}, "scope"),
        ({"scope": "user:"}, "scope"),
        ({"embedding": "0.1,0.2", "embedding_model": "m"}, "embedding"),
        ({"embedding": [0.1, "x"], "embedding_model": "m"}, "embedding"),
        ({"embedding": [0.1, math.inf], "embedding_model": "m"}, "embedding"),
        ({"embedding": [0.1, 0.2]}, "embedding_model"),
        ({"expires_at": "tomorrow"}, "expires_at"),
        ({"key": "k\x00"}, "key"),
        ({"source": None}, "source"),
    ],
)
def test_bad_input_is_refused_with_a_field_message(agent_a, overrides, field):
    with pytest.raises(GateRejected) as excinfo:
        remember(actor=agent_a, payload=remember_body(**overrides))
    assert excinfo.value.code == "invalid"
    assert field in excinfo.value.fields
    assert not MemoryItem.objects.exists()


def test_body_that_is_not_an_object_is_refused(agent_a):
    with pytest.raises(GateRejected):
        remember(actor=agent_a, payload=["not", "an", "object"])


def test_missing_required_fields_are_each_named(agent_a):
    with pytest.raises(GateRejected) as excinfo:
        remember(actor=agent_a, payload={})
    # `tenant` may be left out: the key's one tenant is used (test_api_conventions).
    assert {"scope", "memory_type", "content", "source"} <= set(excinfo.value.fields)


def test_validation_keeps_nothing_from_one_write_to_the_next(agent_a):
    """The gate validates every write with one serializer: errors, values and defaults of
    one write never reach another."""
    with pytest.raises(GateRejected) as first:
        remember(actor=agent_a, payload=remember_body(importance=3, key="k\x00"))
    item = remember(actor=agent_a, payload=remember_body()).item
    with pytest.raises(GateRejected) as second:
        remember(actor=agent_a, payload=remember_body(memory_type="dream"))
    assert set(first.value.fields) == {"importance", "key"}
    assert set(second.value.fields) == {"memory_type"}
    assert (item.importance, item.key) == (0.5, "")


def test_content_just_under_the_limit_is_accepted(agent_a):
    content = {"x": "y" * (64 * 1024 - 20)}
    assert remember(actor=agent_a, payload=remember_body(content=content)).status == "active"


def test_unknown_tenant_and_foreign_tenant_look_the_same(agent_a, tenant_b):
    errors = []
    for slug in ("no-such-tenant", "tenant-b"):
        with pytest.raises(GateRejected) as excinfo:
            remember(actor=agent_a, payload=remember_body(tenant=slug))
        errors.append((excinfo.value.code, excinfo.value.message))
    assert errors[0] == errors[1] == (errors[0][0], errors[0][1])
    assert errors[0][0] == "not_found"
    assert not Scope.objects.filter(tenant=tenant_b).exists()


def test_scope_is_created_on_first_write_with_its_subject(agent_a, tenant_a):
    remember(actor=agent_a, payload=remember_body(scope="user:u_7"))
    remember(actor=agent_a, payload=remember_body(scope="session:s_1", subject="u_7"))
    scopes = {s.key: s.subject for s in Scope.objects.filter(tenant=tenant_a)}
    assert scopes == {"user:u_7": "u_7", "session:s_1": "u_7"}
    created = AuditEvent.objects.filter(action=Action.SCOPE_CREATED)
    assert created.count() == 2
    assert all("u_7" not in str(event.metadata) for event in created)


def test_scope_grant_alone_allows_writing_there_but_not_creating_scopes(tenant_a):
    from apps.access.roles import Role
    from apps.access.services import grant_role, revoke_role

    key, _ = create_api_key(username="scoped", tenant=tenant_a, actor="t")
    revoke_role(user=key.user, role=Role.AGENT, target=tenant_a, actor="t")
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1")
    grant_role(user=key.user, role=Role.AGENT, target=scope, actor="t")
    assert remember(actor=key.user, payload=remember_body(scope="user:u_1")).status == "active"
    with pytest.raises(GateRejected) as excinfo:
        remember(actor=key.user, payload=remember_body(scope="user:u_2"))
    assert excinfo.value.code == "not_found"


def test_values_are_derived_half_life_provenance_and_float32_embedding(agent_a, tenant_a):
    tenant_a.half_life_overrides = {"procedural": 200}
    tenant_a.save()
    result = remember(
        actor=agent_a,
        payload=remember_body(
            memory_type="procedural",
            embedding=[0.5, -1.25, 3.0],
            embedding_model="text-embedding-3-small",
            run_id="run-42",
        ),
        api_key_prefix="abcd1234",
    )
    item = MemoryItem.objects.get(pk=result.item.pk)
    assert item.half_life_days == 200
    assert item.created_by == agent_a and item.api_key_prefix == "abcd1234"
    assert item.run_id == "run-42"
    assert list(array("f", bytes(item.embedding))) == [0.5, -1.25, 3.0]
    assert item.version == 1 and MemoryVersion.objects.filter(item=item).count() == 1


def test_same_content_in_the_same_scope_merges_into_the_existing_item(agent_a):
    first = remember(actor=agent_a, payload=remember_body(importance=0.4))
    again = remember(
        actor=agent_a,
        payload=remember_body(
            content={"text": "  the USER prefers   window seats. "}, importance=0.7
        ),
    )
    assert again.merged and again.item.pk == first.item.pk
    item = MemoryItem.objects.get()
    assert item.access_count == 1 and item.importance >= 0.7 and item.version == 2
    assert AuditEvent.objects.filter(action=Action.MEMORY_DEDUPLICATED).count() == 1


def test_same_content_in_another_scope_is_a_new_item(agent_a):
    remember(actor=agent_a, payload=remember_body(scope="user:u_1"))
    assert not remember(actor=agent_a, payload=remember_body(scope="user:u_2")).merged
    assert MemoryItem.objects.count() == 2


@pytest.mark.parametrize("status", [MemoryStatus.QUARANTINED, MemoryStatus.PENDING_REVIEW])
def test_held_items_are_not_dedupe_targets(agent_a, tenant_a, status):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1024")
    first = remember(actor=agent_a, payload=remember_body())
    MemoryItem.objects.filter(pk=first.item.pk).update(status=status)
    second = remember(actor=agent_a, payload=remember_body())
    assert not second.merged and second.item.scope_id == scope.pk
    assert MemoryItem.objects.count() == 2


def test_a_repeat_merges_into_the_oldest_active_twin(agent_a, tenant_a):
    """Two active items can share content (e.g. one released from quarantine later); the
    repeat folds into the oldest one, as the queryset ordered by created_at would pick."""
    from datetime import timedelta

    from django.utils import timezone

    first = remember(actor=agent_a, payload=remember_body()).item
    twin = MemoryItemFactory(
        scope=first.scope, content=first.content, content_hash=first.content_hash
    )
    MemoryItem.objects.filter(pk=twin.pk).update(created_at=timezone.now() - timedelta(days=3))
    older_but_archived = MemoryItemFactory(
        scope=first.scope,
        content=first.content,
        content_hash=first.content_hash,
        status=MemoryStatus.ARCHIVED,
    )
    MemoryItem.objects.filter(pk=older_but_archived.pk).update(
        created_at=timezone.now() - timedelta(days=9)
    )
    expected = (
        MemoryItem.objects.filter(
            scope=first.scope, content_hash=first.content_hash, status=MemoryStatus.ACTIVE
        )
        .order_by("created_at")
        .first()
    )
    result = remember(actor=agent_a, payload=remember_body())
    assert result.merged and result.item.pk == expected.pk == twin.pk


class HoldStage:
    """A stand-in for the injection/conflict stages: holds the write, registers a callback."""

    name = "injection"
    seen: list = []

    def inspect(self, draft):
        if "hold me" in str(draft.memory.content):
            draft.status = MemoryStatus.QUARANTINED
            draft.notes["injection"] = {"score": 0.9}
            draft.on_persist(lambda item: HoldStage.seen.append((item.pk, item.status)))


class RefuseStage:
    name = "sensitive_data"

    def inspect(self, draft):
        if "secret" in str(draft.memory.content):
            raise GateRejected("Sensitive data is refused here.", code="sensitive_data")


@pytest.fixture
def test_stages():
    stages = (ValidateStage(), RefuseStage(), HoldStage(), DedupeStage())
    HoldStage.seen = []
    with wiring.overridden(gate_stages=stages):
        yield


def test_runner_honours_status_and_runs_callbacks_after_the_insert(agent_a, test_stages):
    result = remember(actor=agent_a, payload=remember_body(content={"text": "hold me"}))
    assert result.status == MemoryStatus.QUARANTINED and not result.merged
    assert HoldStage.seen == [(result.item.pk, MemoryStatus.QUARANTINED)]
    event = AuditEvent.objects.get(action=Action.MEMORY_CREATED)
    assert event.metadata["gate"] == {"injection": {"score": 0.9}}
    # A held duplicate never merges into the held one nor into an active one.
    assert not remember(actor=agent_a, payload=remember_body(content={"text": "hold me"})).merged


def test_a_refusing_stage_leaves_nothing_behind(agent_a, test_stages):
    with pytest.raises(GateRejected):
        remember(actor=agent_a, payload=remember_body(scope="user:new", content={"t": "secret"}))
    assert not MemoryItem.objects.exists()
    assert not Scope.objects.filter(external_id="new").exists()


def test_existing_factory_items_with_other_hash_do_not_merge(agent_a, tenant_a):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_1024")
    MemoryItemFactory(scope=scope, content={"text": "something else"})
    assert not remember(actor=agent_a, payload=remember_body()).merged


def test_fast_writable_scope_lookup_loads_exactly_what_the_orm_loads(agent_a, tenant_a):
    from apps.memory.selectors import find_writable_scope, scopes_visible_to

    tenant_a.half_life_overrides = {"procedural": 200, "60-79": 45}
    tenant_a.lww_key_patterns = ["address.*"]
    tenant_a.save()
    remember(actor=agent_a, payload=remember_body(scope="user:u_9"))
    fast = find_writable_scope(
        actor=agent_a, tenant_slug="tenant-a", kind="user", external_id="u_9"
    )
    orm = (
        scopes_visible_to(agent_a, "write_memories").select_related("tenant").get(external_id="u_9")
    )
    for field in ("pk", "kind", "external_id", "subject", "created_at", "tenant_id"):
        assert getattr(fast, field) == getattr(orm, field), field
    for field in ("slug", "half_life_overrides", "lww_key_patterns", "created_at"):
        assert getattr(fast.tenant, field) == getattr(orm.tenant, field), field
    assert isinstance(fast.tenant.half_life_overrides, dict)
    # The second write into the scope takes the fast path and still honours the policy.
    second = remember(
        actor=agent_a,
        payload=remember_body(scope="user:u_9", category=65, content={"text": "another"}),
    )
    assert not second.merged and second.item.half_life_days == 45


def test_fast_writable_scope_lookup_refuses_foreign_and_unknown(agent_a, tenant_b):
    from apps.memory.selectors import find_writable_scope

    ScopeFactory(tenant=tenant_b, kind="user", external_id="u_1")
    lookup = {"kind": "user", "external_id": "u_1"}
    assert find_writable_scope(actor=agent_a, tenant_slug="tenant-b", **lookup) is None
    assert find_writable_scope(actor=agent_a, tenant_slug="nope", **lookup) is None


def test_admins_write_anywhere_and_outsiders_nowhere(admin_user, outsider, tenant_b):
    ScopeFactory(tenant=tenant_b, kind="user", external_id="u_1")
    body = remember_body(tenant="tenant-b", scope="user:u_1")
    assert remember(actor=admin_user, payload=body).status == "active"
    with pytest.raises(GateRejected) as excinfo:
        remember(actor=outsider, payload={**body, "content": {"text": "other"}})
    assert excinfo.value.code == "not_found"


def test_nested_field_errors_keep_their_message(agent_a):
    with pytest.raises(GateRejected) as excinfo:
        remember(actor=agent_a, payload=remember_body(embedding=[0.1, "x"], embedding_model="m"))
    assert excinfo.value.fields["embedding"] == ["1: A valid number is required."]
