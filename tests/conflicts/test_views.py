"""The review screen: who sees what, what each action does, and how cheap the queue is."""

import pytest
from django.urls import reverse

from apps.access.roles import Role
from apps.access.services import grant_role
from apps.conflicts.models import ConflictStatus, Resolution
from apps.conflicts.selectors import NAV_COUNT_CAP, open_count_for
from apps.conflicts.services import resolve_conflict
from apps.memory.models import MemoryItem, MemoryStatus
from tests.conflicts.factories import ConflictFactory, fact, write_through_conflict_stage
from tests.factories import ScopeFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def conflict_a(tenant_a):
    return ConflictFactory(scope=ScopeFactory(tenant=tenant_a, external_id="u_a"))


@pytest.fixture
def conflict_b(tenant_b):
    return ConflictFactory(scope=ScopeFactory(tenant=tenant_b, external_id="u_b"))


def test_operator_sees_only_conflicts_of_granted_tenants(
    client, operator_a, conflict_a, conflict_b
):
    client.force_login(operator_a)
    page = client.get(reverse("conflicts:list"))
    assert page.status_code == 200
    assert f'id="conflict-{conflict_a.pk}"' in page.text
    assert f'id="conflict-{conflict_b.pk}"' not in page.text


def test_operator_cannot_open_or_resolve_a_foreign_conflict(client, operator_a, conflict_b):
    client.force_login(operator_a)
    assert client.get(reverse("conflicts:detail", args=[conflict_b.pk])).status_code == 404
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_b.pk]),
        {"resolution": "keep_new", "reason": "x"},
    )
    assert answer.status_code == 404
    assert client.post(reverse("conflicts:revert", args=[conflict_b.pk])).status_code == 404
    conflict_b.refresh_from_db()
    assert conflict_b.status == ConflictStatus.OPEN


def test_scope_grant_shows_that_scope_only(client, tenant_a, conflict_a):
    other = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    reviewer = UserFactory(username="scoped")
    grant_role(user=reviewer, role=Role.OPERATOR, target=conflict_a.scope, actor="test")
    client.force_login(reviewer)
    text = client.get(reverse("conflicts:list")).text
    assert f'id="conflict-{conflict_a.pk}"' in text and f'id="conflict-{other.pk}"' not in text


@pytest.mark.parametrize("persona", ["analyst", "officer", "outsider"])
def test_people_without_review_rights_see_nothing(client, request, persona, conflict_a):
    client.force_login(request.getfixturevalue(persona))
    assert f'id="conflict-{conflict_a.pk}"' not in client.get(reverse("conflicts:list")).text
    assert client.get(reverse("conflicts:detail", args=[conflict_a.pk])).status_code == 404


def test_login_is_required(client, conflict_a):
    assert client.get(reverse("conflicts:list")).status_code == 302


def test_queue_is_sorted_oldest_first_and_filterable(client, operator_a, tenant_a):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_42")
    newer = ConflictFactory(scope=scope, key="preference.food")
    older = ConflictFactory(scope=ScopeFactory(tenant=tenant_a), key="preference.drink")
    older.created_at = newer.created_at.replace(year=newer.created_at.year - 1)
    older.save()
    client.force_login(operator_a)
    text = client.get(reverse("conflicts:list")).text
    assert text.index(f"conflict-{older.pk}") < text.index(f"conflict-{newer.pk}")
    by_scope = client.get(reverse("conflicts:list"), {"scope": "user:u_42"}).text
    assert f"conflict-{newer.pk}" in by_scope and f"conflict-{older.pk}" not in by_scope
    by_key = client.get(reverse("conflicts:list"), {"key": "preference.d*"}).text
    assert f"conflict-{older.pk}" in by_key and f"conflict-{newer.pk}" not in by_key
    by_age = client.get(reverse("conflicts:list"), {"older_than": "30"}).text
    assert f"conflict-{older.pk}" in by_age and f"conflict-{newer.pk}" not in by_age
    by_tenant = client.get(reverse("conflicts:list"), {"tenant": "tenant-b"}).text
    assert f"conflict-{older.pk}" not in by_tenant


