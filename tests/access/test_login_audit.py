"""Logins, failed logins and logouts through the real views are in the audit log;
a failed attempt names the username only as a keyed hash."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.audit.models import Action, ActorKind, AuditEvent
from apps.audit.services import flush_denials, verify_chain
from tests.factories import UserFactory

PASSWORD = "correct-horse-battery"


@pytest.fixture
def person(db):
    return UserFactory(username="dana")


def latest() -> AuditEvent:
    return AuditEvent.objects.order_by("-sequence").first()


def test_successful_login_is_recorded_with_the_user_ip_and_request_id(client, person):
    response = client.post(
        reverse("login"),
        {"username": "dana", "password": PASSWORD},
        REMOTE_ADDR="203.0.113.9",
        HTTP_X_REQUEST_ID="req-login-1",
    )
    assert response.status_code == 302
    event = latest()
    assert event.action == Action.AUTH_LOGIN
    assert (event.actor_kind, event.actor_id, event.actor_label) == (
        ActorKind.USER,
        person.pk,
        "dana",
    )
    assert (event.target_type, event.target_id) == ("auth.user", str(person.pk))
    assert (event.ip, event.request_id) == ("203.0.113.9", "req-login-1")


def test_a_failed_login_is_counted_and_names_nobody_in_plain(client, person):
    """Failed logins are coalesced (tests/access/test_login_protection.py has the rest)."""
    response = client.post(reverse("login"), {"username": "dana", "password": "wrong"})
    assert response.status_code == 200
    flush_denials(now=timezone.now() + timedelta(minutes=1))
    event = latest()
    assert event.action == Action.AUTH_LOGIN_FAILED
    assert event.actor_kind == ActorKind.SYSTEM
    assert event.metadata["count"] == 1
    assert "dana" not in str(event.metadata) + event.actor_label + event.target_id


def test_logout_is_recorded(client, person):
    client.force_login(person)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    event = latest()
    assert (event.action, event.actor_id) == (Action.AUTH_LOGOUT, person.pk)


def test_login_events_keep_the_chain_valid(client, person):
    client.post(reverse("login"), {"username": "dana", "password": "wrong"})
    client.post(reverse("login"), {"username": "dana", "password": PASSWORD})
    client.post(reverse("logout"))
    flush_denials(now=timezone.now() + timedelta(minutes=1))
    assert verify_chain(actor="test", full=True).ok
