"""Request ids validated, service-account names validated, no-op PATCHes keep the
version, and logs without query strings, with request id and actor (issue 12 point 6)."""

import json
import logging

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from apps.access.api_keys import InvalidUsername, create_api_key
from apps.audit.models import AuditEvent
from apps.memory.models import MemoryVersion
from memory_console.logging import DropQueryStrings, JsonFormatter, RequestFieldsFilter
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("offered", ["req-1", "a1b2c3d4", "trace:01HZX.span_2"])
def test_a_well_formed_request_id_is_kept(db, offered):
    response = Client().get("/healthz", HTTP_X_REQUEST_ID=offered)
    assert response["X-Request-ID"] == offered


@pytest.mark.parametrize(
    "offered", ["<script>alert(1)</script>", "x" * 65, "=HYPERLINK(evil)", "a b", "é"]
)
def test_a_malformed_request_id_is_replaced_before_it_reaches_the_chain(client, offered):
    response = client.post("/login/", {"username": "x", "password": "y"}, HTTP_X_REQUEST_ID=offered)
    replaced = response["X-Request-ID"]
    assert replaced != offered and len(replaced) == 32
    assert not AuditEvent.objects.filter(request_id=offered).exists()


@pytest.mark.parametrize(
    "username", ["<b>bot</b>", "=cmd|' /C calc'!A0", "bot name", "", "x" * 151]
)
def test_create_api_key_refuses_usernames_django_would_refuse(tenant_a, username):
    with pytest.raises(InvalidUsername):
        create_api_key(username=username, tenant=tenant_a, actor="test")
    with pytest.raises(CommandError):
        call_command("create_api_key", "--user", username, "--tenant", "tenant-a")


def test_create_api_key_accepts_a_plain_username(tenant_a):
    key, _ = create_api_key(username="support-bot.v2@prod", tenant=tenant_a, actor="test")
    assert key.user.username == "support-bot.v2@prod"


def test_a_patch_that_changes_nothing_keeps_the_version(api_a):
    created = api_a.post("/api/v1/memories/", remember_body(importance=0.4), format="json").json()
    url = f"/api/v1/memories/{created['id']}/"
    same = {"version": 1, "importance": 0.4, "content": created["content"], "key": created["key"]}
    answer = api_a.patch(url, same, format="json")
    assert answer.status_code == 200
    assert answer.json()["version"] == 1
    assert MemoryVersion.objects.filter(item_id=created["id"][4:]).count() == 1
    changed = api_a.patch(url, {"version": 1, "importance": 0.5}, format="json")
    assert changed.json()["version"] == 2


def test_logged_request_lines_lose_their_query_strings():
    record = logging.LogRecord(
        "django.server",
        logging.INFO,
        __file__,
        1,
        '"%s" %s %s',
        ("GET /api/v1/memories/?scope=user:alice@example.com&q=secret HTTP/1.1", "200", "12"),
        None,
    )
    DropQueryStrings().filter(record)
    line = record.getMessage()
    assert "alice" not in line and "secret" not in line
    assert "GET /api/v1/memories/ HTTP/1.1" in line


def test_json_log_lines_carry_request_id_and_actor():
    record = logging.LogRecord("memory_console", logging.WARNING, __file__, 1, "hello", (), None)
    RequestFieldsFilter().filter(record)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "hello" and entry["level"] == "WARNING"
    assert {"request_id", "actor", "time", "logger"} <= set(entry)


def test_healthz_answers_json_without_a_login(db):
    from apps.audit.services import verify_chain

    verify_chain(actor="test")
    response = Client().get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["cache"]["ok"] is True
    assert body["checks"]["audit_chain"]["verified"] is True
    assert {"broker", "jobs"} <= set(body["checks"])
    assert isinstance(body["checks"]["jobs"]["last_runs"], dict)


def test_mapping_style_log_arguments_survive_the_query_string_filter():
    record = logging.LogRecord(
        "celery", logging.INFO, __file__, 1, "Task %(name)s at %(url)s", (), None
    )
    record.args = {"name": "flush", "url": "/x?secret=1"}
    DropQueryStrings().filter(record)
    assert record.getMessage() == "Task flush at /x"
