"""Login lockout (django-axes) on both login pages, audited once; failed logins and denied
requests audited coalesced per minute; invalid API keys throttled per address
(issue 12 point 2)."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action, AuditEvent, DenialCounter
from apps.audit.services import flush_denials, verify_chain
from tests.factories import MemoryItemFactory, ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
ATTACKER = "198.51.100.7"


@pytest.fixture
def person(db):
    return UserFactory(username="officer2")


def try_login(client, username, password, *, address=ATTACKER, path=None):
    return client.post(
        path or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def events(action) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("sequence"))


def flush_after_the_minute() -> int:
    return flush_denials(now=timezone.now() + timedelta(minutes=1))


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_username_is_locked_out_after_the_configured_failures(client, person):
    for address in ("203.0.113.1", "203.0.113.2"):
        assert try_login(client, "officer2", "wrong", address=address).status_code == 200
    # The failure that reaches the limit is already answered with the lockout page.
    assert try_login(client, "officer2", "wrong", address="203.0.113.3").status_code == 429
    answer = try_login(client, "officer2", PASSWORD, address="203.0.113.4")
    assert answer.status_code == 429
    assert b"Too many failed logins" in answer.content
    assert "_auth_user_id" not in client.session


@override_settings(AXES_FAILURE_LIMIT=3)
def test_an_address_is_locked_out_whatever_usernames_it_tries(client, person):
    for name in ("alice", "bob", "carol"):
        try_login(client, name, "wrong")
    assert try_login(client, "officer2", PASSWORD).status_code == 429
    other_address = try_login(Client(), "officer2", PASSWORD, address="203.0.113.99")
    assert other_address.status_code == 302


@override_settings(AXES_FAILURE_LIMIT=3)
def test_the_admin_login_page_is_locked_out_too(client, admin_user):
    admin_user.set_password(PASSWORD)
    admin_user.save()
    path = reverse("admin:login")
    for _ in range(3):
        try_login(client, "admin", "wrong", path=path)
    assert try_login(client, "admin", PASSWORD, path=path).status_code == 429


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_lockout_is_audited_once_however_often_the_attacker_retries(client, person):
    for _ in range(10):
        try_login(client, "officer2", "wrong")
    [lockout] = events(Action.AUTH_LOCKED_OUT)
    assert lockout.metadata == {
        "username_hmac": keyed_hash("officer2"),
        "address_hmac": keyed_hash(ATTACKER),
        "failures": 3,
    }
    assert "officer2" not in str(lockout.metadata) and ATTACKER not in str(lockout.metadata)


@override_settings(AXES_FAILURE_LIMIT=3)
def test_an_admin_unlocks_a_locked_account_in_the_admin_and_it_is_audited(
    client, person, admin_user
):
    for _ in range(3):
        try_login(client, "officer2", "wrong")
    assert try_login(client, "officer2", PASSWORD).status_code == 429
    staff = Client()
    staff.force_login(admin_user)
    attempts = list(AccessAttempt.objects.values_list("pk", flat=True))
    answer = staff.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "unlock_selected", "_selected_action": attempts},
    )
    assert answer.status_code == 302
    assert not AccessAttempt.objects.exists()
    [unlocked] = events(Action.AUTH_UNLOCKED)
    assert unlocked.actor_id == admin_user.pk
    assert try_login(Client(), "officer2", PASSWORD).status_code == 302


def test_failed_logins_reach_the_chain_as_one_counted_event_per_address_and_minute(client, person):
    for _ in range(4):
        try_login(client, "officer2", "wrong")
    try_login(client, "nobody", "wrong", address="203.0.113.50")
    assert events(Action.AUTH_LOGIN_FAILED) == []  # counted, not yet on the chain
    flushed = flush_after_the_minute()
    assert 2 <= flushed <= 3  # one per address and minute (the loop may span two minutes)
    counts: dict[str, int] = {}
    for event in events(Action.AUTH_LOGIN_FAILED):
        address = event.metadata["address_hmac"]
        counts[address] = counts.get(address, 0) + event.metadata["count"]
        assert event.ip is None and event.target_type == "auth.user"
        assert ATTACKER not in str(event.metadata) and "officer2" not in str(event.metadata)
    assert counts == {keyed_hash(ATTACKER): 4, keyed_hash("203.0.113.50"): 1}
    assert not DenialCounter.objects.exists()
    assert verify_chain(actor="test", full=True).ok


def test_the_current_minute_is_not_flushed_early(client, person):
    try_login(client, "officer2", "wrong")
    assert flush_denials() == 0
    assert DenialCounter.objects.get().count == 1


def test_a_thousand_denials_cost_the_chain_one_event(client, tenant_b, operator_a):
    foreign = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_b))
    client.force_login(operator_a)
    before = AuditEvent.objects.count()
    started = timezone.now().replace(second=0, microsecond=0)
    for _ in range(1000):
        assert client.get(f"/memories/{foreign.pk}/").status_code == 404
    ended = timezone.now().replace(second=0, microsecond=0)
    assert AuditEvent.objects.count() == before
    flush_after_the_minute()
    denied = events(Action.ACCESS_DENIED)
    # One per minute the loop spanned (two on a quiet box; more when a loaded one is slow).
    assert len(denied) <= (ended - started) // timedelta(minutes=1) + 1
    assert sum(event.metadata["count"] for event in denied) == 1000
    assert {(event.actor_id, event.target_type) for event in denied} == {
        (operator_a.pk, "memory:detail")
    }


def test_bad_keys_and_csrf_failures_are_counted_denials(operator_a):
    agent = Client(REMOTE_ADDR="203.0.113.20")
    for _ in range(3):
        answer = agent.get("/api/v1/memories/", HTTP_AUTHORIZATION="Api-Key nope.nope")
        assert answer.status_code == 401
    browser = Client(enforce_csrf_checks=True, REMOTE_ADDR="203.0.113.21")
    browser.force_login(operator_a)
    assert browser.post("/api/v1/memories/", {}, content_type="application/json").status_code == 403
    flush_after_the_minute()
    # DRF drops the session user when CSRF fails, so both count against their address.
    counts = {e.metadata["address_hmac"]: e.metadata["count"] for e in events(Action.ACCESS_DENIED)}
    assert counts == {keyed_hash("203.0.113.20"): 3, keyed_hash("203.0.113.21"): 1}


@override_settings(MEMORY_CONSOLE_BAD_KEY_LIMIT=5)
def test_an_address_guessing_api_keys_is_throttled():
    guesser = Client(REMOTE_ADDR=ATTACKER)
    statuses = [
        guesser.get("/api/v1/memories/", HTTP_AUTHORIZATION=f"Api-Key guess{n}.x").status_code
        for n in range(8)
    ]
    assert statuses == [401] * 5 + [429] * 3
    other = Client(REMOTE_ADDR="203.0.113.8")
    assert other.get("/api/v1/memories/", HTTP_AUTHORIZATION="Api-Key a.b").status_code == 401