def test_queue_pages_by_cursor(client, operator_a, tenant_a):
    import apps.conflicts.selectors as selectors

    scope = ScopeFactory(tenant=tenant_a)
    conflicts = ConflictFactory.create_batch(7, scope=scope)
    client.force_login(operator_a)
    original = selectors.PAGE_SIZE
    selectors.PAGE_SIZE = 5
    try:
        first = client.get(reverse("conflicts:list"))
        assert all(f'conflict-{c.pk}"' in first.text for c in conflicts[:5])
        cursor = first.context["page"].next_cursor
        second = client.get(reverse("conflicts:list"), {"after": cursor}).text
        assert all(f'conflict-{c.pk}"' in second for c in conflicts[5:])
        assert f'conflict-{conflicts[0].pk}"' not in second
    finally:
        selectors.PAGE_SIZE = original


def test_queue_query_count_does_not_grow_with_rows(
    client, operator_a, tenant_a, django_assert_max_num_queries
):
    ConflictFactory.create_batch(3, scope=ScopeFactory(tenant=tenant_a))
    client.force_login(operator_a)
    client.get(reverse("conflicts:list"))  # warm the session
    with django_assert_max_num_queries(9) as few:
        client.get(reverse("conflicts:list"))
    ConflictFactory.create_batch(20, scope=ScopeFactory(tenant=tenant_a))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("conflicts:list"))
    counts = [q["sql"] for q in few if "COUNT(" in q["sql"].upper() and "conflict" in q["sql"]]
    assert all("LIMIT" in sql.upper() for sql in counts)  # only the capped nav count


def test_detail_shows_both_sides_escaped_with_a_field_diff(client, operator_a, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, "profile.bio", {"bio": "calm", "tags": ["a"]}, access_count=7)
    write_through_conflict_stage(
        scope=scope, key="profile.bio", content={"bio": "<script>alert(1)</script>", "age": 3}
    )
    conflict = scope.conflicts.get()
    client.force_login(operator_a)
    page = client.get(reverse("conflicts:detail", args=[conflict.pk]))
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    diff = {entry.path: entry.change for entry in page.context["review"].diff}
    assert diff == {"age": "added", "bio": "changed", "tags": "removed"}
    assert "data-access-count>7<" in page.text
    assert "Score now" in page.text


def test_resolving_from_the_page_moves_on_to_the_next_conflict(client, operator_a, tenant_a):
    first, second = ConflictFactory.create_batch(2, scope=ScopeFactory(tenant=tenant_a))
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[first.pk]),
        {"resolution": "keep_new", "reason": "newer is right"},
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("conflicts:detail", args=[second.pk])
    first.refresh_from_db()
    assert first.resolution == Resolution.KEEP_NEW


def test_htmx_resolution_returns_the_next_panel(client, operator_a, tenant_a):
    first, second = ConflictFactory.create_batch(2, scope=ScopeFactory(tenant=tenant_a))
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[first.pk]),
        {"resolution": "keep_old", "reason": "x"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert "<html" not in answer.text
    assert f"Conflict {second.pk}" in answer.text
    assert answer["HX-Push-Url"] == reverse("conflicts:detail", args=[second.pk])
    # Heading, breadcrumb and title all name the conflict the pushed URL names.
    assert f'aria-current="page">Conflict {second.pk}</li>' in answer.text
    assert answer.text.startswith(f"<title>Conflict {second.pk} · Memory Console</title>")
    assert f"Conflict {first.pk}<" not in answer.text


def test_row_action_keeps_newest_and_returns_the_row(client, operator_a, conflict_a):
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_a.pk]),
        {"resolution": "keep_newest", "reason": "bulk triage", "context": "row"},
        headers={"HX-Request": "true"},
    )
    assert answer.text.lstrip().startswith(f'<tr id="conflict-{conflict_a.pk}"')
    conflict_a.refresh_from_db()
    assert conflict_a.resolution == Resolution.KEEP_NEW


def test_reason_is_required(client, operator_a, conflict_a):
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_a.pk]), {"resolution": "keep_new"}
    )
    assert answer.status_code == 400
    assert "reason is kept" in answer.text
    conflict_a.refresh_from_db()
    assert conflict_a.is_open


def test_bad_merged_content_is_refused_with_a_clear_error(client, operator_a, conflict_a):
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_a.pk]),
        {"resolution": "merge", "reason": "x", "content": '{"drink": tea}'},
    )
    assert answer.status_code == 400
    assert "not valid JSON" in answer.text
    assert "{&quot;drink&quot;: tea}" in answer.text  # the editor keeps what was typed


