"""The audit log is append-only at every layer: model, queryset, admin and database."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from apps.audit.models import Action, AppendOnlyError, AuditEvent
from apps.audit.services import record


@pytest.fixture
def event(db):
    return record(actor="test", action=Action.JOB_RUN, data={"job": "immutability"})


def test_saving_an_existing_event_is_refused(event):
    event.action = Action.AUTH_LOGIN
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.save(update_fields=["action"])


def test_deleting_an_event_is_refused(event):
    with pytest.raises(AppendOnlyError):
        event.delete()
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_queryset_update_and_delete_are_refused(event):
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(pk=event.pk).update(action="auth.login")
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.bulk_update([event], ["action"])
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.bulk_create([AuditEvent(sequence=99, occurred_at=event.occurred_at)])
    assert AuditEvent.objects.get(pk=event.pk).action == Action.JOB_RUN


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditevent SET action = 'auth.login'",
        "DELETE FROM audit_auditevent",
        "TRUNCATE audit_auditevent",
    ],
    ids=["update", "delete", "truncate"],
)
def test_database_trigger_refuses_raw_changes(postgres_only, event, sql):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL memory_console.audit_allow_truncate = off")
        cursor.execute(sql)
    assert AuditEvent.objects.get(pk=event.pk).action == Action.JOB_RUN


def test_database_trigger_lets_inserts_through(postgres_only, event):
    second = record(actor="test", action=Action.JOB_RUN)
    assert second.sequence == event.sequence + 1


def test_admin_lists_events_but_cannot_add_change_or_delete(client, admin_user, event):
    client.force_login(admin_user)
    changelist = reverse("admin:audit_auditevent_changelist")
    response = client.get(changelist, {"q": "test"})
    assert response.status_code == 200
    assert f"#{event.sequence}" in response.text or str(event.sequence) in response.text
    assert client.get(reverse("admin:audit_auditevent_add")).status_code == 403
    delete_url = reverse("admin:audit_auditevent_delete", args=[event.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    change_url = reverse("admin:audit_auditevent_change", args=[event.pk])
    client.post(change_url, {"action": "auth.login"})
    assert AuditEvent.objects.get(pk=event.pk).action == Action.JOB_RUN
