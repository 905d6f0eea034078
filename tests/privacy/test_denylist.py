"""The denylist guards the way back in (issue 14 §4)."""

import pytest

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action, AuditEvent
from apps.memory.models import MemoryItem
from apps.privacy import services
from apps.privacy.models import DenylistEntry
from apps.privacy.selectors import is_denylisted
from tests.memory.api_helpers import remember_body
from tests.privacy.factories import approved_request

pytestmark = pytest.mark.django_db
MEMORIES = "/api/v1/memories/"


@pytest.fixture
def erased(tenant_a, officer, officer2, api_a):
    api_a.post(MEMORIES, remember_body(scope="user:u_gone"), format="json")
    api_a.post(MEMORIES, remember_body(scope="session:s_gone", subject="u_gone"), format="json")
    request = approved_request(tenant=tenant_a, subject="u_gone", by=officer, second=officer2)
    services.start_erasure(request_id=request.pk, actor=officer)
    services.execute_erasure(request_id=request.pk)
    return request


def test_a_remember_for_an_erased_subject_is_refused_with_409_and_audited_anonymously(
    erased,
    api_a,
    tenant_a,
):
    for body in (
        remember_body(scope="user:u_gone"),  # the old scope key
        remember_body(scope="session:s_new", subject="u_gone"),  # a new scope, same person
        remember_body(scope="session:s_gone"),  # an erased session's key
    ):
        answer = api_a.post(MEMORIES, body, format="json")
        assert answer.status_code == 409, answer.json()
        assert answer.json()["error"]["code"] == "subject_erased"
    assert not MemoryItem.objects.filter(tenant=tenant_a).exists()
    refusals = AuditEvent.objects.filter(action=Action.ERASURE_WRITE_REFUSED)
    assert refusals.count() == 3
    assert all("gone" not in str(event.metadata) for event in refusals)
    other = api_a.post(MEMORIES, remember_body(scope="user:u_stays"), format="json")
    assert other.status_code == 201


def test_is_denylisted_answers_for_subjects_and_scope_keys(erased, tenant_a, tenant_b):
    assert is_denylisted(tenant_id=tenant_a.pk, subject="u_gone")
    assert is_denylisted(tenant_id=tenant_a.pk, scope_key="session:s_gone")
    assert not is_denylisted(tenant_id=tenant_a.pk, subject="u_other")
    assert not is_denylisted(tenant_id=tenant_b.pk, subject="u_gone")


def test_an_admin_lifts_an_entry_with_a_reason_and_the_subject_may_be_written_again(
    erased,
    api_a,
    admin_user,
    officer,
):
    entry = DenylistEntry.objects.get(digest=keyed_hash("u_gone"))
    with pytest.raises(services.PrivacyError) as refused:
        services.lift_entry(entry_id=entry.pk, actor=officer, reason="asked")
    assert refused.value.status == 403
    with pytest.raises(services.PrivacyError):
        services.lift_entry(entry_id=entry.pk, actor=admin_user, reason="")
    services.lift_entry(entry_id=entry.pk, actor=admin_user, reason="subject re-registered")
    scope_entry = DenylistEntry.objects.get(digest=keyed_hash("user:u_gone"))
    services.lift_entry(entry_id=scope_entry.pk, actor=admin_user, reason="re-registered")
    answer = api_a.post(MEMORIES, remember_body(scope="user:u_gone"), format="json")
    assert answer.status_code == 201
    lifted = AuditEvent.objects.get(action=Action.DENYLIST_LIFTED, target_id=str(entry.pk))
    assert lifted.actor_label == "admin" and lifted.metadata["reason_length"] == 21
    with pytest.raises(services.StepNotAllowed):
        services.lift_entry(entry_id=entry.pk, actor=admin_user, reason="again")
