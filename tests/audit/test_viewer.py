"""/audit/ and GET /api/v1/audit-events/: who sees which events, filters, keyset pages,
streamed CSV, and the chain's latest verification on the page."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.audit.models import Action, AuditEvent
from apps.audit.services import verify_chain
from tests.audit.db import tamper
from tests.audit.factories import make_event
from tests.factories import ScopeFactory, TenantFactory, UserFactory

LIST = "/audit/"
EXPORT = "/audit/export.csv"
API = "/api/v1/audit-events/"


@pytest.fixture
def tenant_c(db):
    return TenantFactory(slug="tenant-c")


@pytest.fixture
def events(tenant_a, tenant_b, tenant_c):
    """One tenant-level and one scope-level event in each tenant."""
    made = {}
    for tenant in (tenant_a, tenant_b, tenant_c):
        scope = ScopeFactory(tenant=tenant)
        made[tenant.slug] = {
            "tenant": make_event(action=Action.TENANT_UPDATED, tenant=tenant),
            "scope": make_event(action=Action.MEMORY_CREATED, scope=scope),
        }
    return made


def sequences_on_page(client, **params) -> set[int]:
    response = client.get(LIST, params)
    assert response.status_code == 200
    return {event.sequence for event in response.context["page"].rows}


def sequences_from_api(client, **params) -> set[int]:
    response = client.get(API, params)
    assert response.status_code == 200
    return {row["sequence"] for row in response.json()["results"]}


def test_anonymous_requests_are_sent_to_login(client, db):
    for url in (LIST, EXPORT):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert client.get(API).status_code in (401, 403)


def test_officer_sees_every_event_of_their_tenants_only(client, officer, events):
    client.force_login(officer)
    seen = sequences_on_page(client)
    for slug in ("tenant-a", "tenant-b"):
        assert {events[slug]["tenant"].sequence, events[slug]["scope"].sequence} <= seen
    assert not {e.sequence for e in events["tenant-c"].values()} & seen
    assert sequences_from_api(client) == seen


def test_operator_sees_only_events_of_scopes_in_their_tenant(client, operator_a, events):
    client.force_login(operator_a)
    seen = sequences_on_page(client)
    assert seen == {events["tenant-a"]["scope"].sequence}
    assert sequences_from_api(client) == seen


def test_operator_with_a_single_scope_grant_sees_that_scope_only(client, tenant_a, events):
    scope = ScopeFactory(tenant=tenant_a)
    mine = make_event(scope=scope)
    operator = UserFactory(username="scoped-operator")
    grant_role(user=operator, role=Role.OPERATOR, target=scope, actor="test-setup")
    grant = AuditEvent.objects.order_by("-sequence").first()  # the grant is about the scope too
    client.force_login(operator)
    assert sequences_on_page(client) == {mine.sequence, grant.sequence}


def test_operator_who_is_also_an_officer_sees_the_whole_tenant(client, operator_a, events):
    grant_role(
        user=operator_a,
        role=Role.COMPLIANCE_OFFICER,
        target=events and TenantFactory(slug="tenant-a"),
        actor="test-setup",
    )
    client.force_login(operator_a)
    assert events["tenant-a"]["tenant"].sequence in sequences_on_page(client)


def test_analyst_sees_no_events(client, analyst, events):
    client.force_login(analyst)
    assert client.get(LIST).status_code == 403  # the section is not theirs, not empty
    assert sequences_from_api(client) == set()
    sequence = events["tenant-a"]["scope"].sequence
    assert client.get(f"{API}{sequence}/").status_code == 404


def test_admin_sees_everything(client, admin_user, events):
    client.force_login(admin_user)
    assert {e.sequence for pair in events.values() for e in pair.values()} <= sequences_on_page(
        client
    )


def test_foreign_event_answers_404_in_the_api(client, operator_b, events):
    client.force_login(operator_b)
    own = events["tenant-b"]["scope"].sequence
    foreign = events["tenant-a"]["scope"].sequence
    assert client.get(f"{API}{own}/").json()["sequence"] == own
    assert client.get(f"{API}{foreign}/").status_code == 404


def test_filters_narrow_page_and_api_alike(client, officer, events, tenant_a):
    client.force_login(officer)
    scope_event = events["tenant-a"]["scope"]
    cases = [
        ({"action": Action.MEMORY_CREATED, "tenant": "tenant-a"}, {scope_event.sequence}),
        (
            {"tenant": "tenant-b"},
            set(
                AuditEvent.objects.filter(
                    tenant_id=events["tenant-b"]["tenant"].tenant_id
                ).values_list("sequence", flat=True)
            ),
        ),
        (
            {"target_type": scope_event.target_type, "target_id": scope_event.target_id},
            {scope_event.sequence} if scope_event.target_id else None,
        ),
        ({"actor": "test-setup", "action": Action.ACCESS_GRANTED}, None),
    ]
    for params, expected in cases:
        page = sequences_on_page(client, **params)
        assert page == sequences_from_api(client, **params)
        if expected is not None:
            assert page == expected, params
    grants = sequences_on_page(client, actor="test-setup", action=Action.ACCESS_GRANTED)
    assert grants and all(
        AuditEvent.objects.get(sequence=s).action == Action.ACCESS_GRANTED for s in grants
    )


def test_time_range_filter(client, officer, events):
    client.force_login(officer)
    later = timezone.now() + timedelta(minutes=5)
    assert sequences_on_page(client, occurred_after=later.isoformat()) == set()
    assert sequences_on_page(client, occurred_before=later.isoformat())


def test_foreign_tenant_is_not_a_filter_choice(client, officer, events):
    client.force_login(officer)
    response = client.get(LIST, {"tenant": "tenant-c"})
    assert response.context["page"].rows == []
    assert "tenant" in response.context["filter"].errors


def test_keyset_pages_walk_older_and_back_newer_without_counting(client, officer, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    made = [make_event(scope=scope).sequence for _ in range(120)]
    client.force_login(officer)
    with CaptureQueriesContext(connection) as queries:
        first = client.get(LIST, {"action": Action.JOB_RUN}).context["page"]
    audit_queries = [q["sql"].upper() for q in queries if "AUDIT_AUDITEVENT" in q["sql"].upper()]
    assert audit_queries
    assert not any("COUNT(" in sql for sql in audit_queries)
    assert [e.sequence for e in first.rows] == made[::-1][:50]
    second = client.get(LIST, {"action": Action.JOB_RUN, "after": first.next_cursor})
    second_page = second.context["page"]
    assert [e.sequence for e in second_page.rows] == made[::-1][50:100]
    assert f"after={second_page.next_cursor}" in second.text
    third = client.get(LIST, {"action": Action.JOB_RUN, "after": second_page.next_cursor})
    assert [e.sequence for e in third.context["page"].rows] == made[::-1][100:]
    assert third.context["page"].next_cursor == ""
    back = client.get(LIST, {"action": Action.JOB_RUN, "before": second_page.previous_cursor})
    assert [e.sequence for e in back.context["page"].rows] == made[::-1][:50]
    assert back.context["page"].previous_cursor == ""


def test_list_page_and_api_query_counts_stay_flat(
    client, officer, tenant_a, django_assert_max_num_queries
):
    scope = ScopeFactory(tenant=tenant_a)
    for _ in range(60):
        make_event(scope=scope)
    client.force_login(officer)
    # 17: the page also names tenants and scopes (one query each), asks for the chain
    # head and the latest checkpoint; test_viewer_words checks it stays flat.
    with django_assert_max_num_queries(17):
        assert client.get(LIST).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(API).status_code == 200


def test_api_paginates_with_a_cursor(client, officer, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    for _ in range(7):
        make_event(scope=scope)
    client.force_login(officer)
    body = client.get(API, {"limit": 5}).json()
    assert len(body["results"]) == 5
    assert "cursor=" in body["next"]
    rest = client.get(body["next"]).json()["results"]
    first_page = [r["sequence"] for r in body["results"]]
    assert min(first_page) > max(r["sequence"] for r in rest)


def test_csv_export_streams_the_filtered_set_and_is_audited(client, officer, events):
    tenant_id = events["tenant-a"]["tenant"].tenant_id
    hostile = make_event(actor='=HYPERLINK("http://evil")', tenant=tenant_id)
    client.force_login(officer)
    response = client.get(EXPORT, {"tenant": "tenant-a"})
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    expected = set(
        AuditEvent.objects.filter(tenant_id=tenant_id).values_list("sequence", flat=True)
    )
    exported = {int(row["sequence"]) for row in rows}
    assert exported == expected
    by_sequence = {int(row["sequence"]): row for row in rows}
    assert by_sequence[hostile.sequence]["actor_label"].startswith("'=")
    last = AuditEvent.objects.order_by("-sequence").first()
    assert (last.action, last.actor_id) == (Action.AUDIT_EXPORTED, officer.pk)
    assert last.metadata == {"format": "csv", "filters": ["tenant"]}


def test_page_shows_the_latest_verification(client, officer, events):
    client.force_login(officer)
    assert 'data-chain-ok="unknown"' in client.get(LIST).text
    verify_chain(actor="test")
    page = client.get(LIST).text
    assert 'data-chain-ok="true"' in page
    assert "Chain verified" in page
    tamper(("UPDATE audit_auditevent SET metadata = '{}' WHERE sequence = 2", []))
    verify_chain(actor="test")
    page = client.get(LIST).text
    assert 'data-chain-ok="false"' in page
    assert "BROKEN at event #2" in page


def test_navigation_flags_a_broken_chain_to_readers_only(client, officer, analyst, events):
    tamper(("DELETE FROM audit_auditevent WHERE sequence = 3", []))
    verify_chain(actor="test")
    client.force_login(officer)
    audit_nav = [s for s in client.get(LIST).context["nav_sections"] if s["url"] == LIST]
    assert audit_nav[0]["count"] == 1
    client.force_login(analyst)
    audit_nav = [s for s in client.get(LIST).context["nav_sections"] if s["url"] == LIST]
    assert audit_nav == []  # analysts get no audit link at all, let alone the alert


def test_hostile_labels_are_escaped(client, admin_user, db):
    make_event(actor="<script>alert(1)</script>", data={"note": "<img src=x onerror=alert(1)>"})
    client.force_login(admin_user)
    page = client.get(LIST).text
    assert "<script>alert(1)" not in page
    assert "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