def test_second_reviewer_gets_a_clear_message(client, operator_a, admin_user, conflict_a):
    resolve_conflict(conflict_id=conflict_a.pk, resolution="keep_old", actor=admin_user, reason="x")
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:resolve", args=[conflict_a.pk]),
        {"resolution": "keep_new", "reason": "y"},
    )
    assert answer.status_code == 409
    assert "already resolved" in answer.text and "by admin" in answer.text


def test_bulk_keep_newest_settles_only_visible_selected_conflicts(
    client, operator_a, tenant_a, conflict_b
):
    mine = ConflictFactory.create_batch(2, scope=ScopeFactory(tenant=tenant_a))
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:bulk_keep_newest"),
        {"ids": [mine[0].pk, mine[1].pk, conflict_b.pk], "reason": "triage"},
    )
    assert answer.status_code == 302
    for conflict in mine:
        conflict.refresh_from_db()
        assert conflict.resolution == Resolution.KEEP_NEW
    conflict_b.refresh_from_db()
    assert conflict_b.is_open


def test_bulk_without_reason_changes_nothing(client, operator_a, conflict_a):
    client.force_login(operator_a)
    client.post(reverse("conflicts:bulk_keep_newest"), {"ids": [conflict_a.pk]})
    conflict_a.refresh_from_db()
    assert conflict_a.is_open


def test_revert_from_the_history_page_redirects_back(client, operator_a, conflict_a):
    resolve_conflict(conflict_id=conflict_a.pk, resolution="keep_new", actor=operator_a, reason="x")
    client.force_login(operator_a)
    back = "/memories/some-item/"
    answer = client.post(reverse("conflicts:revert", args=[conflict_a.pk]), {"next": back})
    assert answer["Location"] == back
    conflict_a.refresh_from_db()
    assert conflict_a.is_open
    assert MemoryItem.objects.get(pk=conflict_a.incoming_item_id).status == "pending_review"


def test_revert_ignores_an_offsite_next(client, operator_a, conflict_a):
    resolve_conflict(conflict_id=conflict_a.pk, resolution="keep_new", actor=operator_a, reason="x")
    client.force_login(operator_a)
    answer = client.post(
        reverse("conflicts:revert", args=[conflict_a.pk]), {"next": "https://evil.example/"}
    )
    assert answer["Location"] == reverse("conflicts:detail", args=[conflict_a.pk])


def test_reinstate_view_needs_review_rights_on_the_item(client, operator_a, operator_b, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = fact(scope, "address.city", {"city": "Chaoyang"})
    write_through_conflict_stage(scope=scope, key="address.city", content={"city": "Haidian"})
    client.force_login(operator_b)
    assert client.post(reverse("conflicts:reinstate", args=[old.pk])).status_code == 404
    client.force_login(operator_a)
    answer = client.post(reverse("conflicts:reinstate", args=[old.pk]), {"next": "/memories/"})
    assert answer.status_code == 302
    old.refresh_from_db()
    assert old.status == MemoryStatus.ACTIVE


def test_nav_shows_the_capped_open_count(client, operator_a, operator_b, conflict_a):
    assert open_count_for(operator_a) == 1
    assert open_count_for(operator_b) is None
    assert NAV_COUNT_CAP < 10_000
    client.force_login(operator_a)
    page = client.get(reverse("conflicts:list"))
    assert "data-nav-count>1<" in page.text


def test_pages_load_the_console_script_and_no_inline_script(client, operator_a, conflict_a):
    client.force_login(operator_a)
    for url in (reverse("conflicts:list"), reverse("conflicts:detail", args=[conflict_a.pk])):
        text = client.get(url).text
        assert "js/conflicts.js" in text
        assert "<script>" not in text and " style=" not in text and " onclick=" not in text


def test_resolved_conflicts_can_be_listed_to_find_one_to_undo(client, operator_a, conflict_a):
    resolve_conflict(conflict_id=conflict_a.pk, resolution="keep_old", actor=operator_a, reason="x")
    client.force_login(operator_a)
    assert f"conflict-{conflict_a.pk}" not in client.get(reverse("conflicts:list")).text
    resolved = client.get(reverse("conflicts:list"), {"status": "resolved"}).text
    assert f'id="conflict-{conflict_a.pk}"' in resolved and "View / undo" in resolved
