"""One decision map for the console and the API: who may release, reject or escalate an
entry in which state. Each role × state × decision is tried through both doors and must
give the same outcome: done, refused as already decided (409), or not there (404)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from apps.quarantine.models import EntryStatus, QuarantineEntry
from tests.factories import ScopeFactory
from tests.quarantine.factories import QuarantineEntryFactory

pytestmark = pytest.mark.django_db

DONE, DECIDED, HIDDEN = "done", "already decided", "404"

# role -> state -> decision -> outcome
EXPECTED = {
    "operator_a": {
        EntryStatus.PENDING: {"release": DONE, "reject": DONE, "escalate": DONE},
        EntryStatus.ESCALATED: {"release": DONE, "reject": DONE, "escalate": DECIDED},
        EntryStatus.RELEASED: {"release": DECIDED, "reject": DECIDED, "escalate": DECIDED},
    },
    "officer": {
        EntryStatus.PENDING: {"release": HIDDEN, "reject": HIDDEN, "escalate": HIDDEN},
        EntryStatus.ESCALATED: {"release": DONE, "reject": DONE, "escalate": HIDDEN},
        EntryStatus.RELEASED: {"release": DECIDED, "reject": DECIDED, "escalate": HIDDEN},
    },
    "admin_user": {
        EntryStatus.PENDING: {"release": DONE, "reject": DONE, "escalate": DONE},
        EntryStatus.ESCALATED: {"release": DONE, "reject": DONE, "escalate": DECIDED},
        EntryStatus.RELEASED: {"release": DECIDED, "reject": DECIDED, "escalate": DECIDED},
    },
    "operator_b": {
        state: dict.fromkeys(("release", "reject", "escalate"), HIDDEN)
        for state in (EntryStatus.PENDING, EntryStatus.ESCALATED, EntryStatus.RELEASED)
    },
    "analyst": {
        state: dict.fromkeys(("release", "reject", "escalate"), HIDDEN)
        for state in (EntryStatus.PENDING, EntryStatus.ESCALATED, EntryStatus.RELEASED)
    },
    "outsider": {
        state: dict.fromkeys(("release", "reject", "escalate"), HIDDEN)
        for state in (EntryStatus.PENDING, EntryStatus.ESCALATED, EntryStatus.RELEASED)
    },
}
DECIDED_TO = {
    "release": EntryStatus.RELEASED,
    "reject": EntryStatus.REJECTED,
    "escalate": EntryStatus.ESCALATED,
}
CASES = [
    (role, state, decision, outcome)
    for role, states in EXPECTED.items()
    for state, decisions in states.items()
    for decision, outcome in decisions.items()
]


def _entry(tenant, state) -> QuarantineEntry:
    return QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant), status=state)


def _outcome_of(entry: QuarantineEntry, state: str, decision: str, status_code: int) -> str:
    entry.refresh_from_db()
    if status_code == 404:
        assert entry.status == state
        return HIDDEN
    if entry.status == DECIDED_TO[decision] and entry.status != state:
        return DONE
    assert entry.status == state
    return DECIDED


@pytest.mark.parametrize(("role", "state", "decision", "expected"), CASES)
def test_the_api_follows_the_decision_map(
    request, tenant_a, tenant_b, role, state, decision, expected
):
    user = request.getfixturevalue(role)
    entry = _entry(tenant_a, state)
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        f"/api/v1/quarantine/{entry.pk}/{decision}/", {"reason": "checked"}, format="json"
    )
    assert response.status_code in {DONE: (200,), DECIDED: (409,), HIDDEN: (404,)}[expected]
    assert _outcome_of(entry, state, decision, response.status_code) == expected


@pytest.mark.parametrize(("role", "state", "decision", "expected"), CASES)
def test_the_console_follows_the_decision_map(
    request, client, tenant_a, tenant_b, role, state, decision, expected
):
    user = request.getfixturevalue(role)
    entry = _entry(tenant_a, state)
    client.force_login(user)
    url = reverse("quarantine:decide", args=[entry.pk, decision])
    response = client.post(url, {"reason": "checked"})
    assert response.status_code in (302, 404)
    assert _outcome_of(entry, state, decision, response.status_code) == expected


def test_the_console_edits_and_releases_escalated_entries_for_officers(client, officer, tenant_a):
    entry = _entry(tenant_a, EntryStatus.ESCALATED)
    client.force_login(officer)
    url = reverse("quarantine:decide", args=[entry.pk, "edit"])
    client.post(url, {"reason": "cleaned", "content": '{"text": "a plain fact"}'})
    entry.refresh_from_db()
    assert entry.status == EntryStatus.RELEASED and entry.decided_by == officer


def test_officers_list_and_open_escalated_entries_through_the_api(officer, tenant_a, tenant_b):
    mine, foreign_pending = _entry(tenant_a, EntryStatus.ESCALATED), _entry(tenant_a, "pending")
    api = APIClient()
    api.force_authenticate(officer)
    listed = api.get("/api/v1/quarantine/", {"status": "escalated"}).json()["results"]
    assert [row["id"] for row in listed] == [mine.pk]
    assert api.get(f"/api/v1/quarantine/{mine.pk}/").status_code == 200
    assert api.get(f"/api/v1/quarantine/{foreign_pending.pk}/").status_code == 404
    assert api.get("/api/v1/quarantine/").json()["results"] == []


def test_an_escalation_through_the_api_reaches_the_officers(operator_a, officer, tenant_a):
    entry = _entry(tenant_a, EntryStatus.PENDING)
    operator = APIClient()
    operator.force_authenticate(operator_a)
    escalated = operator.post(
        f"/api/v1/quarantine/{entry.pk}/escalate/", {"reason": "possible breach"}, format="json"
    )
    assert escalated.status_code == 200 and escalated.json()["status"] == "escalated"
    compliance = APIClient()
    compliance.force_authenticate(officer)
    rejected = compliance.post(
        f"/api/v1/quarantine/{entry.pk}/reject/", {"reason": "erase it"}, format="json"
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
