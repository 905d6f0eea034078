"""`/api/v1/memories/` end to end: status codes, the error shape, pagination, and the
tenant boundary for every endpoint."""

import io

import pytest
from django.test import override_settings
from django.urls import reverse

from apps.audit.models import Action, AuditEvent
from apps.core.errors import RequestTooLarge
from apps.memory.api.limits import SizeLimitedJSONParser
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from tests.memory.api_helpers import remember_body
from tests.remembering import remember

pytestmark = pytest.mark.django_db

LIST = "/api/v1/memories/"


def detail(public_id: str, suffix: str = "") -> str:
    return f"{LIST}{public_id}/{suffix}"


def write(client, **overrides) -> dict:
    response = client.post(LIST, remember_body(**overrides), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) >= {"code", "message", "fields"}
    if code:
        assert error["code"] == code
    return error


def test_remember_answers_201_with_id_status_and_version(api_a):
    body = write(api_a)
    assert body["id"].startswith("mem_") and body["status"] == "active"
    assert body["version"] == 1 and body["merged"] is False
    assert "sealed_content" not in body and "embedding" not in body


def test_remember_duplicate_answers_200_merged(api_a):
    first = write(api_a)
    response = api_a.post(LIST, remember_body(), format="json")
    assert response.status_code == 200
    assert response.json()["id"] == first["id"] and response.json()["merged"] is True


def test_remember_costs_a_fixed_number_of_statements(api_a, django_assert_num_queries):
    """Authentication needs no statement for a key its process checked in the last 10 s
    (apps.access.known_keys; the first request loaded the key, its account and admin flag
    at once); the gate then resolves the scope, asks the denylist whether the subject was
    erased and looks for a twin under the dedupe lock (one statement on PostgreSQL), and
    inserts item and version with the audit event, which the database links to the
    chain's head under its lock. The answer needs no second read."""
    from django.db import connection

    write(api_a, content={"text": "the scope exists now"})
    # SQLite has no dedupe lock, but asks the denylist and the twin apart, reads the chain
    # head and sends item, version and event as three statements.
    statements = 3 if connection.vendor == "postgresql" else 7
    with django_assert_num_queries(statements + 2):  # + the test's savepoint and release
        response = api_a.post(LIST, remember_body(content={"text": "a new fact"}), format="json")
    assert response.status_code == 201
    assert response.json()["scope"] == remember_body()["scope"]
    assert response.json()["tenant"] == "tenant-a"


def test_an_embedded_remember_indexes_its_vector_in_the_same_statements(
    api_a, django_assert_num_queries
):
    """The embedding's row in the vector index (where pgvector is installed) goes in the
    statement of the item, its version and its event: no statement more than a write
    without an embedding."""
    from django.db import connection

    from apps.memory.vectors import TABLE, vector_search_available

    write(api_a, content={"text": "the scope exists now"})
    statements = 3 if connection.vendor == "postgresql" else 7
    body = remember_body(
        content={"text": "a new fact"}, embedding=[0.6, 0.0, -0.8], embedding_model="m"
    )
    with django_assert_num_queries(statements + 2):  # + the test's savepoint and release
        response = api_a.post(LIST, body, format="json")
    assert response.status_code == 201
    if vector_search_available():
        item = MemoryItem.objects.get(embedding_model="m")
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT scope_id, model, dims, embedding::text FROM {TABLE} WHERE item_id = %s",
                [item.pk],
            )
            assert cursor.fetchall() == [(item.scope_id, "m", 3, "[0.6,0,-0.8]")]


def test_a_writes_statement_stays_within_what_psycopg_caches(postgres_only, api_a):
    """psycopg rewrites the placeholders of a statement with more than 50 parameters anew
    on every execute (~0.3 ms CPU per write): the item, its version, its vector row and
    its audit event stay within the limit."""
    from django.db import connection
    from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

    from apps.memory.vectors import vector_search_available

    sent = []

    def keep(execute, sql, params, many, context):
        sent.append((sql, params))
        return execute(sql, params, many, context)

    body = remember_body(embedding=[0.6, 0.0, -0.8], embedding_model="m")
    with connection.execute_wrapper(keep):
        response = api_a.post(LIST, body, format="json")
    assert response.status_code == 201
    [(sql, params)] = [(sql, params) for sql, params in sent if '"memory_memoryitem"' in sql]
    assert "audit_append_events" in sql
    assert ("memory_itemembedding" in sql) == vector_search_available()
    assert len(params) <= MAX_CACHED_STATEMENT_PARAMS
    assert len(sql.encode()) <= MAX_CACHED_STATEMENT_LENGTH


def test_a_merge_answers_from_the_merged_row(api_a):
    first = write(api_a, content={"text": "Window seat", "extra": 1})
    response = api_a.post(
        LIST, remember_body(content={"extra": 1, "text": "Window seat"}), format="json"
    )
    merged = response.json()
    assert merged["merged"] is True and merged["id"] == first["id"]
    assert merged["version"] == 2 and merged["access_count"] == 1
    assert merged["scope"] == remember_body()["scope"]
    assert api_a.get(f"{LIST}{first['id']}/").json()["version"] == 2


def test_remember_bad_input_is_400_with_field_messages(api_a):
    response = api_a.post(LIST, remember_body(importance=3, memory_type="x"), format="json")
    error = assert_error(response, 400, "invalid")
    assert {"importance", "memory_type"} <= set(error["fields"])


@pytest.mark.parametrize(
    "raw",
    [b'{"importance": NaN}', b'{"importance": Infinity}', b"{not json", b"[1, 2]", b'"str"'],
)
def test_malformed_or_non_finite_json_is_400_never_500(api_a, raw):
    response = api_a.generic("POST", LIST, raw, content_type="application/json")
    assert_error(response, 400)


def test_non_json_content_type_is_415_in_the_error_shape(api_a):
    response = api_a.generic("POST", LIST, b"a=b", content_type="application/x-www-form-urlencoded")
    assert_error(response, 415)


def test_body_over_the_request_limit_is_413(api_a):
    big = remember_body(content={"text": "x" * (1024 * 1024 + 10)})
    assert_error(api_a.post(LIST, big, format="json"), 413, "too_large")


@override_settings(MEMORY_CONSOLE_MAX_REQUEST_BYTES=2000)
def test_the_parser_itself_stops_reading_past_the_limit():
    """Second line of defence for bodies whose declared length understates them."""
    parser = SizeLimitedJSONParser()
    with pytest.raises(RequestTooLarge):
        parser.parse(io.BytesIO(b'{"t": "' + b"x" * 5000 + b'"}'))
    assert parser.parse(io.BytesIO(b'{"t": "short"}')) == {"t": "short"}


@override_settings(MEMORY_CONSOLE_MAX_REQUEST_BYTES=2000)
def test_declared_body_over_a_configured_limit_is_413_before_parsing(api_a):
    payload = b'{"content": {"text": "' + b"x" * 5000 + b'"}}'
    response = api_a.generic("POST", LIST, payload, content_type="application/json")
    assert_error(response, 413, "too_large")


def test_content_over_64_kib_is_a_400_field_error(api_a):
    response = api_a.post(LIST, remember_body(content={"text": "x" * 70_000}), format="json")
    assert "content" in assert_error(response, 400)["fields"]


def test_get_accepts_public_id_and_plain_uuid_with_score_and_etag(api_a):
    created = write(api_a)
    uuid_hex = created["id"][4:]
    for ident in (
        created["id"],
        uuid_hex,
        f"{uuid_hex[:8]}-{uuid_hex[8:12]}-{uuid_hex[12:16]}-{uuid_hex[16:20]}-{uuid_hex[20:]}",
    ):
        response = api_a.get(detail(ident))
        assert response.status_code == 200
        assert response.json()["version"] == 1 and 0 < response.json()["score"] <= 0.5
        assert response["ETag"] == '"1"'


@pytest.mark.parametrize("ident", ["mem_zzz", "not-a-uuid", "mem_" + "0" * 32])
def test_unknown_or_malformed_ids_are_json_404(api_a, ident):
    assert_error(api_a.get(detail(ident)), 404, "not_found")


def test_list_filters_by_tenant_scope_type_and_status(api_a):
    write(api_a, scope="user:u_1", content={"text": "one"})
    write(api_a, scope="user:u_2", content={"text": "two"}, memory_type="episodic")
    gone = write(api_a, scope="user:u_2", content={"text": "three"})
    api_a.delete(detail(gone["id"]))

    def ids(**params):
        response = api_a.get(LIST, params)
        assert response.status_code == 200
        return sorted(item["text"] for item in response.json()["results"])

    assert ids() == ["one", "two"]  # active by default
    assert ids(scope="user:u_2") == ["two"]
    assert ids(memory_type="episodic") == ["two"]
    archived = api_a.get(LIST, {"status": "archived"}).json()["results"]
    assert archived == [{"id": gone["id"], "status": "archived"}]  # an agent: no content
    assert ids(tenant="tenant-a", scope="user:u_1") == ["one"]
    assert ids(tenant="tenant-b") == []


@pytest.mark.parametrize("params", [{"scope": "nope"}, {"status": "zombie"}, {"memory_type": "x"}])
def test_list_rejects_bad_filters(api_a, params):
    assert_error(api_a.get(LIST, params), 400)


def test_list_is_cursor_paginated_with_bounded_queries(api_a, django_assert_max_num_queries):
    for n in range(7):
        write(api_a, content={"text": f"Prefers aisle seat {n} on morning flights."})
    seen = []
    url = f"{LIST}?limit=3"
    while url:
        with django_assert_max_num_queries(6):
            page = api_a.get(url).json()
        seen += [item["id"] for item in page["results"]]
        url = page["next"]
    assert len(seen) == len(set(seen)) == 7


def test_patch_needs_a_version_and_bumps_it(api_a):
    created = write(api_a)
    response = api_a.patch(detail(created["id"]), {"key": "seat"}, format="json")
    assert "version" in assert_error(response, 428, "precondition_required")["fields"]
    response = api_a.patch(
        detail(created["id"]), {"version": 1, "content": {"text": "aisle seats"}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["version"] == 2 and response.json()["text"] == "aisle seats"
    assert response["ETag"] == '"2"'
    assert MemoryVersion.objects.filter(item_id=created["id"][4:]).count() == 2


def test_patch_with_a_stale_version_is_409(api_a):
    created = write(api_a)
    api_a.patch(detail(created["id"]), {"version": 1, "key": "a"}, format="json")
    response = api_a.patch(detail(created["id"]), {"version": 1, "key": "b"}, format="json")
    assert_error(response, 409, "version_conflict")
    assert response.json()["error"]["current_version"] == 2


def test_patch_accepts_if_match(api_a):
    created = write(api_a)
    ok = api_a.patch(detail(created["id"]), {"key": "a"}, format="json", HTTP_IF_MATCH='"1"')
    assert ok.status_code == 200
    stale = api_a.patch(detail(created["id"]), {"key": "b"}, format="json", HTTP_IF_MATCH='W/"1"')
    assert assert_error(stale, 412, "version_conflict")["current_version"] == 2
    bad = api_a.patch(detail(created["id"]), {"key": "b"}, format="json", HTTP_IF_MATCH="*x")
    assert_error(bad, 400)


def test_patch_rejects_bad_values(api_a):
    created = write(api_a)
    response = api_a.patch(
        detail(created["id"]), {"version": 1, "importance": 9, "content": "x"}, format="json"
    )
    assert {"importance", "content"} <= set(assert_error(response, 400)["fields"])


def test_delete_forgets_by_archiving(api_a):
    created = write(api_a)
    assert api_a.delete(detail(created["id"])).status_code == 204
    item = MemoryItem.objects.get(pk=created["id"][4:])
    assert item.status == MemoryStatus.ARCHIVED
    assert AuditEvent.objects.filter(action=Action.MEMORY_FORGOTTEN).count() == 1
    assert api_a.delete(detail(created["id"])).status_code == 204  # idempotent


def test_feedback_positive_reinforces_and_negative_cuts(api_a):
    created = write(api_a)
    up = api_a.post(detail(created["id"], "feedback/"), {"signal": "positive"}, format="json")
    assert up.status_code == 200 and up.json()["importance"] > 0.5
    assert up.json()["access_count"] == 1
    down = api_a.post(detail(created["id"], "feedback/"), {"signal": "negative"}, format="json")
    assert down.json()["importance"] < up.json()["importance"] * 0.5
    bad = api_a.post(detail(created["id"], "feedback/"), {"signal": "meh"}, format="json")
    assert "signal" in assert_error(bad, 400)["fields"]


def test_merge_keeps_the_newest_and_supersedes_the_rest(api_a):
    old = write(api_a, content={"text": "likes tea"}, importance=0.9)
    new = write(api_a, content={"text": "likes green tea"}, importance=0.3)
    response = api_a.post(f"{LIST}merge/", {"ids": [old["id"], new["id"]]}, format="json")
    assert response.status_code == 200
    merged = response.json()
    assert merged["id"] == new["id"] and merged["importance"] == 0.9
    old_item = MemoryItem.objects.get(pk=old["id"][4:])
    assert old_item.status == MemoryStatus.SUPERSEDED
    assert old_item.superseded_by_id.hex == new["id"][4:]


def test_merge_with_content_and_refusals(api_a):
    a = write(api_a, content={"text": "a"})
    b = write(api_a, content={"text": "b"})
    c = write(api_a, scope="user:other", content={"text": "c"})
    ok = api_a.post(
        f"{LIST}merge/", {"ids": [a["id"], b["id"]], "content": {"text": "a and b"}}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["text"] == "a and b"
    cross = api_a.post(f"{LIST}merge/", {"ids": [b["id"], c["id"]]}, format="json")
    assert "ids" in assert_error(cross, 400)["fields"]
    inactive = api_a.post(f"{LIST}merge/", {"ids": [a["id"], b["id"]]}, format="json")
    assert_error(inactive, 400)
    single = api_a.post(f"{LIST}merge/", {"ids": [b["id"]]}, format="json")
    assert_error(single, 400)


def test_unauthenticated_calls_are_401(client):
    assert_error(client.get(LIST), 401)
    assert_error(client.post(LIST, {}, content_type="application/json"), 401)


@override_settings(MEMORY_CONSOLE_API_KEY_RATE="3/min")
def test_throttling_is_per_key_with_retry_after(api_a, api_b):
    from django.core.cache import cache

    cache.clear()
    for _ in range(3):
        assert api_a.get(LIST).status_code == 200
    throttled = api_a.get(LIST)
    assert_error(throttled, 429, "throttled")
    assert int(throttled["Retry-After"]) > 0
    assert api_b.get(LIST).status_code == 200  # another key has its own budget
    cache.clear()


# --- the tenant boundary, for every endpoint -------------------------------------------


@pytest.fixture
def foreign_item(agent_b_key):
    """A memory of tenant B, written by B's agent."""
    return remember(actor=agent_b_key[0].user, payload=remember_body(tenant="tenant-b")).item


def _cross_tenant_calls(item_id: str, own_id: str):
    return [
        ("get detail", "get", detail(item_id), None),
        ("patch", "patch", detail(item_id), {"version": 1, "key": "x"}),
        ("delete", "delete", detail(item_id), None),
        ("feedback", "post", detail(item_id, "feedback/"), {"signal": "negative"}),
        ("merge", "post", f"{LIST}merge/", {"ids": [own_id, item_id]}),
        ("remember into B", "post", LIST, remember_body(tenant="tenant-b")),
    ]


def test_agent_of_tenant_a_gets_404_for_everything_of_tenant_b(api_a, foreign_item):
    own = write(api_a)
    before = MemoryItem.objects.get(pk=foreign_item.pk)
    for label, method, url, body in _cross_tenant_calls(foreign_item.public_id, own["id"]):
        response = getattr(api_a, method)(url, body, format="json")
        assert response.status_code == 404, label
        assert response.json()["error"]["code"] == "not_found", label
    after = MemoryItem.objects.get(pk=foreign_item.pk)
    assert (after.version, after.status, after.importance) == (
        before.version,
        before.status,
        before.importance,
    )
    assert MemoryItem.objects.filter(tenant__slug="tenant-b").count() == 1
    listed = api_a.get(LIST, {"tenant": "tenant-b"}).json()["results"]
    assert listed == []


def test_read_only_grant_cannot_write(api_a, operator_a):
    from rest_framework.test import APIClient

    own = write(api_a)
    client = APIClient()
    client.force_login(operator_a)  # operators view memories but do not write them
    assert client.get(detail(own["id"])).status_code == 200
    assert client.delete(detail(own["id"])).status_code == 404
    assert client.post(LIST, remember_body(), format="json").status_code == 404


def test_routes_reverse():
    assert reverse("memory-api:memory-list") == LIST


def test_errors_django_answers_on_api_paths_have_the_json_shape(api_a):
    assert_error(api_a.get("/api/v1/no-such-thing/"), 404, "not_found")
    assert_error(api_a.put(LIST, {}, format="json"), 405)
